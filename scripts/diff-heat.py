#!/usr/bin/python3
"""Differential test: random Heat environment files merged by strata and by Heat itself.

Needs Debian's python3-heat (apt-get install python3-heat; Heat 19.0.0, whose
environment_util.merge_environments matches the reference snapshot) and a built strata:

    cargo build --release
    /usr/bin/python3 scripts/diff-heat.py --cases 2000 --seed 1

Each case: a template with random parameter types, 2-4 environment files with random
parameter_defaults / parameters, parameter_merge_strategies (default and per parameter,
including unknown names) and resource_registry entries. Every file is written as text by
scripts/yamltext.py (block and flow style, comments, literal and folded block scalars, anchors,
aliases and `<<` merge keys of repeated mappings, YAML 1.1 scalars left unquoted: `yes`, `on`,
`off`, `0755`, `1:30`, `1:30.0`, `0x1F`, `1_000`, `~`, `.5`, `-0.5`, dates and datetimes in
several spellings, which Heat's loader keeps as the text written; strings that only look like
numbers unquoted: `-.5`, `1e5`, `08`), with values of the wrong type for their parameter now
and then; each text is read back with PyYAML and must give the value generated (else:
GENERATOR BUG). Heat's merge_environments() runs on a full request base (all five sections)
with the texts as the files' contents; strata runs `strata heat --template T -e ... --output
json`. Results must be equal as typed JSON; where Heat raises, strata must exit 1.

Known deviation (docs/frontends/heat.md): a YAML alias is its anchor's object for Heat, whose
`merge` extends a list and updates a mapping in place, so a later file's merge into one shows at
both places; strata's alias is a copy. A case with aliases is therefore also merged by Heat
with every alias copied, and when that changes the result, strata is compared with the copies'
merge (counted in the summary).
`--features` prints how many cases had each YAML construct.

With `--same-as OLD_STRATA`, every case is also run by an earlier strata binary, plain (YAML)
and with `--explain` in YAML and JSON, and the two binaries must print the same bytes (stdout,
stderr, exit code): the check that a refactoring changed nothing a user can see.
"""
import argparse, copy, datetime, json, logging, os, random, subprocess, sys, tempfile

logging.disable(logging.CRITICAL)
import yaml
from heat.common import environment_format as env_fmt, environment_util
from heat.engine import parameters

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from yamltext import Emitter, reads_back, TRICKY_STRINGS  # noqa: E402

TYPES = ["String", "Number", "CommaDelimitedList", "Json", "Boolean"]
STRATEGIES = ["overwrite", "merge", "deep_merge", "overwrite", "bogus"]
# Strings a YAML 1.1 reader takes for other types: the writer quotes them.
LOOKALIKES = ["yes", "on", "off", "0755", "1:30", "2025-06-01", "~", "null", "1_000", ".5", "true", "<<"]
TEXTS = ["line one\nline two\n", "a b c", "keep\n\n", "no newline\nat end", "x: y", "a,b"]


def date(rng):
    if rng.random() < 0.3:
        return datetime.datetime(2025, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))
    return datetime.date(2025, rng.randint(1, 12), rng.randint(1, 28))


def odd(rng):
    """A value of YAML 1.1's other types, or a string that only looks like one."""
    r = rng.random()
    if r < 0.15:
        return rng.choice([True, False])
    if r < 0.35:
        return rng.choice([90, 493, 5400, 1000, 31, -8])
    if r < 0.45:
        return rng.choice([0.5, -0.5, 1000.0, 90.0])
    if r < 0.6:
        return date(rng)
    if r < 0.7:
        return None
    if r < 0.8:
        return rng.choice(LOOKALIKES)
    if r < 0.9:
        return rng.choice(TRICKY_STRINGS)
    return rng.choice(TEXTS)


