#!/usr/bin/env python3
"""Differential test: random Hiera 5 hierarchies looked up by strata and by the real
`puppet lookup` (Puppet 7.23, Debian 12 package `puppet`), through the oracle script
../shared/oracles/hiera.py (its `run`, `merge_flags` and `classify`).

Every file of a case is written as YAML text by this script's own writer (`Writer`), never
through a YAML library: block and flow style, comments, anchors and aliases, `<<` merge keys,
literal and folded block scalars, quoted and plain scalars. Plain scalars are drawn from the
spellings Ruby's Psych (Puppet's YAML reader) types its own way (`1:30` is 5400, `-.5` a float,
`1e3` a string, `1,000` 1000, `yEs` true, `0o17` a string, `:sym` a Symbol, `2025-06-01` a
refused Date, `0b_` a refused Integer, `!!binary`, `!!int "12"`, `!Ref x`, keys such as `off:`
and `:name:`), beside ordinary words, numbers, knockouts (`--a`) and interpolations.

Each case is a hiera.yaml (2-4 levels: `path` with fact interpolation, `paths`, `glob`,
`globs` over nested folders (`conf.d/**/*.yaml`), missing files; now and then Symbol keys),
data files with random values, `lookup_options` in random levels (exact keys and `^` patterns,
every strategy and deep option, `convert_to: Array` / `[Array, true]`), data interpolation,
dotted keys, a facts file (now and then overriding some of hostname / domain / fqdn /
clientcert, which Puppet refuses), and an explicit `--merge` with deep flags in some cases.
In about a third of the cases (`--eyaml-share`) one level (not common.yaml) is a hiera-eyaml level
(`lookup_key: eyaml_lookup_key`, fixtures/hiera/eyaml's test keys by absolute path): its
files hold plain values and `ENC[PKCS7,...]` strings (encrypted by `openssl smime -encrypt
-aes256 -binary -outform DER`, as hiera-eyaml's `OpenSSL::PKCS7::encrypt` does), one-line or
folded in a `>` block, alone, inside text, in lists and maps, now and then holding an
interpolation, a final newline, or encrypted for another key (both must fail).
One puppet call per case (it answers one key per call, ~2.5 s; `--jobs 2` runs two at once).
Results are kept in the case folder (`puppet.txt`), so `--reuse` compares strata again without
running puppet. Each lookup runs twice with the data files' indexes kept in between
(docs/frontends/hiera.md): both runs must give the same output.

    /usr/bin/python3 scripts/diff-hiera.py [--seed N] [--cases N] [--minutes M] [--jobs N] [--eyaml-share P]
        [--out DIR] [--reuse] [--strata PATH] [--oracle PATH/hiera.py]

The cases go to a new temporary folder unless `--out` names one (printed at the end). Prints
one line per disagreement and a summary `N/M agree`. Exit 1 on any disagreement. Agreement:
both succeed with the same JSON (value and key order), or both fail (strata exit 1; puppet's
error class is shown beside strata's message). Known deviations (docs/frontends/hiera.md) are
not generated: non-UTF-8 `!!binary`, keys `1` and `1.0` in one mapping.
"""
import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import base64

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

KEYS = ["alpha", "beta", "gamma", "delta", "app::cfg", "app::list"]

# Plain spellings Psych types its own way (and PyYAML otherwise), with ordinary ones.
PSYCH = ["1:30", "22:22", "-1:30", "0:30", "1:2:3:4", "1:60", "12:30:00", "1:30.5", "-.5",
         ".5", "+.5", "1.", "1.e+3", "1e3", "1.0e3", "1.0e+3", "1.5E-2", "1,000", "1,2",
         "1,000.5", "1_000", "0o17", "0x1F", "0X1F", "0b101", "012", "08", "0755", "+12", "-0",
         "00", "99999999999999999999", "yes", "Yes", "yEs", "y", "Y", "n", "no", "NO", "on",
         "oN", "off", "OFF", "true", "tRUE", "False", "~", "null", "Null", "nULL", ".inf",
         "-.Inf", "1.2.3", "2025-13-01", "."]
