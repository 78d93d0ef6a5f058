#!/usr/bin/env python3
"""Makes the `strata diff` workload (docs/PERF.md, issue 18): a git repository in DIR holding
W1's two layers A and B as committed (the base), and in the working tree (the head) B with 1 %
of its scalar leaves changed (every 100th `key: value` line gets a new value). Deterministic.

usage: diff-workload.py DIR A.yaml B.yaml
"""
import re
import shutil
import subprocess
import sys

repo, a, b = sys.argv[1:4]
shutil.rmtree(repo, ignore_errors=True)
subprocess.run(["mkdir", "-p", repo], check=True)
shutil.copy(a, f"{repo}/a.yaml")
shutil.copy(b, f"{repo}/b.yaml")
git = ["git", "-C", repo, "-c", "user.name=bench", "-c", "user.email=bench@example.org"]
subprocess.run(git + ["init", "-q"], check=True)
subprocess.run(git + ["add", "a.yaml", "b.yaml"], check=True)
subprocess.run(git + ["commit", "-q", "-m", "base"], check=True)
leaf = re.compile(r"^(\s*(?:- )?[\w.-]+: )([^\s{\[&*|>].*)$")
lines = open(f"{repo}/b.yaml").read().split("\n")
seen = changed = 0
for i, line in enumerate(lines):
    m = leaf.match(line)
    if m:
        seen += 1
        if seen % 100 == 0:
            lines[i] = f"{m.group(1)}changed-{seen}"
            changed += 1
open(f"{repo}/b.yaml", "w").write("\n".join(lines))
print(f"{changed} of {seen} leaves changed", file=sys.stderr)
