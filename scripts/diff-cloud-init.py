#!/usr/bin/python3
"""Differential test: random cloud-config parts merged by strata and by cloud-init itself.

Needs Debian's cloud-init package (apt-get install cloud-init) and the system python3 that
sees it (/usr/bin/python3), plus a built strata binary. Not part of CI (cloud-init is not a
test dependency); run it by hand after changing merge semantics:

    cargo build --release
    /usr/bin/python3 scripts/diff-cloud-init.py --cases 2000 --seed 1

Each case is 2-4 parts with random data and random merge_how strings (string grammar and the
list-of-dicts form); values include what PyYAML builds from tags (`!!binary` bytes, e.g. a
`write_files` entry's content, `!!set`, `!!omap` pairs, dates). Every part is written as text
by scripts/yamltext.py (block and flow style, comments, literal and folded block scalars,
anchors, aliases and `<<` merge keys of repeated mappings, YAML 1.1 scalars left unquoted:
`yes`, `on`, `off`, `0755`, `1:30`, `1:30.0`, `0x1F`, `1_000`, `~`, `.5`, `-0.5`, dates and
datetimes, `on:` / `1:` keys; strings that only look like numbers unquoted: `-.5`, `1e5`, `08`;
strings that would read as other types quoted: `'yes'`, `'0755'`); each text is read back with
PyYAML and must give the value generated (else: GENERATOR BUG). The parts reach cloud-init
and `strata cloud-init` in one of three carriers: `#cloud-config` files or one
`#cloud-config-archive` written as text (its parts literal block scalars, its Merge-Type
headers entry keys), each part given to cloud-init's CloudConfigPartHandler exactly as its own
test suite feeds its merge fixtures; or one MIME multipart message (parts `text/cloud-config`
or `text/plain`, 7bit, base64 or quoted-printable, Merge-Type headers as MIME headers) that
cloud-init reads with its own UserDataProcessor and handlers.walk; strata's YAML
output is read back with PyYAML and compared with cloud-init's merged config as typed Python
values (yamltext.typed: 1, 1.0 and True differ; bytes, sets and omap pairs are kept; a tuple
cloud-init builds elsewhere, `('a',)`, is compared as the list YAML makes of it).
`--features` prints how many cases had each YAML construct.

With --jinja, each case is instead random instance data (hyphenated and dotted keys, `v1` /
`v2`, nested mappings, every JSON type) and 1-3 user-data files, some `## template: jinja`
parts whose values are lookups (existing, through aliases, missing), filters, `if` and `for`
blocks; cloud-init's own handlers (scripts/cloud_init_userdata.py: the jinja handler reads the
instance data as on a machine) are compared with `strata cloud-init --instance-data`:

    /usr/bin/python3 scripts/diff-cloud-init.py --jinja --cases 2000 --seed 1

`--jinja --tuples` also draws what Jinja2 gives as tuples or dict views: `dictsort`,
`items`, `.items()` / `.keys()` / `.values()` (printed, listed, sorted, first, joined),
loops over a mapping's pairs printing each pair, and tuple literals; and Python's
`"fmt" % args` and `~` on existing and missing values, and list literals changed by `append`, `extend`,
`insert`, `pop`, `reverse`, `remove` in `{% do %}`.
"""
import argparse, copy, datetime, gzip, logging, os, random, subprocess, sys, tempfile

logging.disable(logging.CRITICAL)
import yaml
from cloudinit import helpers as c_helpers
from cloudinit import handlers as c_handlers
from cloudinit.handlers import CONTENT_END, CONTENT_START, cloud_config
from cloudinit.user_data import UserDataProcessor
import email.charset
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from yamltext import Emitter, Omap, reads_back, typed, TRICKY_STRINGS  # noqa: E402

KEYS = ["a", "b", "c"]
ODD_KEYS = [True, False, 1, "on", "1", None]  # `on:` and `1:` are True and 1 (the same key)
STRS = ["x", "y", "ab", "hello"]
# Strings a YAML 1.1 reader takes for other types: the writer must quote them.
LOOKALIKES = ["yes", "on", "off", "No", "0755", "1:30", "2025-06-01", "~", "null", "1_000", "0x1F", ".5",
              "y", "n", "true", "<<", "=", "-", ""]