WORDS = ["a", "b", "c", "d", "x", "y", "web", "db", "--a", "--b", "--x", "--", "'!!c'", "8080",
         "0", "1", "2", "3", "-5", "1.5", "2.0", "0.25", "true", "false", "'%'"]
# Quoted, tagged and other spellings that are strings or numbers to both readers.
QUOTED = ["'1:30'", '"-.5"', "'yes'", "'2025-06-01'", "':sym'", '"a b"', "'~'", "''",
          '"tab\\there"', "!!str 1:30", '!!int "12"', "!!float 1", "!!binary aGVsbG8=",
          "!Ref ref", "! 12", "!!str", "!!null"]
# What Puppet refuses: rare, or every case would fail.
REFUSED_FILE = ["2025-06-01", "2025-6-1", "2001-12-14 21:59:43.10 -5", "0b_", "!!float abc",
                "!ruby/regexp /a/", "!!set {a: null}"]
REFUSED_VALUE = [":sym", "!ruby/sym sym"]
INTERP = ["%{facts.role}-x", "%{::nodename}", "%{lookup('OTHER')}", "%{alias('OTHER')}",
          "%{literal('%')}{x}", "pre %{hiera('OTHER')} post", "%{facts.missing}",
          "%{trusted.certname}", "%{trusted.hostname}"]
HASH_KEYS = ["k1", "k2", "k3", "--k1", "n", "1", "'1'", "':k1'", "k-2"]
ODD_KEYS = [":k2", "1:30", "'<<'", "0x1F"]
REFUSED_KEYS = ["off", "yes", "~"]


# ---------------------------------------------------------------------------------------------
# Values: scalars are their written text; collections keep their style.

class Scalar:
    def __init__(self, text):
        self.text = text


class Block:
    """A literal or folded block scalar."""
    def __init__(self, indicator, lines):
        self.indicator, self.lines = indicator, lines


class Seq:
    def __init__(self, items, flow=False):
        self.items, self.flow = items, flow


class Map:
    def __init__(self, pairs, flow=False):
        self.pairs, self.flow = pairs, flow   # [(key text, value)]


class Alias:
    def __init__(self, name):
        self.name = name


class Anchored:
    def __init__(self, name, value):
        self.name, self.value = name, value


def quote(s):
    return "'" + s.replace("'", "''") + "'"


class Writer:
    """YAML text: block style by default, flow where a collection asks for it (and inside flow
    collections), comments now and then."""

    def __init__(self, r):
        self.r = r

    def comment(self):
        return "  # " + self.r.choice(["note", "set by ops", "TODO", "was 1:30"]) \
            if self.r.random() < 0.1 else ""

    def flow(self, v):
        if isinstance(v, Anchored):
            return "&%s %s" % (v.name, self.flow(v.value))
        if isinstance(v, Alias):
            return "*" + v.name
        if isinstance(v, Scalar):
            # A bare tag before `}` / `]`, and `:sym` after `{a: `, are syntax errors to
            # libyaml (and every lookup then fails): mostly written otherwise.
            if v.text in ("!!str", "!!null") and self.r.random() < 0.9:
                return v.text + " ''"
            if v.text.startswith(":") and self.r.random() < 0.9:
                return quote(v.text)
            return v.text
        if isinstance(v, Block):
            return json.dumps("\n".join(v.lines))
        if isinstance(v, Seq):
            return "[" + ", ".join(self.flow(i) for i in v.items) + "]"
        return "{" + ", ".join("%s: %s" % (k, self.flow(x)) for k, x in v.pairs) + "}"

    def inline(self, v):
        """A value that fits after `key: ` or `- ` on the same line, or None."""
        if isinstance(v, (Scalar, Alias)):
            return self.flow(v)
        if isinstance(v, (Seq, Map)) and (v.flow or not (v.items if isinstance(v, Seq) else v.pairs)):
            return self.flow(v)
        if isinstance(v, Anchored):
            inner = self.inline(v.value)
            return None if inner is None else "&%s %s" % (v.name, inner)
        return None

    def block(self, v, indent, out, lead):
        """Writes `v` after `lead` (`key:` or `-`) at `indent` spaces."""
        pad = " " * indent
        if isinstance(v, Block):
            out.append("%s%s %s" % (pad, lead, v.indicator))
            out.extend(pad + "  " + line if line else "" for line in v.lines)
            return
        text = self.inline(v)
        if text is not None:
            out.append("%s%s %s%s" % (pad, lead, text, self.comment()))
            return
        anchor = ""
        if isinstance(v, Anchored):
            anchor, v = " &" + v.name, v.value
        out.append("%s%s%s" % (pad, lead, anchor))
        self.body(v, indent + 2, out)

    def body(self, v, indent, out):
        if isinstance(v, Seq):
            for item in v.items:
                self.block(item, indent, out, "-")
        else:
            for k, x in v.pairs:
                self.block(x, indent, out, k + ":")

    def document(self, top):
        out = []
        if self.r.random() < 0.3:
            out.append("---")
        if self.r.random() < 0.3:
            out.append("# " + self.r.choice(["data for this level", "managed by hand"]))
        self.body(top, 0, out)
        return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Random data