def json_value(rng, depth):
    roll = rng.random()
    if depth < 2 and roll < 0.3:
        return {rng.choice("abc"): json_value(rng, depth + 1) for _ in range(rng.randint(1, 3))}
    if depth < 2 and roll < 0.45:
        return [rng.choice(["x", "y"]) if rng.random() < 0.8 else odd(rng) for _ in range(rng.randint(1, 2))]
    if roll < 0.6:
        return rng.choice(["s", "t", "uv"])
    if roll < 0.7:
        return rng.randint(0, 9)
    if roll < 0.8:
        return rng.choice([True, None])
    return odd(rng)


def value(rng, ptype, list_as_string):
    if rng.random() < 0.1:
        return odd(rng)
    if ptype == "String":
        return rng.choice(["a", "b", "cd", ""]) if rng.random() < 0.7 else odd(rng)
    if ptype == "Number":
        return rng.randint(0, 20) if rng.random() < 0.7 else rng.choice([90, 493, 5400, 0.5, -0.5, 1000.0, "1e3", "-.5", "0755"])
    if ptype == "CommaDelimitedList":
        items = [rng.choice(["x", "y", "z"]) if rng.random() < 0.85 else odd(rng) for _ in range(rng.randint(1, 3))]
        if list_as_string:
            return ",".join(x if isinstance(x, str) else "x" for x in items)
        return items
    if ptype == "Json":
        return {rng.choice("abc"): json_value(rng, 1) for _ in range(rng.randint(1, 3))}
    return rng.choice([True, False]) if rng.random() < 0.85 else rng.choice(["yes", "true", "off", "0"])


def case(rng):
    names = [f"P{i}" for i in range(rng.randint(2, 5))]
    types = {n: rng.choice(TYPES) for n in names}
    list_as_string = {n: rng.random() < 0.15 for n in names}
    # One strategy plan per case (files that disagree make Heat raise: keep that rare).
    plan = {n: rng.choice(STRATEGIES) for n in names}
    default = rng.choice(STRATEGIES)
    envs = []
    for _ in range(rng.randint(2, 4)):
        env = {}
        if rng.random() < 0.7:
            strategies = {}
            if rng.random() < 0.6:
                strategies["default"] = default if rng.random() < 0.9 else rng.choice(STRATEGIES)
            for n in rng.sample(names, rng.randint(0, len(names))):
                strategies[n] = plan[n] if rng.random() < 0.9 else rng.choice(STRATEGIES)
            env["parameter_merge_strategies"] = strategies
        section = rng.choice(["parameter_defaults", "parameter_defaults", "parameters"])
        values = {}
        for n in rng.sample(names, rng.randint(1, len(names))):
            same = [m for m in values if types[m] == types[n] and isinstance(values[m], (dict, list)) and values[m]]
            if same and rng.random() < 0.4:
                # A repeated value (an alias), or a mapping extended (a `<<` merge key).
                v = copy.deepcopy(values[rng.choice(same)])
                if isinstance(v, dict) and rng.random() < 0.5:
                    v["z"] = json_value(rng, 2)
                values[n] = v
            else:
                values[n] = value(rng, types[n], list_as_string[n])
        env[section] = values
        if rng.random() < 0.3:
            env["resource_registry"] = {f"OS::X::{rng.choice('ABC')}": rng.choice(["a.yaml", "b.yaml", "OS::Heat::None"])}
        envs.append(env)
    return types, envs


PARSE = env_fmt.parse


def parse_copies(text):
    """Heat's parse with every YAML alias made a copy of its anchor's value (JSON round trip:
    Heat's loader builds only JSON types, timestamps being strings)."""
    return json.loads(json.dumps(PARSE(text)))


