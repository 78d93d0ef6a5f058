#!/usr/bin/python3
"""Records what `cloud-init devel render` makes of each jinja template fixture.

For every fixtures/cloud-init/jinja/render/NAME.tmpl this runs

    cloud-init devel render NAME.tmpl --instance-data fixtures/cloud-init/jinja/instance-data.json

and writes NAME.expected.json: the exit code, the rendered text (stdout) and the messages
cloud-init printed (its WARNING / ERROR lines, and the last line of a traceback, which names
the exception). tests/conformance/cloud_init_jinja.rs compares strata with these files.

It also runs the user-data sets in HANDLER_CASES through cloud-init's own part handlers
(scripts/cloud_init_userdata.py: UserDataProcessor, JinjaTemplatePartHandler with its
cloud-config and shell-script sub-handlers, CloudConfigPartHandler) and writes the merged
configs to fixtures/cloud-init/jinja/handler-expected.json, which
tests/integration/cloud_init_jinja.rs compares with `strata cloud-init --instance-data`.

Needs Debian's cloud-init (22.4.2) and python3-jinja2; run it by hand after adding a case:

    /usr/bin/python3 scripts/record-cloud-init-jinja.py
"""

import json
import pathlib
import re
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cloud_init_userdata import merged  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIR = ROOT / "fixtures" / "cloud-init" / "jinja"


def messages(stderr):
    lines = stderr.splitlines()
    out = [l for l in lines if l.startswith(("WARNING:", "ERROR:"))]
    # The exception a traceback ends with (cloud-init catches only TypeError and Jinja2's
    # UndefinedError; anything else, ValueError, AttributeError, ..., is raised).
    if lines and re.match(r"[\w.]+(Error|Exception)\b", lines[-1]):
        out.append(lines[-1])
    return out


# Inputs (in fixtures/cloud-init/jinja/) given together to one handler pass.
HANDLER_CASES = [
    ["base.yaml", "web.yaml"],
    ["user-data.mime"],
    ["archive.yaml"],
    ["undefined.yaml"],
    ["syntax-error.yaml"],
    ["base.yaml", "syntax-error.yaml"],
    ["hyphen.yaml"],
    ["base.yaml", "script.sh"],
    ["base.yaml", "web.yaml", "user-data.mime", "archive.yaml"],
    ["markup.yaml"],
    ["base.yaml", "markup.yaml", "markup-error.yaml"],
]


def record_handler_cases():
    out = {}
    for files in HANDLER_CASES:
        blobs = [(DIR / f).read_bytes() for f in files]
        out[" ".join(files)] = merged(blobs, str(DIR / "instance-data.json"))
    path = DIR / "handler-expected.json"
    path.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    print(f"{len(out)} handler cases")


def main():
    record_handler_cases()
    names = sys.argv[1:]
    templates = sorted((DIR / "render").glob("*.tmpl"))
    for tmpl in templates:
        if names and tmpl.stem not in names:
            continue
        run = subprocess.run(
            ["cloud-init", "devel", "render", tmpl.name,
             "--instance-data", str(DIR / "instance-data.json")],
            cwd=tmpl.parent, capture_output=True, check=False,
        )
        # Bytes decoded by hand: text=True would read a "\r" in the output as a newline.
        stdout = run.stdout.decode("utf-8", "surrogateescape")
        stderr = run.stderr.decode("utf-8", "surrogateescape")
        record = {
            "rc": run.returncode,
            "stdout": stdout,
            "messages": messages(stderr),
        }
        out = tmpl.with_suffix(".expected.json")
        out.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
        print(f"{tmpl.stem}: rc={run.returncode}")


if __name__ == "__main__":
    main()
