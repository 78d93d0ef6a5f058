#!/usr/bin/env python3
"""Record what `puppet lookup` answers on the eyaml site (fixtures/hiera/eyaml/site).

Reads fixtures/hiera/eyaml/cases.txt (one case a line: NAME HIERA_FILE KEY [MERGE]
[env:VAR=FILE ...]; `#` comments; `env:VAR=FILE` sets the environment variable VAR to the
text of FILE, relative to the site, `env:VAR=` to the empty string, and no other `EYAML_*`
variable is passed on) and, for each case, runs, from the site folder (hiera-eyaml reads a relative
`pkcs7_private_key` from the working directory, so the recording must run there):

    puppet lookup --hiera_config=HIERA_FILE --facts facts.yaml --render-as json [--merge M] KEY

and writes fixtures/hiera/eyaml/recorded/NAME.json (Puppet's JSON, verbatim) or, when Puppet
fails, NAME.error.txt (Puppet's message, ANSI colours, `Error: Could not run: ` and the
site's absolute path removed). hiera-eyaml's own warnings (`[pkcs7] ...` lines on stderr)
of a lookup that succeeds go to NAME.warnings.txt. A developer tool (needs puppet and hiera-eyaml), not CI.

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
    for name, hiera, key, *rest in cases():
        if names and name not in names:
            continue
        merge = [r for r in rest if not r.startswith("env:")]
        env = {k: v for k, v in os.environ.items() if not k.startswith("EYAML_")}
        for r in rest:
            if r.startswith("env:"):
                var, _, file = r[4:].partition("=")
                env[var] = open(os.path.join(SITE, file)).read() if file else ""
        cmd = ["puppet", "lookup", "--hiera_config=" + hiera, "--facts", "facts.yaml",
               "--render-as", "json"] + (["--merge", merge[0]] if merge else []) + [key]
        p = subprocess.run(cmd, capture_output=True, cwd=SITE, env=env)
        stdout = p.stdout.decode("utf-8", "replace")
        stderr = p.stderr.decode("utf-8", "replace")
        for ext in (".json", ".error.txt", ".warnings.txt"):
            if os.path.exists(os.path.join(out, name + ext)):
                os.remove(os.path.join(out, name + ext))
        if p.returncode == 0:
            with open(os.path.join(out, name + ".json"), "w") as f:
                f.write(stdout)
            warned = [ANSI.sub("", l) for l in stderr.splitlines() if "[pkcs7]" in l]
            if warned:
                with open(os.path.join(out, name + ".warnings.txt"), "w") as f:
                    f.write("\n".join(warned) + "\n")
            print(f"{name}: value")
        else:
            err = [ANSI.sub("", l) for l in stderr.splitlines() if "Facter:" not in l]
            msg = "\n".join(err).replace("Error: Could not run: ", "").replace(SITE + "/", "")
            with open(os.path.join(out, name + ".error.txt"), "w") as f:
                f.write(msg + "\n")
            print(f"{name}: error")


if __name__ == "__main__":
    main(sys.argv[1:])