TEXTS = ["line one\nline two\n", "a b c", "hello world\n", "keep\n\n", "no newline\nat end",
         "#!/bin/sh\necho hi\n", "x: y", "- item", "a # b", "  lead", "trail  "]
INTS = [0, 1, 2, 3, 0, 1, 2, 3, 90, 493, 5400, 1000, -8, 64]
FLOATS = [0.5, 1.0, 0.5, 1.0, -0.5, 1000.0, 90.0, 0.1]
DICT_OPTS = ["replace", "no_replace", "allow_delete", "recurse_list", "recurse_array", "recurse_str", "recurse_dict"]
LIST_OPTS = ["append", "prepend", "replace", "no_replace", "recurse_list", "recurse_str", "recurse_dict"]
STR_OPTS = ["append", "recurse_list"]


def string(rng):
    r = rng.random()
    if r < 0.6:
        return rng.choice(STRS)
    if r < 0.75:
        return rng.choice(LOOKALIKES)
    if r < 0.85:
        return rng.choice(TRICKY_STRINGS)
    return rng.choice(TEXTS)


def value(rng, depth, pool):
    """A random value; pool holds earlier mappings and lists of the case (repeated: aliases;
    extended: merge keys)."""
    if pool and rng.random() < 0.15:
        old = copy.deepcopy(rng.choice(pool))
        if isinstance(old, dict) and rng.random() < 0.5:
            old[rng.choice(["extra", "more"])] = value(rng, 3, [])
        return old
    kinds = ["int", "str", "null", "bool", "float", "bytes", "date"] + (
        ["list", "map", "list", "map", "set", "omap"] if depth < 3 else []
    )
    k = rng.choice(kinds)
    if k == "bytes":
        raw = rng.choice([b"", b"hello", bytes(range(rng.randint(0, 200)))])
        return gzip.compress(raw, mtime=0) if rng.random() < 0.3 else raw
    if k == "date":
        if rng.random() < 0.3:
            return datetime.datetime(2024, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))
        return datetime.date(2024, rng.randint(1, 12), rng.randint(1, 28))
    if k == "set":
        return set(rng.sample(STRS + ["yes", "1:30"], rng.randint(0, 3)))
    if k == "omap":
        return Omap((rng.choice(KEYS), value(rng, depth + 1, pool)) for _ in range(rng.randint(1, 3)))
    if k == "int":
        return rng.choice(INTS)
    if k == "str":
        return string(rng)
    if k == "null":
        return None
    if k == "bool":
        return rng.choice([True, False])
    if k == "float":
        return rng.choice(FLOATS)
    if k == "list":
        out = [value(rng, depth + 1, pool) for _ in range(rng.randint(0, 3))]
    else:
        out = {}
        for _ in range(rng.randint(0, 3)):
            key = rng.choice(ODD_KEYS) if rng.random() < 0.08 else rng.choice(KEYS)
            out[key] = value(rng, depth + 1, pool)
    if out:
        pool.append(out)
    return out


def merger(rng, name, opts):
    chosen = rng.sample(opts, rng.randint(0, min(3, len(opts))))
    return name, chosen


def merge_how(rng):
    roll = rng.random()
    if roll < 0.2:
        return None
    mergers = [merger(rng, n, o) for n, o in [("dict", DICT_OPTS), ("list", LIST_OPTS), ("str", STR_OPTS)] if rng.random() < 0.75]
    rng.shuffle(mergers)
    if roll < 0.75:
        return "+".join(f"{n}({','.join(o)})" for n, o in mergers)
    if roll < 0.85:
        # Spelling cloud-init normalises (case, dashes, spaces, empty pieces) or rejects.
        text = " + ".join(f" {n.upper() if rng.random() < 0.3 else n}( {' , '.join(x.replace('_', '-') for x in o)} )" for n, o in mergers)
        return rng.choice([text, text + "++", "+" + text, text.replace("(", " (", 1) if rng.random() < 0.2 else text])
    if roll < 0.95:
        return [{"name": n, "settings": o} for n, o in mergers]
    return [[n, *o] for n, o in mergers]