class Gen:
    def __init__(self, r, trusted):
        self.r = r
        self.anchors = []
        # `trusted` is the given facts' only when they include clientcert (puppet lookup
        # takes the machine's own certname otherwise).
        self.interp = INTERP if trusted else [i for i in INTERP if "trusted" not in i]

    def scalar(self, key):
        r = self.r
        k = r.random()
        if k < 0.35:
            return Scalar(r.choice(WORDS))
        if k < 0.72:
            return Scalar(r.choice(PSYCH))
        if k < 0.86:
            return Scalar(r.choice(QUOTED))
        if k < 0.90:
            other = r.choice([x for x in KEYS if x != key])
            return Scalar(quote(r.choice(self.interp).replace("OTHER", other)))
        if k < 0.902:
            return Scalar(r.choice(REFUSED_VALUE))
        if k < 0.9023:
            return Scalar(r.choice(REFUSED_FILE))
        if k < 0.95:
            return Block(r.choice(["|", "|-", ">", ">-"]), [r.choice(["line one", "1:30", "yes"]),
                                                           r.choice(["", "two"]), "three"])
        return Scalar(quote(r.choice(WORDS + PSYCH)))

    def value(self, key, depth=0):
        r = self.r
        k = r.random()
        if depth >= 3 or k < 0.35:
            v = self.scalar(key)
        elif k < 0.6:
            items = [self.value(key, depth + 1) if r.random() < 0.2 and depth < 2
                     else self.scalar(key) for _ in range(r.randint(0, 4))]
            v = Seq(items, flow=r.random() < 0.3)
        elif k < 0.7:
            v = Seq([self.hash(key, depth + 1) for _ in range(r.randint(1, 3))])
        else:
            v = self.hash(key, depth + 1)
        if isinstance(v, Block) or r.random() > 0.08:
            return v
        name = "a%d" % len(self.anchors)
        self.anchors.append((name, v))
        return Anchored(name, v)

    def hash(self, key, depth):
        r = self.r
        pairs, seen = [], set()
        flow = r.random() < 0.25
        maps = [n for n, v in self.anchors if isinstance(v, Map)]
        for _ in range(r.randint(0, 4)):
            k = r.random()
            k = r.choice(ODD_KEYS) if k < 0.05 else r.choice(REFUSED_KEYS) if k < 0.055 \
                else r.choice(HASH_KEYS)
            if flow and k.startswith(":"):
                continue            # `{:k: 1}` is a syntax error to both readers
            if k in seen:
                continue
            seen.add(k)
            pairs.append((k, self.value(key, depth) if depth < 3 else self.scalar(key)))
        if maps and r.random() < 0.15 and not flow:
            merge = Alias(r.choice(maps)) if r.random() < 0.7 else \
                Seq([Alias(n) for n in r.sample(maps, min(2, len(maps)))], flow=True)
            pairs.insert(r.randint(0, len(pairs)), ("<<", merge))
        return Map(pairs, flow=flow)

    def alias_or_value(self, key):
        if self.anchors and self.r.random() < 0.08:
            return Alias(self.r.choice(self.anchors)[0])
        return self.value(key)


