#!/usr/bin/python3
"""Differential test: random cloud-config parts merged by strata and by cloud-init itself.

Needs Debian's cloud-init package (apt-get install cloud-init) and the system python3 that
sees it (/usr/bin/python3), plus a built strata binary. Not part of CI (cloud-init is not a
test dependency); run it by hand after changing merge semantics:

    cargo build --release
    /usr/bin/python3 scripts/diff-cloud-init.py --cases 2000 --seed 1

Each case is 2-4 parts with random data and random merge_how strings (string grammar and the
list-of-dicts form); values include what PyYAML builds from tags (`!!binary` bytes, e.g. a
`write_files` entry's content, `!!set`, `!!omap` pairs, dates). Every part goes to cloud-init's
CloudConfigPartHandler exactly as its own test suite feeds its merge fixtures, and all parts go
to `strata cloud-init`; strata's YAML output is read back with PyYAML and compared with
cloud-init's merged config as typed Python values (1, 1.0 and True differ; bytes, sets and
tuples are kept).

With --jinja, each case is instead random instance data (hyphenated and dotted keys, `v1` /
`v2`, nested mappings, every JSON type) and 1-3 user-data files, some `## template: jinja`
parts whose values are lookups (existing, through aliases, missing), filters, `if` and `for`
blocks; cloud-init's own handlers (scripts/cloud_init_userdata.py: the jinja handler reads the
instance data as on a machine) are compared with `strata cloud-init --instance-data`:

    /usr/bin/python3 scripts/diff-cloud-init.py --jinja --cases 2000 --seed 1
"""
import argparse, datetime, gzip, logging, math, os, random, subprocess, sys, tempfile

logging.disable(logging.CRITICAL)
import yaml
from cloudinit import helpers as c_helpers
from cloudinit.handlers import CONTENT_END, CONTENT_START, cloud_config

KEYS = ["a", "b", "c"]
STRS = ["x", "y", "ab", "hello"]
DICT_OPTS = ["replace", "no_replace", "allow_delete", "recurse_list", "recurse_array", "recurse_str", "recurse_dict"]
LIST_OPTS = ["append", "prepend", "replace", "no_replace", "recurse_list", "recurse_str", "recurse_dict"]
STR_OPTS = ["append", "recurse_list"]


class Omap(list):
    """Pairs written as `!!omap` (PyYAML builds a list of tuples from it)."""


yaml.SafeDumper.add_representer(
    Omap, lambda d, v: d.represent_sequence("tag:yaml.org,2002:omap", [{k: x} for k, x in v])
)


def typed(v):
    """A value with its Python types made explicit, for exact comparison."""
    if isinstance(v, float) and math.isnan(v):
        return ("float", "nan")
    if isinstance(v, dict):
        return ("dict", tuple((typed(k), typed(x)) for k, x in v.items()))
    if isinstance(v, (set, frozenset)):
        return ("set", frozenset(typed(x) for x in v))
    if isinstance(v, list) and not all(isinstance(x, tuple) for x in v):
        # A tuple among other items has no YAML form a safe loader reads back: strata writes
        # it as a list, as cloud-init's own dumper writes every tuple.
        return ("list", tuple(typed(list(x) if isinstance(x, tuple) else x) for x in v))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(typed(x) for x in v))
    return (type(v).__name__, repr(v))


def value(rng, depth):
    kinds = ["int", "str", "null", "bool", "float", "bytes", "date"] + (
        ["list", "map", "list", "map", "set", "omap"] if depth < 3 else []
    )
    k = rng.choice(kinds)
    if k == "bytes":
        raw = rng.choice([b"", b"hello", bytes(range(rng.randint(0, 200)))])
        return gzip.compress(raw, mtime=0) if rng.random() < 0.3 else raw
    if k == "date":
        return datetime.date(2024, rng.randint(1, 12), rng.randint(1, 28))
    if k == "set":
        return set(rng.sample(STRS, rng.randint(0, 3)))
    if k == "omap":
        return Omap((rng.choice(KEYS), value(rng, depth + 1)) for _ in range(rng.randint(1, 3)))
    if k == "int":
        return rng.randint(0, 3)
    if k == "str":
        return rng.choice(STRS)
    if k == "null":
        return None
    if k == "bool":
        return rng.choice([True, False])
    if k == "float":
        return rng.choice([0.5, 1.0])
    if k == "list":
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(KEYS): value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def merger(rng, name, opts):
    chosen = rng.sample(opts, rng.randint(0, min(3, len(opts))))
    return name, chosen


