#!/usr/bin/env python3
"""Differential test of Deckhand paths: random jsonpath-ng paths read and written by Deckhand's
own `jsonpath_parse` / `jsonpath_replace` (deckhand/common/utils.py, jsonpath-ng 1.8.0), and
by strata's `value::dpath`, on random data.

Not part of CI (it needs Deckhand); the oracle is set up as /work/shared/oracles/README.md says
(ORACLE_VENV_DIR, DECKHAND_SRC; the same virtualenv as scripts/diff-deckhand.py). This script
re-executes itself under that virtualenv's python to record, for each case, what Deckhand
gives: the value read (`read`), the data after a write (`write`, Deckhand's
`jsonpath_replace` with `src_deepcopy=True`, its creation of missing paths included), or the
Python exception raised. The cases are JSON lines: path, data and value as YAML text, the
expected result as YAML text (written by PyYAML), or the exception's class.
`tests/conformance/jsonpath.rs` replays such a file through strata's reader and writer:

    python3 scripts/diff-jsonpath.py --cases 5000 --seed 1 --out /tmp/paths.jsonl
    STRATA_JSONPATH_CASES=/tmp/paths.jsonl cargo test --test conformance jsonpath -- --nocapture

Without the variable the test replays fixtures/deckhand/jsonpath/cases.jsonl, recorded with
this script (see the README there). Paths are drawn from the whole grammar (names, quoted
names, `*`, numbers, indices, index lists, slices, `..`, `|`, `&`, `where`, `wherenot`,
`` `this` ``, `` `parent` ``, parentheses, blanks), a few of them mangled into syntax errors;
data from a small vocabulary of keys so that paths match often, with strings equal to the
keys, integer keys, dates, empty and falsy values.
"""
import argparse, datetime, json, os, random, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ["a", "b", "x", "l", "ntp", "0", "1", "a b", "where", "*"]
NAMES = ["a", "b", "x", "l", "ntp", "0", "zz"]


def rand_path(rng):
    """A random path text: `$`-rooted (the forms Deckhand's dest.path accepts) or relative."""
    def name():
        r = rng.random()
        if r < 0.7:
            return rng.choice(NAMES)
        if r < 0.8:
            return rng.choice(["'a b'", "\"x\"", "'*'", "'where'", "'0'"])
        if r < 0.9:
            return rng.choice(["0", "1", "-1", "007"])
        return "*"

    def bracket():
        r = rng.random()
        if r < 0.35:
            return "[%d]" % rng.choice([0, 1, 2, -1, -2, 5])
        if r < 0.5:
            return "[%s]" % ",".join(str(rng.choice([0, 1, 2, -1])) for _ in range(rng.randint(2, 3)))
        if r < 0.75:
            parts = [rng.choice(["", "0", "1", "-1", "2", "9"]) for _ in range(2)]
            if rng.random() < 0.3:
                parts.append(rng.choice(["", "2", "-1", "0"]))
            return "[%s]" % ":".join(parts)
        if r < 0.9:
            return "[*]"
        return "[%s]" % ",".join(rng.choice(["a", "'b'", "x"]) for _ in range(rng.randint(1, 2)))

    def term(depth):
        r = rng.random()
        if depth < 2 and r < 0.08:
            return "(" + expr(depth + 1) + ")"
        if r < 0.14:
            return rng.choice(["`this`", "`parent`"])
        if r < 0.2:
            return "$"
        if r < 0.28:
            return ",".join(rng.choice(["a", "b", "x", "ntp"]) for _ in range(2))
        return name()

    def expr(depth):
        out = term(depth)
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
            r = rng.random()
            if r < 0.45:
                out += "." + term(depth)
            elif r < 0.65:
                out += bracket()
            elif r < 0.77:
                out += ".." + term(depth)
            elif r < 0.85:
                out += rng.choice(["|", " | "]) + term(depth)
            elif r < 0.9:
                out += rng.choice([" where ", " wherenot "]) + term(depth)
            elif r < 0.92:
                out += "&" + term(depth)
            else:
                out += "." + name()
        return out

    r = rng.random()
    body = expr(0)
    if r < 0.6:
        text = "$." + body if not body.startswith("$") else body
    elif r < 0.8:
        text = "." + body
    elif r < 0.9:
        text = "$" + bracket() + ("." + body if rng.random() < 0.5 else "")
    else:
        text = body
    if rng.random() < 0.05:
        text = text.replace(".", " . ", 1)
    if rng.random() < 0.04:
        i = rng.randrange(len(text) + 1)
        text = text[:i] + rng.choice(["]", "[", "~", ":", ",", "'", "-", "..", "é", "`x`", "\n"]) + text[i:]
    return text


