#!/usr/bin/env python3
"""Record what `puppet lookup` answers on the eyaml site (fixtures/hiera/eyaml/site).

Reads fixtures/hiera/eyaml/cases.txt (one case a line: NAME HIERA_FILE KEY [MERGE]; `#`
comments) and, for each case, runs, from the site folder (hiera-eyaml reads a relative
`pkcs7_private_key` from the working directory, so the recording must run there):

    puppet lookup --hiera_config=HIERA_FILE --facts facts.yaml --render-as json [--merge M] KEY

and writes fixtures/hiera/eyaml/recorded/NAME.json (Puppet's JSON, verbatim) or, when Puppet
fails, NAME.error.txt (Puppet's message, ANSI colours, `Error: Could not run: ` and the
site's absolute path removed). A developer tool (needs puppet and hiera-eyaml), not CI.

Usage: python3 scripts/record-hiera-eyaml.py [NAME...]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "hiera", "eyaml")
ROOT = os.path.normpath(ROOT)
SITE = os.path.join(ROOT, "site")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def cases():
    with open(os.path.join(ROOT, "cases.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                yield line


def main(names):
    out = os.path.join(ROOT, "recorded")
    os.makedirs(out, exist_ok=True)
    for name, hiera, key, *merge in cases():
        if names and name not in names:
            continue
        cmd = ["puppet", "lookup", "--hiera_config=" + hiera, "--facts", "facts.yaml",
               "--render-as", "json"] + (["--merge", merge[0]] if merge else []) + [key]
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=SITE)
        for ext in (".json", ".error.txt"):
            if os.path.exists(os.path.join(out, name + ext)):
                os.remove(os.path.join(out, name + ext))
        if p.returncode == 0:
            with open(os.path.join(out, name + ".json"), "w") as f:
                f.write(p.stdout)
            print(f"{name}: value")
        else:
            err = [ANSI.sub("", l) for l in p.stderr.splitlines() if "Facter:" not in l]
            msg = "\n".join(err).replace("Error: Could not run: ", "").replace(SITE + "/", "")
            with open(os.path.join(out, name + ".error.txt"), "w") as f:
                f.write(msg + "\n")
            print(f"{name}: error")


if __name__ == "__main__":
    main(sys.argv[1:])