def case(rng, features):
    """Parts as (text, headers, value) (value: what the text must read back as, or None)."""
    parts = []
    emitter = Emitter(rng, features, anchors=rng.choice([0.0, 0.3, 0.6]))
    for _ in range(rng.randint(2, 4)):
        pool = []  # anchors do not cross documents
        doc = {rng.choice(KEYS): value(rng, 1, pool) for _ in range(rng.randint(1, 3))}
        if rng.random() < 0.15:
            # cloud-init's documented form: write_files content given as !!binary.
            content = gzip.compress(rng.choice([b"#!/bin/sh\necho hi\n", b"\x00\x01binary"]), mtime=0)
            doc["write_files"] = [{"path": "/tmp/f", "encoding": "gzip", "content": content}]
        how = merge_how(rng)
        if how is not None:
            doc[rng.choice(["merge_how", "merge_how", "merge_type"])] = how
        if rng.random() < 0.05:
            doc["merge_how"] = None
            doc["merge_type"] = merge_how(rng)
        headers = {}
        if rng.random() < 0.3:
            name = rng.choice(["Merge-Type", "X-Merge-Type", "merge-type"])
            spec = merge_how(rng)
            headers[name] = spec if isinstance(spec, str) else ""
        text = "#cloud-config\n" + emitter.document(doc)
        if rng.random() < 0.03:
            text, doc = "#cloud-config\n- not a mapping\n", None
        parts.append((text, headers, doc))
    return parts


def cloud_init(handler, parts):
    handler.handle_part(None, CONTENT_START, None, None, None, None)
    for i, (text, headers, _) in enumerate(parts):
        handler.handle_part(None, None, f"part-{i}.yaml", text, None, dict(headers))
    result = typed(handler.cloud_buf)
    handler.handle_part(None, CONTENT_END, None, None, None, None)
    return result


def mime(rng, parts):
    """One MIME multipart message holding the parts: each `text/cloud-config` (now and then
    `text/plain`, typed by its first line), 7bit, base64 or quoted-printable, its Merge-Type
    headers as MIME headers (long ones folded by the email package)."""
    msg = MIMEMultipart()
    for text, headers, _ in parts:
        enc = rng.choice(["7bit", "base64", "qp"])
        sub = "plain" if rng.random() < 0.2 else "cloud-config"
        if enc == "7bit" and text.isascii():
            part = MIMEText(text, sub, "us-ascii")
        else:
            cs = email.charset.Charset("utf-8")
            cs.body_encoding = email.charset.BASE64 if enc == "base64" else email.charset.QP
            part = MIMEText(text, sub, cs)
        for k, v in headers.items():
            part[k] = v
        msg.attach(part)
    return msg.as_string()


def cloud_init_mime(handler, blob):
    """cloud-init's own path for a MIME blob: UserDataProcessor, then handlers.walk giving each
    text/cloud-config part (with its headers) to the handler."""
    msg = UserDataProcessor(c_helpers.Paths({})).process(blob)
    handler.handle_part(None, CONTENT_START, None, None, None, None)

    def callback(_data, filename, payload, headers):
        if headers["Content-Type"] == "text/cloud-config":
            handler.handle_part(None, headers["Content-Type"], filename, payload, None, headers)

    c_handlers.walk(msg, callback, None)
    result = typed(handler.cloud_buf)
    handler.handle_part(None, CONTENT_END, None, None, None, None)
    return result


JKEYS = ["region", "local-hostname", "a.b", "x//y", "plain", "zone_id", "Mixed-Case"]


