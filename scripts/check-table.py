#!/usr/bin/env python3
"""Replays the engine table's cases (src/merge/table/, issue 38 item 4) through the real
systems, so a case added there is checked against more than a reading of the docs:

* cloud-init: every `merges!` / `folds!` line of stack.rs whose policy is a cloud-init stack
  (`ci("...")`, `l("...")`, `part_default`), merged with `cloudinit.mergers` (`construct(
  string_extract_mergers(how)).merge(old, new)`, the handler's root merge; an exception is a
  failed case). Needs a cloud-init source tree: CLOUDINIT_SRC (a folder holding `cloudinit/`;
  only `mergers/`, `importer.py` and `type_utils.py` are used, with an empty `util`).
* Heat: the `heat(..)` and `heat_top(..)` lines of stack.rs, through `merge_map` and
  `merge_list` read from HEAT_SRC's `heat/common/environment_util.py` and the join and `+` of
  its `merge_parameters` (`+` of a number is left out: Heat refuses a number before it).
* deep_merge gem: every line of gem.rs, through `DeepMerge.deep_merge!(source, deep_clone(dest),
  {preserve_unmergeables: false, ...})` as Puppet 7 calls it (Ruby with the Debian package
  ruby-deep-merge 1.1.1, or GEM_LIB naming the folder holding `deep_merge/core.rb`).

Datum needs PowerShell, which this script does not run. A system whose source is not given
is skipped with a notice. Results compare typed (1, 1.0 and true differ; key order counts).

    CLOUDINIT_SRC=DIR HEAT_SRC=DIR python3 scripts/check-table.py

Prints each disagreement and `N cases, M differ` per system. Where both fail, the case agrees
(the table pins strata's wording, not the system's).

Exit 1 when any case differs. A developer tool, not CI (CI has no copy of these systems).
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "src", "merge", "table")
LIT = r'"(?:[^"\\]|\\.)*"'


def lines(name):
    with open(os.path.join(TABLE, name), encoding="utf-8") as f:
        for n, line in enumerate(f.read().splitlines(), 1):
            yield n, line.strip()


def case(rest):
    """(layers, want, fails) of a case's text after its policy."""
    lits = [json.loads(s) for s in re.findall(LIT, rest)]
    fails = "=> fails" in rest
    head = rest.split("=>")[0]
    count = len(re.findall(LIT, head))
    return lits[:count], lits[count], fails


def canon(v):
    if isinstance(v, dict):
        return ["map", [[canon(k), canon(x)] for k, x in v.items()]]
    if isinstance(v, (list, tuple)):
        return ["list", [canon(x) for x in v]]
    return [type(v).__name__, repr(v)]


def report(system, results):
    bad = 0
    for n, layers, want, fails, got, err in results:
        ok = err is not None and want in err if fails else err is None and canon(got) == canon(yaml.safe_load(want))
        if fails and err is not None:
            ok = True  # the real message is the system's; the table pins strata's wording
        if not ok:
            bad += 1
            print(f"{system} line {n}: {layers}\n  table {'fails ' if fails else ''}{want}\n  real  {err or got!r}")
    print(f"{system}: {len(results)} cases, {bad} differ")
    return bad


def cloud_init():
    src = os.environ.get("CLOUDINIT_SRC")
    if not src:
        print("cloud-init: skipped (set CLOUDINIT_SRC to a cloud-init source tree)")
        return 0
    tmp = tempfile.mkdtemp()
    pkg = os.path.join(tmp, "cloudinit")
    shutil.copytree(os.path.join(src, "cloudinit", "mergers"), os.path.join(pkg, "mergers"))
    for f in ("importer.py", "type_utils.py"):
        shutil.copy(os.path.join(src, "cloudinit", f), pkg)
    for f in ("__init__.py", "util.py"):
        open(os.path.join(pkg, f), "w").close()
    sys.path.insert(0, tmp)
    from cloudinit import mergers  # pylint: disable=import-outside-toplevel

    results = []
    for n, line in lines("stack.rs"):
        m = re.match(r"(?:merges|folds)!\((part_default|ci\(" + LIT + r"\)|l\(" + LIT + r"\)), (.*)\);$", line)
        if not m:
            continue
        pol, rest = m.groups()
        if pol == "part_default":
            how = "dict(replace)+list()+str()"
        elif pol.startswith("ci("):
            how = json.loads(pol[3:-1])
        else:
            how = "dict(recurse_list)+list(%s)" % json.loads(pol[2:-1])
        layers, want, fails = case(rest)
        vals = [yaml.safe_load(t) for t in layers]
        acc, err = vals[0], None
        for v in vals[1:]:
            try:
                acc = mergers.construct(mergers.string_extract_mergers(how)).merge(acc, copy.deepcopy(v))
            except Exception as e:  # noqa: BLE001 - any exception drops the part
                err = f"{type(e).__name__}: {e}"
        results.append((n, layers, want, fails, acc, err))
    shutil.rmtree(tmp)
    return report("cloud-init", results)


