"""YAML written as text for the differential scripts (diff-deckhand.py, diff-ardana.py,
diff-cloud-init.py, diff-heat.py; readback.py uses `typed`).

The real systems read their inputs with PyYAML (YAML 1.1), so random inputs must reach what
PyYAML does with text people write, not only what `yaml.safe_dump` would produce: plain
scalars that YAML 1.1 resolves to other types (`yes`, `on`, `0755`, `1:30`, `2024-01-02`,
`~`, `.5`, `1_000`) and plain ones that look like numbers but are strings to PyYAML (`-.5`,
`1e5`, `08`, `0o17`, `1:60`, `2024-1-2`), single- and double-quoted strings, literal and
folded block scalars (`|`, `|-`, `|+`, `>`, `>-`), flow and block collections, comments,
anchors and aliases (`&a` / `*a`) and merge keys (`<<: *a`); values PyYAML builds from tags
are written with them: bytes as `!!binary`, sets as `!!set`, `Omap` pairs as `!!omap` (flow and
block). Standard library only.

`Emitter(rng, features).stream(docs)` writes a multi-document stream, `.document(value)` one
document. Every choice is random; each construct used is added to `features` (a set), so a
run can report its coverage. The text must read back as exactly the value given (types and
key order): `canon(value)` names a value with its types, for the scripts' read-back checks;
`typed(value)` is the same for comparing a real system's value with what a YAML reader builds
back from another program's output.
"""
import base64, datetime, json, math, re

BOOL_WORDS = {"yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
              "on", "On", "ON", "off", "Off", "OFF"}
NULL_WORDS = {"null", "Null", "NULL", "~", ""}
TRUE_TEXTS = ["true", "true", "True", "TRUE", "yes", "Yes", "on", "ON"]
FALSE_TEXTS = ["false", "false", "False", "no", "No", "off", "OFF"]
FLOAT_TEXTS = {0.5: ["0.5", ".5", "5.0e-1", "0.5_0"], 1.0: ["1.0", "1.", "1.0e+0"], 2.5: ["2.5", "+2.5"],
               -0.25: ["-0.25", "-2.5e-1"], -0.5: ["-0.5", "-5.e-1", "-0.50"], 1000.0: ["1000.0", "1.0e+3", "1_000.0"],
               90.0: ["90.0", "1:30.0"], 0.1: ["0.1"], 3.0: ["3.0"], 0.0: ["0.0", "0.", "0.0e+0"]}

