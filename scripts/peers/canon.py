#!/usr/bin/env python3
"""Prints a digest of a YAML or JSON file's data (keys sorted, types kept), so outputs of
different tools compare as data: `canon.py FILE`. Exit 1 when the file does not parse."""
import hashlib
import json
import sys

import yaml


def load(path):
    with open(path, "rb") as f:
        head = f.read(4096).lstrip()
        f.seek(0)
        if head[:1] in (b"{", b"["):
            return json.load(f)
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def main():
    try:
        doc = load(sys.argv[1])
    except Exception as e:  # noqa: BLE001 - any parse failure means "not equal"
        print(f"unparsable: {e}".splitlines()[0])
        sys.exit(1)
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    print(hashlib.sha256(text.encode()).hexdigest())


if __name__ == "__main__":
    main()