def heat():
    src = os.environ.get("HEAT_SRC")
    if not src:
        print("heat: skipped (set HEAT_SRC to a heat source tree)")
        return 0
    import collections  # pylint: disable=import-outside-toplevel

    with open(os.path.join(src, "heat", "common", "environment_util.py"), encoding="utf-8") as f:
        text = f.read()
    ns = {"collections": collections}
    for name in ("merge_list", "merge_map"):
        exec(re.search(r"^def %s\(.*?(?=^def |\Z)" % name, text, re.S | re.M).group(0), ns)  # noqa: S102
    merge_list, merge_map = ns["merge_list"], ns["merge_map"]
    missing = object()

    def run(pol, old, new):
        tops = {
            "heat_map(true)": lambda: merge_map({} if old is missing else old, new, True),
            "list(ListMethod::Extend)": lambda: merge_list(None if old is missing else old, new),
            "string(StrMethod::Join)": lambda: "".join(["" if old is missing else old, new]),
            "string(StrMethod::Replace)": lambda: new,
            "MergerSpec::Plus": lambda: (0 if old is missing else old) + new,
        }
        if pol == "heat(true)":
            return merge_map(old, new, True)
        if pol == "heat(false)":
            return merge_map(old, new, False)
        return tops[pol[len("heat_top(") : -1]]()

    results = []
    for n, line in lines("stack.rs"):
        m = re.match(r"merges!\((heat\(\w+\)|heat_top\(.*?\)\)?), (.*)\);$", line)
        if not m:
            continue
        pol, rest = m.groups()
        layers, want, fails = case(rest)
        old = missing if layers[0] == "" else yaml.safe_load(layers[0])
        if pol == "heat_top(MergerSpec::Plus)" and isinstance(yaml.safe_load(layers[1]), int):
            # Heat's parse_param refuses a Number value that is not a string or a list before
            # `+` runs; the engine refuses int + int instead of adding.
            continue
        try:
            got, err = run(pol, old, yaml.safe_load(layers[1])), None
        except Exception as e:  # noqa: BLE001
            got, err = None, f"{type(e).__name__}: {e}"
        results.append((n, layers, want, fails, got, err))
    return report("heat", results)


GEM_RB = r"""
require 'json'; require 'yaml'; require 'deep_merge/core'
def clone(v)
  case v
  when Hash then r = {}; v.each { |k, x| r[k] = clone(x) }; r
  when Array then v.map { |x| clone(x) }
  else v
  end
end
JSON.parse(STDIN.read).each do |c|
  opts = { preserve_unmergeables: false }
  opts[:knockout_prefix] = c['ko'] if c['ko']
  opts[:sort_merged_arrays] = true if c['sort']
  opts[:merge_hash_arrays] = true if c['hash_arrays']
  ls = c['layers'].map { |t| YAML.safe_load(t) }
  ls = ls.reverse if c['pair']
  begin
    acc = ls[0]
    ls[1..].each { |v| acc = DeepMerge.deep_merge!(acc, clone(v), opts) }
    puts JSON.generate([c['line'], acc.inspect, nil])
  rescue => e
    puts JSON.generate([c['line'], nil, "#{e.class}: #{e.message}"])
  end
end
"""


def gem():
    if not shutil.which("ruby"):
        print("gem: skipped (no ruby)")
        return 0
    cases = []
    for n, line in lines("gem.rs"):
        m = re.match(r"(merges|folds)!\((\w+)(?:\((" + LIT + r")?\))?, (.*)\);$", line)
        if not m:
            continue
        kind, pol, arg, rest = m.groups()
        layers, want, fails = case(rest)
        c = {"line": n, "layers": layers, "want": want, "fails": fails, "pair": kind == "merges"}
        c["ko"] = json.loads(arg) if pol == "ko" else ("--" if pol == "all" else None)
        c["sort"] = pol in ("sorted", "all")
        c["hash_arrays"] = pol in ("hash_arrays", "all")
        cases.append(c)
    args = ["ruby"] + (["-I", os.environ["GEM_LIB"]] if os.environ.get("GEM_LIB") else []) + ["-e", GEM_RB]
    out = subprocess.run(args, input=json.dumps(cases), capture_output=True, text=True, check=True).stdout
    # Ruby's inspect of the want, for a typed comparison in Ruby's own terms.
    wants = subprocess.run(
        ["ruby", "-ryaml", "-rjson", "-e", "JSON.parse(STDIN.read).each { |t| puts YAML.safe_load(t).inspect }"],
        input=json.dumps([c["want"] for c in cases]),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    bad = 0
    for c, row, want in zip(cases, out.splitlines(), wants):
        _, got, err = json.loads(row)
        ok = err is not None if c["fails"] else got == want
        if not ok:
            bad += 1
            print(f"gem line {c['line']}: {c['layers']}\n  table {c['want']}\n  real  {err or got}")
    print(f"gem: {len(cases)} cases, {bad} differ")
    return bad


def main():
    bad = cloud_init() + heat() + gem()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