def merge_spec(r):
    s = r.choice(["first", "unique", "hash", "deep", "deep", "deep"])
    if s != "deep" or r.random() < 0.3:
        return s
    m = {"strategy": "deep"}
    if r.random() < 0.6:
        m["knockout_prefix"] = r.choice(["--", "!!"])
    if r.random() < 0.3:
        m["sort_merged_arrays"] = True
    if r.random() < 0.3:
        m["merge_hash_arrays"] = True
    return m


def spec_node(spec):
    if isinstance(spec, str):
        return Scalar(spec)
    return Map([(k, Scalar(quote(v) if isinstance(v, str) else str(v).lower()))
                for k, v in spec.items()])


def lookup_options(r):
    pairs, seen = [], set()
    for _ in range(r.randint(1, 3)):
        key = r.choice(KEYS + ["^a", "^app::", "^(beta|gamma)$", ".*", "^.*a$"])
        if key in seen:
            continue
        seen.add(key)
        entry = [("merge", spec_node(merge_spec(r)))]
        if r.random() < 0.2:
            entry.append(("convert_to", Scalar(r.choice(["Array", "[Array, true]", "[Array, false]"]))))
        if r.random() < 0.3:
            entry.reverse()
        pairs.append((quote(key) if not key[0].isalpha() else key, Map(entry)))
    return Map(pairs)


# ---------------------------------------------------------------------------------------------
# Cases

def facts_text(r, facts, k):
    lines = ["nodename: %s" % facts["nodename"], "role: %s" % facts["role"],
             "location:", "  dc: %s" % facts["location"]["dc"]]
    if k < 0.02:
        lines.append("fqdn: %s.example.net" % facts["nodename"])          # refused: not all four
    elif k < 0.12:
        lines += ["hostname: %s" % facts["nodename"], "domain: example.net",
                  "fqdn: %s.example.net" % facts["nodename"], "clientcert: %s" % facts["nodename"]]
    elif k < 0.18:
        lines.append("port: %s" % r.choice(["1:30", "0755", "yes", "-.5"]))
    return "\n".join(lines) + "\n"


EYAML_KEYS = os.path.join(ROOT, "fixtures", "hiera", "eyaml", "site")


def encrypt(text, other=False):
    """`ENC[PKCS7,...]` of `text`, as hiera-eyaml writes it (one line)."""
    cert = os.path.join(EYAML_KEYS, "otherkeys" if other else "keys", "public_key.pkcs7.pem")
    der = subprocess.run(["openssl", "smime", "-encrypt", "-aes256", "-binary", "-outform", "DER",
                          cert], input=text.encode(), capture_output=True, check=True).stdout
    return "ENC[PKCS7,%s]" % base64.b64encode(der).decode()


def eyaml_text(r, keys):
    """An eyaml data file written as text: plain values and encrypted ones in every form."""
    def secret():
        t = r.choice(WORDS + PSYCH + ["s3cr3t", "a b", "pw-%{facts.nodename}", "line\n", "x%"])
        return t.replace("\\n", "\n")
    def enc(indent):
        e = encrypt(secret(), other=r.random() < 0.04)
        k = r.random()
        if k < 0.25:  # the `>` block form, 60 characters a line
            pad = " " * indent
            return ">\n" + "\n".join(pad + e[i:i + 60] for i in range(0, len(e), 60))
        if k < 0.35:
            return quote("pre " + e + " post")
        return e
    lines = []
    for k in keys:
        c = r.random()
        if c < 0.45:
            lines.append("%s: %s" % (k, enc(4)))
        elif c < 0.6:
            lines.append("%s: [%s, \"%s\"]" % (k, r.choice(WORDS), encrypt(secret())))
        elif c < 0.75:
            lines += ["%s:" % k, "  k1: %s" % enc(6), "  k2: %s" % r.choice(WORDS)]
        elif c < 0.85:
            lines += ["%s:" % k, "  - %s" % r.choice(WORDS), "  - %s" % enc(6)]
        else:
            lines.append("%s: %s" % (k, r.choice(WORDS)))
    return "\n".join(lines) + "\n"