# YAML 1.1 as PyYAML's resolver applies it to a plain scalar (the types of yaml.org/type/).
_YAML11 = [
    ("bool", re.compile(r"(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)")),
    ("float", re.compile(r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
                         r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")),
    ("int", re.compile(r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                       r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+")),
    ("merge", re.compile(r"<<")),
    ("null", re.compile(r"~|null|Null|NULL|")),
    ("timestamp", re.compile(r"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
                             r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?"
                             r":[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?")),
    ("value", re.compile(r"=")),
]
# Strings that look like numbers or dates to a YAML 1.2 reader (or to a person) but that
# PyYAML reads as strings: written unquoted on purpose.
TRICKY_STRINGS = ["-.5", "+.5", "1e5", "1.0e5", "0o17", "08", "09", "1:60", "2024-1-2", "0x1G", "1_", "._5",
                  "12:30:61", "0b102", "1.2.3", "+", ".", "..", "yes!", "Off-line", "~x", "nulls", "True-ish",
                  "0.5.1", "1:30:00.", "-0x", "2024-01-02x", "e5", "inf", "NaN"]
_PLAIN = re.compile(r"[A-Za-z0-9._/+~^$()=<-][A-Za-z0-9 ._/+~^$():=<>!-]*")


class Omap(list):
    """Pairs written as `!!omap` (PyYAML builds a list of 2-tuples from it)."""


def yaml11_type(s):
    """The type PyYAML gives the plain scalar s ('str' when no implicit resolver matches)."""
    for name, rx in _YAML11:
        if rx.fullmatch(s):
            return name
    return "str"


def plain_ok(s, flow):
    """Whether s can be written as a plain scalar (block or flow context) and read back as s."""
    if not s or not _PLAIN.fullmatch(s) or s != s.strip() or yaml11_type(s) != "str":
        return False
    if ": " in s or " #" in s or s.endswith(":") or "  " in s:
        return False
    if s[0] in "-?:" and (len(s) == 1 or s[1] == " "):
        return False
    if s.startswith(("---", "...")):
        return False
    return not (flow and any(c in s for c in ",[]{}"))


def canon(v):
    """A text naming the value with its Python types and key order (read-back checks)."""
    if v is None:
        return "n"
    if v is True or v is False:
        return "b%d" % v
    if isinstance(v, int):
        return "i%d" % v
    if isinstance(v, float):
        return "f" + repr(v)
    if isinstance(v, str):
        return "s" + json.dumps(v)
    if isinstance(v, datetime.datetime):
        return "T" + v.isoformat()
    if isinstance(v, datetime.date):
        return "D" + v.isoformat()
    if isinstance(v, bytes):
        return "B" + v.hex()
    if isinstance(v, dict):
        return "{" + ",".join(canon(k) + ":" + canon(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(canon(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ",".join(canon(x) for x in v) + ")"
    if isinstance(v, (set, frozenset)):
        return "S{" + ",".join(sorted(canon(x) for x in v)) + "}"
    return "?" + type(v).__name__ + repr(v)


def reads_back(text, want):
    """None when PyYAML reads `text` as `want` (compared by `canon`), else what it reads: the
    generator check of the differential scripts (a text that does not read back is a bug of
    the generator, not of the system under test)."""
    import yaml  # here: the writer itself needs no YAML reader

    try:
        got = yaml.safe_load(text)
    except yaml.YAMLError as e:
        return f"<error> {e}"
    return None if canon(got) == canon(want) else canon(got)


def typed(v):
    """A value with its Python types made explicit (1, 1.0 and True differ; bytes, sets, dates
    and NaN kept), for comparing a system's value with what a YAML reader builds back from a
    rendered file. A tuple has a YAML form only as a pair of `!!omap` / `!!pairs`, that is as an
    item of a list whose items are all 2-tuples; anywhere else (cloud-init's list merger builds
    `('a',)` and 3-tuples from a pair, a tuple among other items, a tuple inside a pair) it is
    compared as the list a writer makes of it."""
    if isinstance(v, float) and math.isnan(v):
        return ("float", "nan")
    if isinstance(v, dict):
        return ("dict", tuple((typed(k), typed(x)) for k, x in v.items()))
    if isinstance(v, (set, frozenset)):
        return ("set", frozenset(typed(x) for x in v))
    if isinstance(v, list) and v and all(isinstance(x, tuple) and len(x) == 2 for x in v):
        return ("pairs", tuple((typed(k), typed(x)) for k, x in v))
    if isinstance(v, (list, tuple)):
        return ("list", tuple(typed(x) for x in v))
    return (type(v).__name__, repr(v))


class Emitter:
    """Writes values as YAML text that PyYAML reads back exactly (types and key order)."""

    def __init__(self, rng, features=None, anchors=0.0, comments=None, flow=None,
                 datetimes=("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d  %H:%M:%S"), literal_hash=False):
        self.rng = rng
        self.literal_hash = literal_hash  # a literal block may start with '#' (a #cloud-config text)
        self.datetimes = datetimes       # spellings of a datetime (strftime formats)
        self.f = features if features is not None else set()
        self.anchor_p = anchors          # chance to anchor a collection, and to alias a repeat
        self.fixed_comment_p, self.fixed_flow_p = comments, flow
        self.step, self.flow_p, self.comment_p = 2, 0.0, 0.0
        self.anchored = {}               # canon -> (anchor name, value) of anchored values
        self.count = 0

    # --- documents

    def reset(self):
        rng = self.rng
        self.step = rng.choice([2, 2, 2, 3, 4])
        if self.step != 2:
            self.f.add("yaml-indent-%d" % self.step)
        self.flow_p = self.fixed_flow_p if self.fixed_flow_p is not None else rng.choice([0.0, 0.0, 0.1, 0.25])
        self.comment_p = self.fixed_comment_p if self.fixed_comment_p is not None else rng.choice([0.0, 0.0, 0.05, 0.15])
        self.anchored = {}  # anchors do not cross documents

    def stream(self, docs):
        """A multi-document stream (None: an empty document)."""
        rng, out = self.rng, []
        directive = rng.random() < 0.03
        if directive:
            out.append("%YAML 1.1")
            self.f.add("yaml-directive")
        if rng.random() < 0.2:
            out.append("# generated")
        for i, d in enumerate(docs):
            self.reset()
            if d is None:
                out.append("---")
                continue
            if i == 0 and not directive and rng.random() < 0.3:
                self.f.add("yaml-first-document-without-marker")
            elif rng.random() < 0.04:
                out.append("--- " + self.inline(d))
                self.f.add("yaml-flow-document")
                continue
            else:
                out.append("---" + (" # doc %d" % i if rng.random() < 0.05 else ""))
            out.extend(self.top(d))
            if rng.random() < 0.04:
                out.append("...")
                self.f.add("yaml-document-end-marker")
        return "\n".join(out) + "\n"

    def document(self, value):
        """One document (a file): a mapping in block style, or any value."""
        rng = self.rng
        self.reset()
        out = []
        if rng.random() < 0.15:
            out.append("# " + rng.choice(["generated", "a file", "key: value"]))
            self.f.add("yaml-comment-top")
        if rng.random() < 0.05:
            out.append("---")
            self.f.add("yaml-document-start-marker")
        out.extend(self.top(value))
        if rng.random() < 0.05:
            out.append("...")
            self.f.add("yaml-document-end-marker")
        return "\n".join(out) + "\n"

    def top(self, v):
        if isinstance(v, dict) and v:
            return self.block_map(v, 0)
        if isinstance(v, list) and v and self.rng.random() < 0.7:
            return self.block_seq(v, 0)
        return [self.inline(v)]

    # --- scalars

    def flow(self):
        return self.rng.random() < self.flow_p

    def key(self, k):
        if not isinstance(k, str):
            self.f.add("yaml-non-string-key")
        if k is True:
            return self.rng.choice(["on", "yes", "true"])
        if k is False:
            return self.rng.choice(["off", "no"])
        if k is None:
            return self.rng.choice(["~", "null"])
        if isinstance(k, int):
            return str(k)
        return self.string(k, flow=True)

    def int_text(self, v):
        r = self.rng.random()
        if v >= 0 and r < 0.06:
            self.f.add("yaml11-int-hex")
            return "0x%x" % v
        if v != 0 and r < 0.14:
            self.f.add("yaml11-int-octal")
            return ("-" if v < 0 else "") + "0" + format(abs(v), "o")
        if v >= 60 and r < 0.24:
            self.f.add("yaml11-int-sexagesimal")
            parts, n = [], v
            while n:
                parts.append(n % 60)
                n //= 60
            return ":".join(str(p) for p in reversed(parts))
        if abs(v) >= 1000 and r < 0.3:
            self.f.add("yaml11-int-underscore")
            s = str(abs(v))
            return ("-" if v < 0 else "") + s[:-3] + "_" + s[-3:]
        if v > 0 and r < 0.33:
            return "+%d" % v
        if v >= 0 and r < 0.36:
            self.f.add("yaml11-int-binary")
            return "0b" + format(v, "b")
        return str(v)

    def string(self, s, flow):
        rng = self.rng
        if plain_ok(s, flow) and rng.random() < 0.8:
            if s in TRICKY_STRINGS:
                self.f.add("yaml11-plain-string-not-a-number")
            return s
        if "\n" not in s and s.isprintable() and rng.random() < 0.5:
            self.f.add("yaml-single-quoted")
            return "'" + s.replace("'", "''") + "'"
        self.f.add("yaml-double-quoted")
        return json.dumps(s, ensure_ascii=rng.random() < 0.5)

    def scalar(self, v, flow):
        rng = self.rng
        if v is None:
            t = rng.choice(["null", "~", "Null", "NULL"])
            self.f.add("yaml-null-" + t)
            return t
        if v is True or v is False:
            t = rng.choice(TRUE_TEXTS if v else FALSE_TEXTS)
            if t.lower() not in ("true", "false"):
                self.f.add("yaml11-bool-word")
            return t
        if isinstance(v, int):
            return self.int_text(v)
        if isinstance(v, float):
            t = rng.choice(FLOAT_TEXTS.get(v, [repr(v)]))
            if ":" in t:
                self.f.add("yaml11-float-sexagesimal")
            elif "e" in t or t.startswith((".", "-.")) or t.endswith("."):
                self.f.add("yaml-float-exponent-or-bare-dot")
            return t
        if isinstance(v, datetime.datetime):
            self.f.add("yaml-timestamp-datetime")
            return v.strftime(rng.choice(self.datetimes))
        if isinstance(v, datetime.date):
            self.f.add("yaml-timestamp-date")
            return v.isoformat()
        if isinstance(v, bytes):
            return self.binary(v)
        return self.string(v, flow)

    # --- anchors

    def anchor(self, v, allow=True):
        """(prefix, alias): '&aN ' to put before v, or the alias text that stands for it;
        with allow false only an alias (the place cannot carry an anchor)."""
        if not self.anchor_p or not isinstance(v, (dict, list)) or not v:
            return "", None
        c = canon(v)
        if c in self.anchored and self.rng.random() < 0.7:
            self.f.add("yaml-alias")
            return "", "*" + self.anchored[c][0]
        if allow and self.rng.random() < self.anchor_p:
            self.count += 1
            name = "a%d" % self.count
            self.anchored[c] = (name, v)
            self.f.add("yaml-anchor")
            return "&%s " % name, None
        return "", None

    def merge_base(self, d):
        """An anchored mapping whose items start d (in order, equal values): `<<: *it`."""
        if not self.anchor_p or len(d) < 2:
            return None
        items = list(d.items())
        for name, m in self.anchored.values():
            if isinstance(m, dict) and 0 < len(m) < len(d) and canon(dict(items[: len(m)])) == canon(m) \
                    and all(isinstance(k, str) for k in m):
                return name, len(m)
        return None

    # --- collections

    def inline(self, v):
        pre, alias = self.anchor(v)
        if alias:
            return alias
        if isinstance(v, (dict, list)) and v:
            self.f.add("yaml-flow-collection")
        if isinstance(v, dict):
            return pre + "{" + ", ".join(self.key(k) + ": " + self.inline(x) for k, x in v.items()) + "}"
        if isinstance(v, Omap):
            return pre + self.omap_inline(v)
        if isinstance(v, list):
            return pre + "[" + ", ".join(self.inline(x) for x in v) + "]"
        if isinstance(v, (set, frozenset)):
            self.f.add("yaml-set")
            return "!!set {" + ", ".join(self.key(k) for k in self.members(v)) + "}"
        return self.scalar(v, True)

    def members(self, v):
        """A set's members in a random order that does not depend on Python's string hashing
        (PYTHONHASHSEED), so that a seed gives the same text every run."""
        out = sorted(v, key=canon)
        self.rng.shuffle(out)
        return out

    def omap_inline(self, v):
        """`!!omap [{k: v}, k: v]` (a flow sequence's single-pair mapping needs no braces)."""
        self.f.add("yaml-omap")
        pairs = []
        for k, x in v:
            pair = self.key(k) + ": " + self.inline(x)
            pairs.append("{" + pair + "}" if self.rng.random() < 0.5 else pair)
        return "!!omap [" + ", ".join(pairs) + "]"

    def binary(self, v):
        """`!!binary` base64 on one line (plain or quoted)."""
        self.f.add("yaml-binary")
        text = base64.b64encode(v).decode()
        if not text or self.rng.random() < 0.3:
            return "!!binary " + self.rng.choice(["'%s'", '"%s"']) % text
        return "!!binary " + text

    def tagged_block(self, head, v, indent):
        """Lines of bytes, a set or an Omap in block style after head, or None."""
        rng = self.rng
        ind = indent + (2 if head.endswith("-") else self.step)
        if isinstance(v, bytes) and v and rng.random() < 0.5:
            self.f.add("yaml-binary-block")
            text = base64.b64encode(v).decode()
            width = rng.choice([76, 60, 20])
            return [head + " !!binary |"] + [" " * ind + text[i:i + width] for i in range(0, len(text), width)]
        if isinstance(v, (set, frozenset)) and v and not self.flow():
            self.f.add("yaml-set-block")
            return [head + " !!set"] + [" " * ind + "? " + self.key(k) for k in self.members(v)]
        if isinstance(v, Omap) and v and not self.flow():
            pre, alias = self.anchor(v)
            if alias:
                return [head + " " + alias]
            self.f.add("yaml-omap-block")
            return [head + " " + pre + "!!omap"] + self.block_seq([{k: x} for k, x in v], ind)
        return None

    def literal_ok(self, v):
        if not isinstance(v, str) or "\n" not in v or v == "\n" or v.endswith("\n\n\n"):
            return False
        lines = v.rstrip("\n").split("\n")
        first = ("", " ", "\t") if self.literal_hash else ("", " ", "\t", "#")
        return all(l.isprintable() and l == l.rstrip() for l in lines) and lines[0][:1] not in first

    def folded_ok(self, v):
        body = v[:-1] if isinstance(v, str) and v.endswith("\n") else v
        return (isinstance(body, str) and " " in body and body.isprintable() and body == body.strip()
                and "  " not in body and not body.startswith("#"))

    def block_scalar(self, head, v, indent):
        """Lines of v as a literal or folded block scalar after head, or None."""
        rng = self.rng
        ind = " " * (indent + (2 if head.endswith("-") else self.step))
        if self.literal_ok(v) and rng.random() < 0.6:
            if v.endswith("\n\n"):
                chomp, body = "+", v[:-1]
            elif v.endswith("\n"):
                chomp, body = "", v[:-1]
            else:
                chomp, body = "-", v
            self.f.add("yaml-literal-block" + {"+": "-keep", "": "-clip", "-": "-strip"}[chomp])
            return [head + " |" + chomp] + [ind + l if l else "" for l in body.split("\n")]
        if self.folded_ok(v) and rng.random() < 0.3:
            words = (v[:-1] if v.endswith("\n") else v).split(" ")
            lines, cur = [], []
            for w in words:
                cur.append(w)
                if rng.random() < 0.4:
                    lines.append(" ".join(cur))
                    cur = []
            if cur:
                lines.append(" ".join(cur))
            self.f.add("yaml-folded-block")
            return [head + (" >" if v.endswith("\n") else " >-")] + [ind + l for l in lines]
        return None

    def after(self, head, v, indent, mapping):
        """Lines for `head` (a key with ':' or a '-') followed by the value v."""
        rng = self.rng
        tagged = self.tagged_block(head, v, indent)
        if tagged:
            return tagged
        block = isinstance(v, (dict, list)) and not isinstance(v, Omap) and bool(v) and not self.flow()
        # `- &a k: v` would anchor the key: a sequence item's block collection gets no anchor
        pre, alias = self.anchor(v, allow=not (block and head.endswith("-")))
        if alias:
            return [head + " " + alias]
        if block and isinstance(v, dict):
            if head.endswith("-"):
                lines = self.block_map(v, indent + 2, first=True)
                return [head + " " + lines[0][indent + 2:]] + lines[1:]
            return [head + (" " + pre.strip() if pre else "")] + self.block_map(v, indent + self.step)
        if block and isinstance(v, list):
            if head.endswith("-"):
                lines = self.block_seq(v, indent + 2)
                return [head + " " + lines[0][indent + 2:]] + lines[1:]
            ind = self.step if rng.random() < 0.7 else 0
            if not ind:
                self.f.add("yaml-zero-indented-sequence")
            return [head + (" " + pre.strip() if pre else "")] + self.block_seq(v, indent + ind)
        if isinstance(v, str):
            block = self.block_scalar(head, v, indent)
            if block:
                return block
        if v is None and mapping and rng.random() < 0.3:
            self.f.add("yaml-null-empty")
            return [head]
        if pre:
            # the anchor was decided for this value: keep it on the flow form
            if isinstance(v, dict):
                text = pre + "{" + ", ".join(self.key(k) + ": " + self.inline(x) for k, x in v.items()) + "}"
            elif isinstance(v, Omap):
                text = pre + self.omap_inline(v)
            else:
                text = pre + "[" + ", ".join(self.inline(x) for x in v) + "]"
        else:
            text = self.inline(v)
        if rng.random() < self.comment_p:
            text += " # note"
            self.f.add("yaml-comment")
        return [head + " " + text]

    def block_map(self, d, indent, first=False):
        lines = []
        items = list(d.items())
        base = self.merge_base(d)
        if base and self.rng.random() < 0.8:
            name, n = base
            lines.append(" " * indent + "<<: *" + name)
            items = items[n:]
            self.f.add("yaml-merge-key")
        for i, (k, v) in enumerate(items):
            if self.rng.random() < self.comment_p and not (first and i == 0 and not lines):
                lines.append(" " * indent + "# " + self.rng.choice(["note", "see below", "x: y", "- item"]))
                self.f.add("yaml-comment-line")
            lines.extend(self.after(" " * indent + self.key(k) + ":", v, indent, True))
        return lines

    def block_seq(self, items, indent):
        lines = []
        for v in items:
            lines.extend(self.after(" " * indent + "-", v, indent, False))
        return lines
