#!/usr/bin/env python3
"""Replays every strata command line the test suites run, with two binaries, and checks that
both print the same bytes: the check that a refactoring changed nothing a user can see.

    STRATA_RECORD=/tmp/commands.jsonl cargo test --locked     # record the command lines
    scripts/same-output.py --old OLD_STRATA --new target/debug/strata /tmp/commands.jsonl

Each recorded line is [working directory, arg, ...]. Each command runs as recorded, and, for a
render, also with `--explain`, `--explain --output json` and `--output json`; stdout, stderr and
the exit code must be equal. Commands naming a file that no longer exists (a test's scratch
directory) are skipped and counted.
"""
import argparse, json, os, subprocess, sys, tempfile

RENDERS = {"merge", "cloud-init", "heat", "lookup", "deckhand"}
VARIANTS = ([], ["--explain"], ["--explain", "--output", "json"], ["--output", "json"])


def run(binary, cwd, args):
    p = subprocess.run([binary] + args, cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("commands")
    a = ap.parse_args()
    # Both run as `strata` (clap's usage lines name the program as it was called).
    tmp = tempfile.mkdtemp()
    old, new = os.path.join(tmp, "old", "strata"), os.path.join(tmp, "new", "strata")
    for link, target in ((old, a.old), (new, a.new)):
        os.makedirs(os.path.dirname(link))
        os.symlink(os.path.abspath(target), link)
    seen, same, skipped, differ = set(), 0, 0, 0
    for line in open(a.commands):
        cwd, *args = json.loads(line)
        key = json.dumps([cwd] + args)
        if key in seen:
            continue
        seen.add(key)
        if not os.path.isdir(cwd) or any(x.startswith("/tmp/") and not os.path.exists(x) for x in args):
            skipped += 1
            continue
        plain = not any(x.startswith(("--explain", "--output", "-o")) for x in args)
        variants = VARIANTS if args and args[0] in RENDERS and plain else ([],)
        for extra in variants:
            cmd = args[:1] + extra + args[1:]
            if run(old, cwd, cmd) != run(new, cwd, cmd):
                differ += 1
                print(f"differs: (cd {cwd} && strata {' '.join(cmd)})")
                if differ <= 10:
                    o, n = run(old, cwd, cmd), run(new, cwd, cmd)
                    print(f"--- old (exit {o[0]})\n{o[1].decode()[:2000]}{o[2].decode()[:2000]}")
                    print(f"--- new (exit {n[0]})\n{n[1].decode()[:2000]}{n[2].decode()[:2000]}")
            else:
                same += 1
    print(f"{len(seen)} command lines: {same} runs identical, {differ} differ, {skipped} skipped (scratch files gone)")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