def hiera_text(r, levels):
    sym = r.random() < 0.05
    key = (lambda k: ":" + k) if sym else (lambda k: k)
    out = ["%s: 5" % key("version"), "%s:" % key("defaults"),
           "  %s: data" % key("datadir"), "  %s: yaml_data" % key("data_hash"),
           "%s:" % key("hierarchy")]
    for name, loc in levels:
        out.append("  - %s: %s" % (key("name"), quote(name)))
        for k, v in loc.items():
            if k == "options":
                out.append("    %s:" % key(k))
                for ok, ov in v.items():
                    out.append("      %s: %s" % (ok, quote(ov)))
            elif isinstance(v, list):
                out.append("    %s: [%s]" % (key(k), ", ".join(quote(x) for x in v)))
            else:
                out.append("    %s: %s" % (key(k), quote(v)))
    return "\n".join(out) + "\n"


# The share of cases with an eyaml level (--eyaml-share).
EYAML_SHARE = [0.35]


def make_case(r, d):
    facts = {"nodename": r.choice(["web01", "db01"]), "role": r.choice(["web", "db"]),
             "location": {"dc": r.choice(["ams1", "fra2"])}}
    nlevels = r.randint(2, 4)
    templates = [
        ("Node", {"path": "nodes/%{facts.nodename}.yaml"}, lambda: ["nodes/%s.yaml" % facts["nodename"]]),
        ("Role", {"path": "roles/%{::role}.yaml"}, lambda: ["roles/%s.yaml" % facts["role"]]),
        ("DC", {"paths": ["dc/%{facts.location.dc}.yaml", "dc/all.yaml"]},
         lambda: [r.choice(["dc/%s.yaml" % facts["location"]["dc"], "dc/all.yaml"])]),
        ("Globbed", {"glob": "glob/*.yaml"}, lambda: ["glob/%s.yaml" % r.choice(["g1", "g2"])]),
        ("Conf", {"globs": ["conf.d/**/*.yaml"]},
         lambda: r.sample(["conf.d/b.yaml", "conf.d/a/x.yaml", "conf.d/a-b.yaml", "conf.d/a/b/c.yaml",
                           "conf.d/B.yaml"], r.randint(1, 3))),
        ("Common", {"path": "common.yaml"}, lambda: ["common.yaml"]),
    ]
    chosen = r.sample(templates[:-1], nlevels - 1) + [templates[-1]]
    eyaml_level = None
    if r.random() < EYAML_SHARE[0]:
        i = r.randrange(len(chosen) - 1)
        name, loc, fnames = chosen[i]
        loc = dict(loc, lookup_key="eyaml_lookup_key", options={
            "pkcs7_private_key": os.path.join(EYAML_KEYS, "keys", "private_key.pkcs7.pem"),
            "pkcs7_public_key": os.path.join(EYAML_KEYS, "keys", "public_key.pkcs7.pem")})
        chosen[i] = (name, loc, fnames)
        eyaml_level = i
    files = {}
    eyaml_files = set()
    for name, loc, fnames in chosen:
        for _ in range(r.randint(1, 2)):
            if r.random() < 0.85:
                for f in fnames():
                    files.setdefault(f, None)
                    if eyaml_level is not None and (name, loc, fnames) == chosen[eyaml_level]:
                        eyaml_files.add(f)
    w = Writer(r)
    texts = {}
    facts_kind = r.random()
    for f in files:
        if f in eyaml_files:
            texts[f] = eyaml_text(r, r.sample(KEYS, r.randint(1, len(KEYS))))
            continue
        g = Gen(r, trusted=0.02 <= facts_kind < 0.12)
        pairs = []
        for k in r.sample(KEYS, len(KEYS)):
            if r.random() < 0.6:
                written = (":" + k) if r.random() < 0.03 else k
                pairs.append((written, g.alias_or_value(k)))
        if r.random() < 0.35:
            pairs.insert(r.randint(0, len(pairs)), ("lookup_options", lookup_options(r)))
        texts[f] = w.document(Map(pairs))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "hiera.yaml"), "w") as f:
        f.write(hiera_text(r, [(n, loc) for n, loc, _ in chosen]))
    for name, text in texts.items():
        p = os.path.join(d, "data", name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
    with open(os.path.join(d, "facts.yaml"), "w") as f:
        f.write(facts_text(r, facts, facts_kind))
    key = r.choice(KEYS)
    if r.random() < 0.15:
        key += "." + r.choice(["k1", "k2", "0", "1"])
    spec = {"key": key}
    if r.random() < 0.35:
        spec["merge"] = merge_spec(r)
    with open(os.path.join(d, "lookup.yml"), "w") as f:
        f.write("key: %s\n" % quote(key))
        if "merge" in spec:
            f.write("merge: %s\n" % json.dumps(spec["merge"]))
    return spec


def read_spec(d):
    spec = {}
    for line in open(os.path.join(d, "lookup.yml")):
        k, _, v = line.partition(": ")
        v = v.strip()
        spec[k] = v[1:-1].replace("''", "'") if k == "key" else json.loads(v)
    return spec


def puppet(oracle, d, spec):
    case = os.path.abspath(d)
    rc, out, err = oracle.run(case, ["--render-as", "json"], str(spec["key"]),
                              oracle.merge_flags(spec.get("merge")))
    if rc == 0:
        return "ok\n" + out.strip()
    msgs = [l for l in err if l.strip()]
    msg = msgs[0] if msgs else "not found"
    return "err\n" + (oracle.classify(msg) if msgs else "not-found") + "\n" + msg


def strata(exe, oracle, d, spec):
    case = os.path.abspath(d)
    args = [exe, "lookup", "--output", "json", "--hiera", os.path.join(case, "hiera.yaml"),
            "--facts", os.path.join(case, "facts.yaml")] + oracle.merge_flags(spec.get("merge"))
    args.append(str(spec["key"]))
    # Twice with a cache folder of the run's own: parsed whole (the data files' indexes are
    # kept), then entry by entry from those indexes; both must answer alike.
    env = dict(os.environ, STRATA_CACHE_DIR=os.path.join(case, "..", "cache"))
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    warm = subprocess.run(args, capture_output=True, text=True, env=env)
    if (warm.returncode, warm.stdout, warm.stderr) != (p.returncode, p.stdout, p.stderr):
        return "cache\nthe lookup with kept indexes differs:\n" + warm.stdout + warm.stderr
    if "panicked" in p.stderr:
        return "panic\n" + p.stderr
    if p.returncode == 0:
        return "ok\n" + p.stdout.strip()
    lines = [l for l in p.stderr.strip().splitlines() if l.startswith("error")]
    return "err\n" + str(p.returncode) + "\n" + (lines[0] if lines else p.stderr.strip())


# What strata's message holds when puppet fails with each error class of the oracle. Not
# "not-found": `puppet lookup --render-as json` prints nothing for a key not found and for
# some lookup errors alike (a dotted key into an array, a failing convert_to).
NEEDLES = {
    "merge-type-error": ["has wrong type", "wrong type"],
    "data-type-error": ["has wrong type"],
    "sort-comparison-error": ["comparison of"],
    "yaml-parse-error": ["Unable to parse", "invalid YAML"],
}


def repeats_a_key(text):
    """Whether a JSON text holds an object with a key twice."""
    seen = []

    def pairs(items):
        keys = [k for k, _ in items]
        seen.append(len(keys) != len(set(keys)))
        return dict(items)

    try:
        json.loads(text, object_pairs_hook=pairs)
    except ValueError:
        return False
    return any(seen)


def same(a, b):
    """strata's answer `a` against puppet's `b`: the same JSON, or both failing (for the
    oracle's error classes that name the failure, with strata's words for it)."""
    ka, _, ra = a.partition("\n")
    kb, _, rb = b.partition("\n")
    if ka == "ok" and kb == "ok":
        try:
            return json.dumps(json.loads(ra)) == json.dumps(json.loads(rb))
        except ValueError:
            return False
    # Policy (docs/frontends/hiera.md): a hash with keys 1 and '1' has no JSON form; Puppet
    # writes the key "1" twice, strata refuses to write JSON that reads back as other data.
    if ka == "err" and kb == "ok" and "cannot hold a key twice" in ra:
        return repeats_a_key(rb)
    if not (ka == "err" and kb == "err" and ra.startswith("1\n")):
        return False
    needles = NEEDLES.get(rb.split("\n")[0])
    return needles is None or any(n in ra for n in needles)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--minutes", type=float, default=0,
                    help="stop starting new cases after this long (0: no limit)")
    ap.add_argument("--jobs", type=int, default=1, help="puppet lookups run at once")
    ap.add_argument("--eyaml-share", type=float, default=0.35,
                    help="share of cases with an eyaml level (1: every case; the draws stay the same)")
    ap.add_argument("--out", default=None, help="where the cases go (default: a new temporary folder)")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--strata", default=os.path.join(ROOT, "target", "debug", "strata"))
    ap.add_argument("--oracle", default=os.path.join(ROOT, "..", "shared", "oracles", "hiera.py"))
    a = ap.parse_args()
    if a.reuse and not a.out:
        ap.error("--reuse needs --out (the folder of an earlier run)")
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.oracle)))
    import hiera as oracle  # noqa: E402  (the oracle script, imported for its functions)

    EYAML_SHARE[0] = a.eyaml_share
    out = a.out or tempfile.mkdtemp(prefix="diff-hiera-")
    r = random.Random(a.seed)
    base = os.path.join(out, "seed%d" % a.seed)
    deadline = time.time() + a.minutes * 60 if a.minutes else None

    def one(i, case_seed):
        d = os.path.join(base, "case%04d" % i)
        spec = read_spec(d) if a.reuse else make_case(random.Random(case_seed), d)
        got_file = os.path.join(d, "puppet.txt")
        if a.reuse and os.path.exists(got_file):
            want = open(got_file).read()
        else:
            want = puppet(oracle, d, spec)
            with open(got_file, "w") as f:
                f.write(want)
        return d, spec, want

    seeds = [r.random() for _ in range(a.cases)]
    agree = done = 0
    classes = {}

    def case(i):
        if deadline and time.time() > deadline:
            return None
        return one(i, seeds[i])

    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        for result in pool.map(case, range(a.cases)):
            if result is None:
                continue
            d, spec, want = result
            got = strata(a.strata, oracle, d, spec)
            done += 1
            kind = want.split("\n")[0] if want.startswith("ok") else want.split("\n")[1]
            classes[kind] = classes.get(kind, 0) + 1
            if same(got, want):
                agree += 1
            else:
                print("DIFF %s key=%s merge=%s\n  strata: %s\n  puppet: %s" % (
                    d, spec["key"], spec.get("merge"), got.replace("\n", " | ")[:300],
                    want.replace("\n", " | ")[:300]), flush=True)
            if done % 25 == 0:
                print("... %d/%d agree so far" % (agree, done), flush=True)
    print("puppet answers: %s" % ", ".join("%s %d" % kv for kv in sorted(classes.items())))
    print("%d/%d agree (seed %d; cases in %s)" % (agree, done, a.seed, base))
    return 0 if agree == done else 1


if __name__ == "__main__":
    sys.exit(main())