def path_from_data(rng, data):
    """A path that follows the data (so that it matches), with some steps generalised: a name
    to `*` or a union, an index to a slice or an index list, a step to `..`, a `where`, a
    `parent` step."""
    out, cur = "$", data
    for _ in range(rng.randint(1, 4)):
        if isinstance(cur, dict) and cur:
            k = rng.choice(list(cur))
            if isinstance(k, str) and k.isidentifier() and k not in ("where", "wherenot"):
                name = k
            elif isinstance(k, str):
                name = "'" + k.replace("\\", "\\\\").replace("'", "\\'") + "'"
            else:
                name = None  # an integer key: only an index reaches it
            r = rng.random()
            if name is None:
                out += "[%d]" % k
            elif r < 0.55:
                out += "." + name
            elif r < 0.65:
                out += ".*"
            elif r < 0.75:
                out += ".." + name
            elif r < 0.83:
                other = rng.choice([x for x in cur if isinstance(x, str)] or [name])
                other = other if other.isidentifier() and other not in ("where", "wherenot") else "zz"
                out += "." + rng.choice(["(%s|%s)" % (name, other), "%s,%s" % (name, other), "[%s,%s]" % (name, other)])
            elif r < 0.9 and isinstance(cur[k], dict) and cur[k]:
                sub = rng.choice(list(cur[k]))
                sub = sub if isinstance(sub, str) and sub.isidentifier() and sub not in ("where", "wherenot") else "zz"
                out += ".(%s %s %s)" % (name, rng.choice(["where", "wherenot"]), sub)
            else:
                out += "['%s']" % name.strip("'") if name[0] != "'" else "[%s]" % name
            cur = cur[k]
        elif isinstance(cur, list) and cur:
            i = rng.randrange(len(cur))
            r = rng.random()
            if r < 0.5:
                out += "[%d]" % (i if rng.random() < 0.7 else i - len(cur))
            elif r < 0.65:
                out += "[%d:%s]" % (i, rng.choice(["", str(i + 1), str(i + 2)]))
            elif r < 0.75:
                out += "[%d,%d]" % (i, rng.randrange(len(cur)))
            elif r < 0.85:
                out += "[*]"
            else:
                out += "[::%d]" % rng.choice([1, 2, -1])
            cur = cur[i]
        else:
            out += rng.choice(["[*]", "[0]", ".x", "[0:1]"])
            break
        if rng.random() < 0.06:
            out += rng.choice([".`parent`", ".`this`"])
    if rng.random() < 0.3:
        out = "." + out[2:] if out.startswith("$.") else out
    return out


def rand_scalar(rng):
    return rng.choice([0, 1, 2, -1, True, False, None, 1.5, 0.0, "", "a", "b", "x", "ntp", "a b", "text",
                       datetime.date(2024, 1, 2), [], {}])


MAX_DEPTH = [4]


def rand_value(rng, depth):
    r = rng.random()
    if depth < MAX_DEPTH[0] and r < 0.4:
        n = rng.randint(0, 4)
        keys = rng.sample(KEYS, n)
        d = {}
        for k in keys:
            d[int(k) if k in ("0", "1") and rng.random() < 0.3 else k] = rand_value(rng, depth + 1)
        return d
    if depth < MAX_DEPTH[0] and r < 0.65:
        return [rand_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rand_scalar(rng)


def gen_cases(n, seed):
    rng = random.Random(seed)
    for k in range(n):
        data = rand_value(rng, 0)
        if not isinstance(data, dict) or rng.random() < 0.1:
            data = {"a": data, rng.choice(KEYS): rand_value(rng, 1)}
        op = "read" if rng.random() < 0.5 else "write"
        path = path_from_data(rng, data) if rng.random() < 0.6 else rand_path(rng)
        if op == "write" and not path.startswith(("$.", ".")) and rng.random() < 0.8:
            path = "$." + path.lstrip("$.")
        case = {"k": k, "op": op, "path": path, "data": data}
        if op == "write":
            case["value"] = rand_value(rng, 2) if rng.random() < 0.8 else rng.choice([[1, 2], [], {"x": 1}, "v"])
        yield case


def worker():
    import yaml
    sys.path.insert(0, os.environ["DECKHAND_SRC"])
    import logging
    logging.disable(logging.CRITICAL)
    from deckhand.common import utils
    out = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        case = json.loads(line)
        data = yaml.safe_load(case["data"])
        rec = {"op": case["op"], "path": case["path"], "data": case["data"]}
        try:
            if case["op"] == "read":
                result = utils.jsonpath_parse(data, case["path"])
            else:
                value = yaml.safe_load(case["value"])
                rec["value"] = case["value"]
                result = utils.jsonpath_replace(data, value, case["path"], src_deepcopy=True)
            rec["expect"] = yaml.safe_dump(result, default_flow_style=True, sort_keys=False)
        except RecursionError:
            rec["error"] = "RecursionError"
        except Exception as exc:  # noqa: BLE001 - every exception is an outcome
            rec["error"] = type(exc).__name__
        out.write(json.dumps(rec) + "\n")
        out.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=False, default="-")
    ap.add_argument("--depth", type=int, default=4, help="deepest nesting of the random data (default 4)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker()
    MAX_DEPTH[0] = a.depth
    venv, src = os.environ.get("ORACLE_VENV_DIR"), os.environ.get("DECKHAND_SRC")
    if not venv or not src:
        sys.exit("diff-jsonpath: set ORACLE_VENV_DIR and DECKHAND_SRC (see /work/shared/oracles/README.md)")
    py = os.path.join(venv, "deckhand", "bin", "python")
    proc = subprocess.Popen([py, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    sys.path.insert(0, HERE)
    from yamltext import Emitter
    out = sys.stdout if a.out == "-" else open(a.out, "w")
    counts = {}
    for case in gen_cases(a.cases, a.seed):
        rng = random.Random(case["k"])
        em = Emitter(rng, anchors=0.0, comments=0.0, datetimes=("%Y-%m-%d %H:%M:%S",))
        req = {"op": case["op"], "path": case["path"], "data": em.document(case["data"])}
        if "value" in case:
            req["value"] = em.document(case["value"])
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        rec = json.loads(proc.stdout.readline())
        kind = rec.get("error", "ok" if rec.get("expect", "").strip() not in ("null\n...", "null") else "ok (None)")
        counts[(case["op"], kind)] = counts.get((case["op"], kind), 0) + 1
        out.write(json.dumps(rec) + "\n")
    proc.stdin.close()
    proc.wait()
    if out is not sys.stdout:
        out.close()
    for (op, kind), c in sorted(counts.items()):
        print(f"  {c:6d} {op:5s} {kind}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
