#!/usr/bin/env python3
"""Differential test: random Hiera 5 hierarchies looked up by strata and by the real
`puppet lookup` (Puppet 7.23, Debian 12 package `puppet`), through the oracle script
../shared/oracles/hiera.py (its `run`, `merge_flags` and `classify`).

Each case is a hiera.yaml (2-4 levels: `path` with fact interpolation, `paths`, `glob`,
missing files), data files with random values (scalars incl. YAML 1.1 forms, knockout
strings, nested arrays, hashes, arrays of hashes, nulls), `lookup_options` in random levels
(exact keys and `^` patterns, every strategy and deep option), data interpolation
(`%{facts.x}`, `%{lookup('k')}`, `%{alias('k')}`, `%{literal('%')}`), dotted keys, and an
explicit `--merge` with deep flags in some cases. One puppet call per case (it answers one key
per call, ~2.5 s). Results are kept in the case folder (`puppet.txt`), so `--reuse` compares
strata again without running puppet. Each lookup runs twice with the data files' indexes
kept in between (docs/frontends/hiera.md): both runs must give the same output.

    /usr/bin/python3 scripts/diff-hiera.py [--seed N] [--cases N] [--out DIR] [--reuse]
                                          [--strata PATH] [--oracle PATH/hiera.py]

Prints one line per disagreement and a summary `N/M agree`. Exit 1 on any disagreement.
Agreement: both succeed with the same JSON (value and key order), or both fail (strata exit 1;
puppet's error class is shown beside strata's message).
"""
import argparse
import json
import os
import random
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

KEYS = ["alpha", "beta", "gamma", "delta", "app::cfg", "app::list"]
WORDS = ["a", "b", "c", "d", "x", "y", "web", "db", "--a", "--b", "--x", "--", "!!c", "8080",
         "yes", "on", "0755", "1:30", "1.5", "~", "null", "%"]


def scalar(r):
    k = r.random()
    if k < 0.55:
        return r.choice(WORDS)
    if k < 0.7:
        return r.choice([0, 1, 2, 3, 8080, -5])
    if k < 0.78:
        return r.choice([1.5, 2.0, 0.25])
    if k < 0.88:
        return r.choice([True, False])
    return None


def value(r, depth=0):
    k = r.random()
    if depth >= 3 or k < 0.35:
        return scalar(r)
    if k < 0.6:
        n = r.randint(0, 4)
        items = []
        for _ in range(n):
            if r.random() < 0.2 and depth < 2:
                items.append(value(r, depth + 1))
            else:
                items.append(scalar(r))
        return items
    if k < 0.7:
        return [hash_value(r, depth + 1) for _ in range(r.randint(1, 3))]
    return hash_value(r, depth + 1)


def hash_value(r, depth):
    keys = ["k1", "k2", "k3", "k4", "--k1", "n"]
    out = {}
    for _ in range(r.randint(0, 4)):
        out[r.choice(keys)] = value(r, depth) if depth < 3 else scalar(r)
    return out


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


def lookup_options(r):
    lo = {}
    for _ in range(r.randint(1, 3)):
        key = r.choice(KEYS + ["^a", "^app::", "^(beta|gamma)$", ".*", "^.*a$"])
        lo[key] = {"merge": merge_spec(r)}
    return lo


def interp_value(r, key):
    other = r.choice([k for k in KEYS if k != key])
    return r.choice([
        "%{facts.role}-x",
        "%{::nodename}",
        "%{lookup('" + other + "')}",
        "%{alias('" + other + "')}",
        "%{literal('%')}{x}",
        "pre %{hiera('" + other + "')} post",
        "%{facts.missing}",
    ])