def jvalue(rng, depth):
    kind = rng.choice(["str", "str", "int", "float", "bool", "null", "list"] + (["dict"] if depth < 3 else []))
    if kind == "str":
        return rng.choice(["eu-west-1", "web", "a b", "yes", "0755", "1:30", "x'y", "", "Ünï"]
                          + MARKUP_STRINGS)
    if kind == "int":
        return rng.choice([0, 7, -3, 10**12])
    if kind == "float":
        return rng.choice([1.5, 0.0001, 1e22, -2.0, 3.0])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [jvalue(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(JKEYS): jvalue(rng, depth + 1) for _ in range(rng.randint(1, 3))}


def instance_data(rng):
    v1 = {k: jvalue(rng, 1) for k in rng.sample(JKEYS, rng.randint(2, 5))}
    data = {"v1": v1, "ds": {"meta-data": {k: jvalue(rng, 2) for k in rng.sample(JKEYS, 2)}}}
    if rng.random() < 0.3:
        data["v2"] = {k: jvalue(rng, 1) for k in rng.sample(JKEYS, 2)}
    return data


def alias(key):
    import re
    return re.sub(r"//|\*\*|==|!=|>=|<=|[-+/*%~\[\](){}><=.:|,;]", "_", key)


def lookup(rng, data):
    """A template expression: a path that exists (through aliases), or one that does not."""
    roll = rng.random()
    top = rng.choice(["v1", "ds"])
    node, path = data[top], [top]
    while isinstance(node, dict) and node and rng.random() < 0.8:
        key = rng.choice(sorted(node))
        node = node[key]
        path.append(alias(key) if rng.random() < 0.7 else f'["{key}"]')
    if roll < 0.15:
        path.append(rng.choice(["nope", "missing_key"]))
    expr = path[0] + "".join(p if p.startswith("[") else "." + p for p in path[1:])
    if TUPLES and roll >= 0.15 and isinstance(node, dict) and rng.random() < 0.4:
        # Where Jinja2 gives tuples and dict views (--tuples).
        return expr + rng.choice(DICT_OPS)
    markup = rng.random() < 0.5
    if roll < 0.15 and markup:
        # An undefined lookup through the HTML filters: the marker, or UndefinedError.
        expr += rng.choice(MARKUP_ANY + [" | wordwrap(5)", " | xmlattr"])
    elif roll > 0.7 and markup and isinstance(node, str):
        expr += rng.choice(MARKUP_TEXT + MARKUP_ANY)
    elif roll > 0.7 and markup and isinstance(node, dict):
        expr += rng.choice([" | xmlattr", " | xmlattr(false)", " | xmlattr | forceescape"]
                           + MARKUP_ANY)
    elif roll > 0.7 and markup:
        expr += rng.choice(MARKUP_ANY + [" | wordwrap(3)"])
    elif roll > 0.85 and isinstance(node, str):
        expr += rng.choice([" | upper", " | length", ' | replace("-", "_")', ".split('-')",
                            " | center(9)", " | wordcount", " | truncate(7)", " | truncate(5, true, '~')"])
    elif roll > 0.85 and isinstance(node, (int, float)) and not isinstance(node, bool):
        expr += rng.choice([" | filesizeformat", " | filesizeformat(true)", " | center(7)"])
    elif roll > 0.8:
        expr += rng.choice([' | default("dflt")', " is defined"])
    return expr


TUPLES = False
# Jinja2's HTML, wrapping and JSON filters (forceescape, xmlattr, wordwrap, striptags, urlize, tojson,
# escape), and strings with markup, URLs and hyphenated words to give them.
MARKUP_STRINGS = ["<b>x</b> & y", "see www.example.com.", "well-known long-hyphenated words",
                  "a--b c", "mail me@example.com", "<!-- c --><i>it</i> &amp; &copy",
                  "(http://example.org/a_(b))", "supercalifragilistic"]
MARKUP_TEXT = [" | wordwrap(5)", " | wordwrap(4, wrapstring='|')", " | wordwrap(3, false, '/')",
               " | wordwrap(6, break_on_hyphens=false, wrapstring=';')", " | wordwrap(1, wrapstring='.')",
               " | urlize(8)", " | urlize(nofollow=true, target='_top')", " | striptags | wordwrap(4)",
               " | e | urlize"]
MARKUP_ANY = [" | forceescape", " | e", " | escape | escape", " | striptags", " | urlize", " | tojson",
              " | forceescape | striptags"]
DICT_OPS = [" | dictsort", " | dictsort | first", " | dictsort | last | join('=')",
            ".items()", ".keys()", ".values()", ".items() | list", " | items | list",
            ".items() | first", " | dictsort | map('first') | list", ".keys() | sort",
            ".items() | length", " | dictsort(reverse=true) | first",
            " | dictsort(by='value') | first", ".values() | sort", ".values() | list | max"]


def tuple_lines(rng, data, key):
    """A loop over a mapping's pairs, printed whole or unpacked, or a tuple literal (--tuples)."""
    maps = [(top, k) for top in ("v1", "ds") for k in sorted(data.get(top, {}))
            if isinstance(data[top][k], dict)]
    if maps and rng.random() < 0.7:
        top, k = rng.choice(maps)
        src = f"{top}.{alias(k)}" + rng.choice([" | dictsort", ".items()", " | items"])
        body = rng.choice(["{{ kv }}", "{{ kv[0] }}={{ kv[1] }}", "{{ kv | join(':') }}"])
        return [f"{key}:", f"{{% for kv in {src} %}}", f"  - \"{body}\"", "{% endfor %}"]
    lit = rng.choice(["(1, 'a')", "('one',)", "()", "[(1, 2), (3,)]", "(1, 2) + (3,)", "((1, 2),)"])
    return [f'{key}: "{{{{ {lit} }}}}"']


def python_lines(rng, data, key):
    """Python's `%` formatting of existing values, or a list literal changed in place
    (--tuples)."""
    leaves = [f"v1.{alias(k)}" for k in sorted(data["v1"])]
    x, y = rng.choice(leaves), rng.choice(leaves)
    if rng.random() < 0.6:
        fmt = rng.choice([f'"%s" % {x}', f'"%s-%s" % ({x}, {y})', f'"%r|%s" % ({x}, {y})',
                          f'"%d" % {x}', f'"%.2f" % {x}', f'"%5s|%-4s|" % ({x}, {y})',
                          f'"%x" % {x}', f'"%e" % {x}', f'"%g%%" % {x}', f'"%s" % ({x},)',
                          '"%(plain)s" % v1', f'"%s %s" % {x}', f'"<%s>" % {x} ~ "!"',
                          f'"<" ~ {lookup(rng, data)} ~ ">"', f'"%s|%s" % ({lookup(rng, data)}, {x})'])
        return [f"{key}: \"{{{{ {fmt} }}}}\""]
    op = rng.choice([f"acc.append({x})", f"acc.extend({x})", f"acc.insert(0, {x})",
                     "acc.pop()", "acc.reverse()", f"acc.remove({x})"])
    return ["{% set acc = [1] %}", f"{{% for k in v1 %}}{{% do acc.append(k) %}}{{% endfor %}}",
            f"{{% do {op} %}}", f'{key}: "{{{{ acc }}}} {{{{ acc | length }}}}"']


def jinja_part(rng, data):
    lines = ["## template: jinja", "#cloud-config"]
    if rng.random() < 0.5:
        lines.append("merge_how: " + rng.choice(["dict(recurse_array)+list(append)", "dict(no_replace,recurse_list)+list(prepend)", "dict(replace)"]))
    for i in range(rng.randint(1, 4)):
        key = rng.choice(KEYS) + str(i)
        form = rng.random()
        if form < 0.5:
            lines.append(f"{key}: {{{{ {lookup(rng, data)} }}}}")
        elif form < 0.65:
            lines.append(f'{key}: "{{{{ {lookup(rng, data)} }}}}"')
        elif form < 0.8:
            lines += [f"{key}:", f"  - {{{{ {lookup(rng, data)} }}}}", f"  - x{{{{ {lookup(rng, data)} }}}}y"]
        elif form < 0.9:
            lines += [f"{{% if {lookup(rng, data)} %}}", f"{key}: yes-branch", "{% else %}", f"{key}: [no]", "{% endif %}"]
        elif TUPLES and form < 0.93:
            lines += tuple_lines(rng, data, key)
        elif TUPLES and form < 0.97:
            lines += python_lines(rng, data, key)
        else:
            lines += [f"{key}:", "{% for item in [1, 2] %}", f"  - {{{{ item }}}}-{{{{ {lookup(rng, data)} }}}}", "{% endfor %}"]
    return "\n".join(lines) + "\n"


def jinja_main(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import json
    from cloud_init_userdata import merged
    rng = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.cases):
            data = instance_data(rng)
            data_path = os.path.join(tmp, f"{n:05d}-instance-data.json")
            with open(data_path, "w") as f:
                json.dump(data, f)
            files = []
            for i in range(rng.randint(1, 3)):
                if rng.random() < 0.75:
                    text = jinja_part(rng, data)
                else:
                    emitter = Emitter(rng, None, anchors=0.0)
                    doc = {rng.choice(KEYS) + "0": value(rng, 1, [])}
                    text = "#cloud-config\n" + emitter.document(doc)
                path = os.path.join(tmp, f"{n:05d}-{i}.yaml")
                with open(path, "w") as f:
                    f.write(text)
                files.append(path)
            blobs = [open(p, "rb").read() for p in files]
            want = typed(merged(blobs, data_path))
            run = subprocess.run([args.strata, "cloud-init", "--instance-data", data_path, *files], capture_output=True, text=True)
            got = typed(yaml.safe_load(run.stdout)) if run.returncode == 0 else ("<exit>", run.returncode, run.stderr)
            if got != want:
                failures += 1
                if failures <= 5:
                    texts = "\n---\n".join(open(p).read() for p in files)
                    print(f"case {n} differs\n{json.dumps(data)}\n{texts}\ncloud-init: {want}\nstrata:     {got}\n{run.stderr}")
    print(f"{args.cases - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


# --filters: Jinja2's text filters on random strings (instance data values, so no template
# escaping gets in the way), many to a template, each result through `tojson` (surrogate
# pairs made plain text: strata's YAML reader refuses them, see docs), rendered by
# cloud-init's own templater and by strata; a failing template fails every case in it.
FILTER_ALPHABETS = {
    "wrap": list("abcdefghijABXYZ012") + ["-"] * 6 + [" "] * 6 + [
        "\t", "\n", "é", "日", "½", "²", "_", ".", ",", "!", "?", '"', "'", "&", "<", ">", "\xa0",
        "\u3000", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\u2028", "—", "\r", "\r\n", "٣", "ǅ",
        "\u0301"],
    "strip": list("ab x") + ["<", ">", "<!--", "-->", "&", "#", "x", "X", "1", "9", "0", ";", "amp",
                            "lt", "copy", "not", "notin", "&#", "&#x", " ", "\t", "\n", "\xa0",
                            "\x1c", "é", "F", "fffe", "80", "D800", "110000", "AElig", "Afr",
                            "NotNestedLessLess"],
    "url": ["http://", "https://", "www.", "example", ".com", ".org", ".io", "mailto:", "@", "a",
            "(", ")", "<", ">", ".", ",", " ", "-", "_", "%", "1.2.3.4", "[::1]", ":8080", "/p",
            "?q=1", "#f", "&", "xn--", "é", "ı", "ftp:", "\n", "İ", "COM", "Www."],
}


def filter_case(rng, mode, name):
    def text(alpha, k):
        return "".join(rng.choice(alpha) for _ in range(rng.randint(0, k)))
    v = f"v1.{name}"
    if mode == "wrap":
        w = rng.choice([1, 1, 2, 3, 4, 5, 6, 8, 10, 15, 0.5])
        args = [str(w), rng.choice(["true", "false"]), rng.choice(['"|"', '"\\n"', '""']),
                rng.choice(["true", "false", "1"])]
        return text(FILTER_ALPHABETS["wrap"], 40), f"{v} | wordwrap({', '.join(args)})"
    if mode == "strip":
        return text(FILTER_ALPHABETS["strip"], 25), f"{v} | striptags"
    if mode == "url":
        tail = rng.choice(["", "(5)", "(nofollow=true)", "(extra_schemes=['ftp:'])", "(-3)"])
        return text(FILTER_ALPHABETS["url"], 12), f"{v} | urlize{tail}"
    s = text(FILTER_ALPHABETS["strip"] + FILTER_ALPHABETS["wrap"], 20)
    return s, rng.choice([f"{v} | forceescape", f"{v} | e | e", f"{{'k': {v}, 'n': none}} | xmlattr",
                          f"{v} | forceescape | striptags", f"[{v}, {{'k': {v}}}] | tojson"])


def filters_main(args):
    import json
    from cloudinit.templater import render_string
    from cloudinit.handlers.jinja_template import convert_jinja_instance_data
    rng = random.Random(args.seed)
    per = 300
    total = failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for batch in range(max(1, args.cases // per)):
            mode = ["wrap", "strip", "url", "esc"][batch % 4]
            values, exprs = {}, []
            for i in range(per):
                values[f"s{i}"], expr = filter_case(rng, mode, f"s{i}")
                exprs.append(expr)
            data = {"v1": values}
            tmpl = "## template: jinja\n#cloud-config\n" + "".join(
                "k%d: {{ (%s) | tojson | replace('\\\\ud', '|ud') }}\n" % (i, e) for i, e in enumerate(exprs))
            conv = convert_jinja_instance_data(data, include_key_aliases=True, decode_paths=[])
            want = yaml.safe_load(render_string(tmpl, conv))
            data_path, tmpl_path = os.path.join(tmp, "data.json"), os.path.join(tmp, "t.yaml")
            with open(data_path, "w") as f:
                json.dump(data, f)
            with open(tmpl_path, "w") as f:
                f.write(tmpl)
            run = subprocess.run([args.strata, "cloud-init", "--output", "json", "--instance-data",
                                  data_path, tmpl_path], capture_output=True, text=True)
            got = json.loads(run.stdout) if run.returncode == 0 else {}
            for i, e in enumerate(exprs):
                total += 1
                if got.get(f"k{i}") != want.get(f"k{i}"):
                    failures += 1
                    if failures <= 5:
                        print(f"{mode} {e} {values[f's{i}']!r}\n  cloud-init: {want.get(f'k{i}')!r}\n"
                              f"  strata:     {got.get(f'k{i}')!r}\n{run.stderr[:500]}")
    print(f"{total - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jinja", action="store_true", help="jinja template parts with random instance data")
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strata", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "strata"))
    ap.add_argument("--features", action="store_true", help="print how many cases had each YAML construct")
    ap.add_argument("--filters", action="store_true", help="with --jinja: wordwrap, striptags, urlize, the escaping filters and tojson on random strings, rendered by cloud-init's templater (batches of 300 cases)")
    ap.add_argument("--tuples", action="store_true", help="with --jinja: also dictsort, items(), dict views, tuple literals, %% formatting, list methods")
    args = ap.parse_args()
    global TUPLES
    TUPLES = args.tuples
    if args.jinja and args.filters:
        return filters_main(args)
    if args.jinja:
        return jinja_main(args)
    rng = random.Random(args.seed)
    handler = cloud_config.CloudConfigPartHandler(c_helpers.Paths({}))
    handler.cloud_fn = None
    failures = bugs = 0
    features = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.cases):
            seen = set()
            parts = case(rng, seen)
            files, checks = [], [(t, v) for t, _, v in parts if v is not None]
            headers = any(h for _, h, _ in parts)
            carrier = rng.choice(["archive", "mime"] if headers else ["files", "files", "files", "mime"])
            seen.add("carrier-" + carrier)
            if carrier == "mime":
                blob = mime(rng, parts)
                path = os.path.join(tmp, f"{n:05d}.mime")
                with open(path, "w") as f:
                    f.write(blob)
                files.append(path)
            elif carrier == "archive":
                # Headers travel as #cloud-config-archive entry keys (one archive, in order).
                entries = [dict(h, content=text) for text, h, _ in parts]
                archive = Emitter(rng, seen, literal_hash=True).document(entries)
                checks.append((archive, entries))
                path = os.path.join(tmp, f"{n:05d}-archive.yaml")
                with open(path, "w") as f:
                    f.write("#cloud-config-archive\n" + archive)
                files.append(path)
            for i, (text, _, _) in enumerate(parts if carrier == "files" else []):
                path = os.path.join(tmp, f"{n:05d}-{i}.yaml")
                with open(path, "w") as f:
                    f.write(text)
                files.append(path)
            for f in seen:
                features[f] = features.get(f, 0) + 1
            wrong = [(t, w) for t, v in checks for w in [reads_back(t, v)] if w is not None]
            if wrong:
                bugs += 1
                print(f"case {n}: GENERATOR BUG: PyYAML reads the text differently from what was generated:\n{wrong[0][0]}\nread: {wrong[0][1]}\n")
                continue
            want = cloud_init_mime(handler, blob) if carrier == "mime" else cloud_init(handler, parts)
            run = subprocess.run([args.strata, "cloud-init", *files], capture_output=True, text=True)
            got = typed(yaml.safe_load(run.stdout)) if run.returncode == 0 else ("<exit>", run.returncode, run.stderr)
            if got != want:
                failures += 1
                if failures <= 5:
                    print(f"case {n} differs\n" + "\n---\n".join(f"{h}\n{t}" for t, h, _ in parts) + f"\ncloud-init: {want}\nstrata:     {got}\n")
    if args.features:
        for f, c in sorted(features.items()):
            print(f"  {c:6d}  {f}")
    print(f"{args.cases - failures - bugs} passed, {failures} failed" + (f", {bugs} GENERATOR BUGS" if bugs else ""))
    sys.exit(1 if failures or bugs else 0)


if __name__ == "__main__":
    main()