def heat(types, texts, copies=False):
    """Heat's merge of the texts; with copies, as if every alias were a copy (what strata does:
    Heat's merge extends a list or updates a mapping in place, and an alias is its anchor's
    object, so the change shows at both places)."""
    schemata = {n: parameters.Schema(t) for n, t in types.items()}
    files = {f"env-{i}.yaml": t for i, t in enumerate(texts)}
    params = {"parameters": {}, "resource_registry": {}, "parameter_defaults": {}, "encrypted_param_names": [], "event_sinks": []}
    env_fmt.parse = parse_copies if copies else PARSE
    try:
        environment_util.merge_environments(list(files), files, params, schemata)
    except Exception as e:  # noqa: BLE001 - any Heat failure is compared as "error"
        return {"<error>": type(e).__name__}
    finally:
        env_fmt.parse = PARSE
    return json.loads(json.dumps(params))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strata", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "strata"))
    ap.add_argument("--same-as", help="an earlier strata binary whose output must be byte-identical")
    ap.add_argument("--features", action="store_true", help="print how many cases had each YAML construct")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    failures = bugs = aliased = errors = 0
    features = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.cases):
            types, envs = case(rng)
            seen = set()
            emitter = Emitter(rng, seen, anchors=rng.choice([0.0, 0.3, 0.6]))
            template = {"heat_template_version": "2021-04-16", "parameters": {k: {"type": v} for k, v in types.items()}}
            docs = [template] + envs
            texts = [emitter.document(d) for d in docs]
            for f in seen:
                features[f] = features.get(f, 0) + 1
            wrong = [(t, w) for t, d in zip(texts, docs) for w in [reads_back(t, d)] if w is not None]
            if wrong:
                bugs += 1
                print(f"case {n}: GENERATOR BUG: PyYAML reads the text differently from what was generated:\n{wrong[0][0]}\nread: {wrong[0][1]}\n")
                continue
            want = heat(types, texts[1:])
            if any(text.count("*a") for text in texts[1:]):
                copied = heat(types, texts[1:], copies=True)
                if copied != want:
                    aliased += 1
                    want = copied
            tmpl = os.path.join(tmp, "t.yaml")
            with open(tmpl, "w") as f:
                f.write(texts[0])
            cmd = [args.strata, "heat", "--output", "json", "--template", tmpl]
            for i, text in enumerate(texts[1:]):
                path = os.path.join(tmp, f"env-{i}.yaml")
                with open(path, "w") as f:
                    f.write(text)
                cmd += ["-e", path]
            run = subprocess.run(cmd, capture_output=True, text=True)
            errors += "<error>" in want
            if args.same_as:
                for extra in ([], ["--explain"], ["--explain", "--output", "json"]):
                    new = subprocess.run(cmd[:1] + ["heat"] + extra + cmd[4:], capture_output=True)
                    old = subprocess.run([args.same_as, "heat"] + extra + cmd[4:], capture_output=True)
                    if (new.returncode, new.stdout, new.stderr) != (old.returncode, old.stdout, old.stderr):
                        failures += 1
                        if failures <= 5:
                            print(f"case {n}: output differs from {args.same_as} with {extra}\n--- old\n{old.stdout.decode()}{old.stderr.decode()}\n--- new\n{new.stdout.decode()}{new.stderr.decode()}")
            if run.returncode == 0:
                got = json.loads(run.stdout)
            else:
                got = {"<error>": want.get("<error>", "?")} if run.returncode == 1 else {"<exit>": run.returncode}
            if json.dumps(got, sort_keys=True) != json.dumps(want, sort_keys=True):
                failures += 1
                if failures <= 5:
                    print(f"case {n} differs\ntypes: {types}\n" + "\n---\n".join(texts[1:]))
                    print(f"heat:   {json.dumps(want, sort_keys=True)}\nstrata: {json.dumps(got, sort_keys=True)}\n{run.stderr}\n")
    if args.features:
        for f, c in sorted(features.items()):
            print(f"  {c:6d}  {f}")
    print(f"{args.cases - failures - bugs} passed, {failures} failed" + (f", {bugs} GENERATOR BUGS" if bugs else "")
          + f" ({errors} where Heat raises; {aliased} cases with YAML aliases that Heat renders differently when an alias is its anchor's object:"
          " compared with the copies' render, what strata does)")
    sys.exit(1 if failures or bugs else 0)


if __name__ == "__main__":
    main()