def merge_how(rng):
    roll = rng.random()
    if roll < 0.2:
        return None
    mergers = [merger(rng, n, o) for n, o in [("dict", DICT_OPTS), ("list", LIST_OPTS), ("str", STR_OPTS)] if rng.random() < 0.75]
    rng.shuffle(mergers)
    if roll < 0.75:
        return "+".join(f"{n}({','.join(o)})" for n, o in mergers)
    if roll < 0.85:
        # Spelling cloud-init normalises (case, dashes, spaces, empty pieces) or rejects.
        text = " + ".join(f" {n.upper() if rng.random() < 0.3 else n}( {' , '.join(x.replace('_', '-') for x in o)} )" for n, o in mergers)
        return rng.choice([text, text + "++", "+" + text, text.replace("(", " (", 1) if rng.random() < 0.2 else text])
    if roll < 0.95:
        return [{"name": n, "settings": o} for n, o in mergers]
    return [[n, *o] for n, o in mergers]


def case(rng):
    """Parts as (text, headers)."""
    parts = []
    for _ in range(rng.randint(2, 4)):
        doc = {rng.choice(KEYS): value(rng, 1) for _ in range(rng.randint(1, 3))}
        if rng.random() < 0.15:
            # cloud-init's documented form: write_files content given as !!binary.
            content = gzip.compress(rng.choice([b"#!/bin/sh\necho hi\n", b"\x00\x01binary"]), mtime=0)
            doc["write_files"] = [{"path": "/tmp/f", "encoding": "gzip", "content": content}]
        how = merge_how(rng)
        if how is not None:
            doc[rng.choice(["merge_how", "merge_how", "merge_type"])] = how
        if rng.random() < 0.05:
            doc["merge_how"] = None
            doc["merge_type"] = merge_how(rng)
        headers = {}
        if rng.random() < 0.3:
            name = rng.choice(["Merge-Type", "X-Merge-Type", "merge-type"])
            spec = merge_how(rng)
            headers[name] = spec if isinstance(spec, str) else ""
        text = "#cloud-config\n" + yaml.safe_dump(doc, default_flow_style=False)
        if rng.random() < 0.03:
            text = "#cloud-config\n- not a mapping\n"
        parts.append((text, headers))
    return parts


def cloud_init(handler, parts):
    handler.handle_part(None, CONTENT_START, None, None, None, None)
    for i, (text, headers) in enumerate(parts):
        handler.handle_part(None, None, f"part-{i}.yaml", text, None, dict(headers))
    result = typed(handler.cloud_buf)
    handler.handle_part(None, CONTENT_END, None, None, None, None)
    return result


JKEYS = ["region", "local-hostname", "a.b", "x//y", "plain", "zone_id", "Mixed-Case"]