def make_case(r, d):
    facts = {"nodename": r.choice(["web01", "db01"]), "role": r.choice(["web", "db"]),
             "location": {"dc": r.choice(["ams1", "fra2"])}}
    levels = []
    files = {}
    nlevels = r.randint(2, 4)
    templates = [
        ("Node", {"path": "nodes/%{facts.nodename}.yaml"}, lambda: "nodes/%s.yaml" % facts["nodename"]),
        ("Role", {"path": "roles/%{::role}.yaml"}, lambda: "roles/%s.yaml" % facts["role"]),
        ("DC", {"paths": ["dc/%{facts.location.dc}.yaml", "dc/all.yaml"]},
         lambda: r.choice(["dc/%s.yaml" % facts["location"]["dc"], "dc/all.yaml"])),
        ("Globbed", {"glob": "glob/*.yaml"}, lambda: "glob/%s.yaml" % r.choice(["g1", "g2"])),
        ("Common", {"path": "common.yaml"}, lambda: "common.yaml"),
    ]
    chosen = r.sample(templates[:-1], nlevels - 1) + [templates[-1]]
    for name, loc, fname in chosen:
        levels.append(dict(name=name, **loc))
        for _ in range(r.randint(1, 2)):
            if r.random() < 0.85:
                files.setdefault(fname(), {})
    for f in list(files):
        data = {}
        for k in KEYS:
            if r.random() < 0.6:
                data[k] = value(r)
            elif r.random() < 0.1:
                data[k] = interp_value(r, k)
        if r.random() < 0.35:
            data["lookup_options"] = lookup_options(r)
        files[f] = data
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "hiera.yaml"), "w") as f:
        yaml.safe_dump({"version": 5, "defaults": {"datadir": "data", "data_hash": "yaml_data"},
                        "hierarchy": levels}, f, sort_keys=False)
    for name, data in files.items():
        p = os.path.join(d, "data", name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            yaml.safe_dump(data, f, sort_keys=False, default_flow_style=r.random() < 0.3)
    with open(os.path.join(d, "facts.yaml"), "w") as f:
        yaml.safe_dump(facts, f)
    key = r.choice(KEYS)
    if r.random() < 0.15:
        key += "." + r.choice(["k1", "k2", "0", "1"])
    spec = {"key": key}
    if r.random() < 0.35:
        spec["merge"] = merge_spec(r)
    with open(os.path.join(d, "lookup.yml"), "w") as f:
        yaml.safe_dump(spec, f, sort_keys=False)
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
    return "err\n" + str(p.returncode) + "\n" + p.stderr.strip().splitlines()[0]


def same(a, b):
    ka, _, ra = a.partition("\n")
    kb, _, rb = b.partition("\n")
    if ka == "ok" and kb == "ok":
        try:
            return json.dumps(json.loads(ra)) == json.dumps(json.loads(rb))
        except ValueError:
            return False
    return ka == "err" and kb == "err" and ra.startswith("1\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "diff-hiera"))
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--strata", default=os.path.join(ROOT, "target", "debug", "strata"))
    ap.add_argument("--oracle", default=os.path.join(ROOT, "..", "shared", "oracles", "hiera.py"))
    a = ap.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.oracle)))
    import hiera as oracle  # noqa: E402  (the oracle script, imported for its functions)

    r = random.Random(a.seed)
    base = os.path.join(a.out, "seed%d" % a.seed)
    agree = 0
    for i in range(a.cases):
        d = os.path.join(base, "case%04d" % i)
        spec = make_case(random.Random(r.random()), d) if not a.reuse else \
            yaml.safe_load(open(os.path.join(d, "lookup.yml")))
        got_file = os.path.join(d, "puppet.txt")
        if a.reuse and os.path.exists(got_file):
            want = open(got_file).read()
        else:
            want = puppet(oracle, d, spec)
            with open(got_file, "w") as f:
                f.write(want)
        got = strata(a.strata, oracle, d, spec)
        if same(got, want):
            agree += 1
        else:
            print("DIFF %s key=%s merge=%s\n  strata: %s\n  puppet: %s" % (
                d, spec["key"], spec.get("merge"), got.replace("\n", " | ")[:300],
                want.replace("\n", " | ")[:300]), flush=True)
        if (i + 1) % 25 == 0:
            print("... %d/%d agree so far" % (agree, i + 1), flush=True)
    print("%d/%d agree (seed %d)" % (agree, a.cases, a.seed))
    return 0 if agree == a.cases else 1


if __name__ == "__main__":
    sys.exit(main())