def jvalue(rng, depth):
    kind = rng.choice(["str", "str", "int", "float", "bool", "null", "list"] + (["dict"] if depth < 3 else []))
    if kind == "str":
        return rng.choice(["eu-west-1", "web", "a b", "yes", "0755", "1:30", "x'y", "", "Ünï"])
    if kind == "int":
        return rng.choice([0, 7, -3, 10**12])
    if kind == "float":
        return rng.choice([1.5, 0.0001, 1e22, -2.0, 3.0])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [jvalue(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(JKEYS): jvalue(rng, depth + 1) for _ in range(rng.randint(1, 3))}


def instance_data(rng):
    v1 = {k: jvalue(rng, 1) for k in rng.sample(JKEYS, rng.randint(2, 5))}
    data = {"v1": v1, "ds": {"meta-data": {k: jvalue(rng, 2) for k in rng.sample(JKEYS, 2)}}}
    if rng.random() < 0.3:
        data["v2"] = {k: jvalue(rng, 1) for k in rng.sample(JKEYS, 2)}
    return data


def alias(key):
    import re
    return re.sub(r"//|\*\*|==|!=|>=|<=|[-+/*%~\[\](){}><=.:|,;]", "_", key)


def lookup(rng, data):
    """A template expression: a path that exists (through aliases), or one that does not."""
    roll = rng.random()
    top = rng.choice(["v1", "ds"])
    node, path = data[top], [top]
    while isinstance(node, dict) and node and rng.random() < 0.8:
        key = rng.choice(sorted(node))
        node = node[key]
        path.append(alias(key) if rng.random() < 0.7 else f'["{key}"]')
    if roll < 0.15:
        path.append(rng.choice(["nope", "missing_key"]))
    expr = path[0] + "".join(p if p.startswith("[") else "." + p for p in path[1:])
    if roll > 0.85 and isinstance(node, str):
        expr += rng.choice([" | upper", " | length", ' | replace("-", "_")', ".split('-')"])
    elif roll > 0.8:
        expr += rng.choice([' | default("dflt")', " is defined"])
    return expr


def jinja_part(rng, data):
    lines = ["## template: jinja", "#cloud-config"]
    if rng.random() < 0.5:
        lines.append("merge_how: " + rng.choice(["dict(recurse_array)+list(append)", "dict(no_replace,recurse_list)+list(prepend)", "dict(replace)"]))
    for i in range(rng.randint(1, 4)):
        key = rng.choice(KEYS) + str(i)
        form = rng.random()
        if form < 0.5:
            lines.append(f"{key}: {{{{ {lookup(rng, data)} }}}}")
        elif form < 0.65:
            lines.append(f'{key}: "{{{{ {lookup(rng, data)} }}}}"')
        elif form < 0.8:
            lines += [f"{key}:", f"  - {{{{ {lookup(rng, data)} }}}}", f"  - x{{{{ {lookup(rng, data)} }}}}y"]
        elif form < 0.9:
            lines += [f"{{% if {lookup(rng, data)} %}}", f"{key}: yes-branch", "{% else %}", f"{key}: [no]", "{% endif %}"]
        else:
            lines += [f"{key}:", "{% for item in [1, 2] %}", f"  - {{{{ item }}}}-{{{{ {lookup(rng, data)} }}}}", "{% endfor %}"]
    return "\n".join(lines) + "\n"


def jinja_main(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import json
    from cloud_init_userdata import merged
    rng = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.cases):
            data = instance_data(rng)
            data_path = os.path.join(tmp, f"{n:05d}-instance-data.json")
            with open(data_path, "w") as f:
                json.dump(data, f)
            files = []
            for i in range(rng.randint(1, 3)):
                if rng.random() < 0.75:
                    text = jinja_part(rng, data)
                else:
                    text = "#cloud-config\n" + yaml.safe_dump({rng.choice(KEYS) + "0": value(rng, 1)}, default_flow_style=False)
                path = os.path.join(tmp, f"{n:05d}-{i}.yaml")
                with open(path, "w") as f:
                    f.write(text)
                files.append(path)
            blobs = [open(p, "rb").read() for p in files]
            want = typed(merged(blobs, data_path))
            run = subprocess.run([args.strata, "cloud-init", "--instance-data", data_path, *files], capture_output=True, text=True)
            got = typed(yaml.safe_load(run.stdout)) if run.returncode == 0 else ("<exit>", run.returncode, run.stderr)
            if got != want:
                failures += 1
                if failures <= 5:
                    texts = "\n---\n".join(open(p).read() for p in files)
                    print(f"case {n} differs\n{json.dumps(data)}\n{texts}\ncloud-init: {want}\nstrata:     {got}\n{run.stderr}")
    print(f"{args.cases - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jinja", action="store_true", help="jinja template parts with random instance data")
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strata", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "strata"))
    args = ap.parse_args()
    if args.jinja:
        return jinja_main(args)
    rng = random.Random(args.seed)
    handler = cloud_config.CloudConfigPartHandler(c_helpers.Paths({}))
    handler.cloud_fn = None
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.cases):
            parts = case(rng)
            files = []
            if any(h for _, h in parts):
                # Headers travel as #cloud-config-archive entry keys (one archive, in order).
                entries = [dict(h, content=text) for text, h in parts]
                path = os.path.join(tmp, f"{n:05d}-archive.yaml")
                with open(path, "w") as f:
                    f.write("#cloud-config-archive\n" + yaml.safe_dump(entries, default_flow_style=False))
                files.append(path)
            for i, (text, _) in enumerate(parts if not files else []):
                path = os.path.join(tmp, f"{n:05d}-{i}.yaml")
                with open(path, "w") as f:
                    f.write(text)
                files.append(path)
            want = cloud_init(handler, parts)
            run = subprocess.run([args.strata, "cloud-init", *files], capture_output=True, text=True)
            got = typed(yaml.safe_load(run.stdout)) if run.returncode == 0 else ("<exit>", run.returncode, run.stderr)
            if got != want:
                failures += 1
                if failures <= 5:
                    print(f"case {n} differs\n" + "\n---\n".join(f"{h}\n{t}" for t, h in parts) + f"\ncloud-init: {want}\nstrata:     {got}\n")
    print(f"{args.cases - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
