#!/usr/bin/python3
"""Differential test: random Heat environment files merged by strata and by Heat itself.

Needs Debian's python3-heat (apt-get install python3-heat; Heat 19.0.0, whose
environment_util.merge_environments matches the reference snapshot) and a built strata:

    cargo build --release
    /usr/bin/python3 scripts/diff-heat.py --cases 2000 --seed 1

Each case: a template with random parameter types, 2-4 environment files with random
parameter_defaults / parameters, parameter_merge_strategies (default and per parameter,
including unknown names) and resource_registry entries. Heat's merge_environments() runs on a
full request base (all five sections); strata runs `strata heat --template T -e ... --output
json`. Results must be equal as typed JSON; where Heat raises, strata must exit 1.

With `--same-as OLD_STRATA`, every case is also run by an earlier strata binary, plain (YAML)
and with `--explain` in YAML and JSON, and the two binaries must print the same bytes (stdout,
stderr, exit code): the check that a refactoring changed nothing a user can see.
"""
import argparse, json, logging, os, random, subprocess, sys, tempfile

logging.disable(logging.CRITICAL)
import yaml
from heat.common import environment_util
from heat.engine import parameters

TYPES = ["String", "Number", "CommaDelimitedList", "Json", "Boolean"]
STRATEGIES = ["overwrite", "merge", "deep_merge", "overwrite", "bogus"]


def json_value(rng, depth):
    roll = rng.random()
    if depth < 2 and roll < 0.3:
        return {rng.choice("abc"): json_value(rng, depth + 1) for _ in range(rng.randint(1, 3))}
    if depth < 2 and roll < 0.45:
        return [rng.choice(["x", "y"]) for _ in range(rng.randint(1, 2))]
    if roll < 0.7:
        return rng.choice(["s", "t", "uv"])
    if roll < 0.85:
        return rng.randint(0, 9)
    return rng.choice([True, None])


def value(rng, ptype, list_as_string):
    if ptype == "String":
        return rng.choice(["a", "b", "cd", ""])
    if ptype == "Number":
        return rng.randint(0, 20)
    if ptype == "CommaDelimitedList":
        items = [rng.choice(["x", "y", "z"]) for _ in range(rng.randint(1, 3))]
        return ",".join(items) if list_as_string else items
    if ptype == "Json":
        return {rng.choice("abc"): json_value(rng, 1) for _ in range(rng.randint(1, 3))}
    return rng.choice([True, False])


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
        env[section] = {n: value(rng, types[n], list_as_string[n]) for n in rng.sample(names, rng.randint(1, len(names)))}
        if rng.random() < 0.3:
            env["resource_registry"] = {f"OS::X::{rng.choice('ABC')}": rng.choice(["a.yaml", "b.yaml", "OS::Heat::None"])}
        envs.append(env)
    return types, envs


def heat(types, envs):
    schemata = {n: parameters.Schema(t) for n, t in types.items()}
    files = {f"env-{i}.yaml": yaml.safe_dump(e) for i, e in enumerate(envs)}
    params = {"parameters": {}, "resource_registry": {}, "parameter_defaults": {}, "encrypted_param_names": [], "event_sinks": []}
    try:
        environment_util.merge_environments(list(files), files, params, schemata)
    except Exception as e:  # noqa: BLE001 - any Heat failure is compared as "error"
        return {"<error>": type(e).__name__}
    return json.loads(json.dumps(params))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strata", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "strata"))
    ap.add_argument("--same-as", help="an earlier strata binary whose output must be byte-identical")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.cases):
            types, envs = case(rng)
            want = heat(types, envs)
            tmpl = os.path.join(tmp, "t.yaml")
            with open(tmp + "/t.yaml", "w") as f:
                yaml.safe_dump({"heat_template_version": "2021-04-16", "parameters": {k: {"type": v} for k, v in types.items()}}, f)
            cmd = [args.strata, "heat", "--output", "json", "--template", tmpl]
            for i, e in enumerate(envs):
                path = os.path.join(tmp, f"env-{i}.yaml")
                with open(path, "w") as f:
                    yaml.safe_dump(e, f)
                cmd += ["-e", path]
            run = subprocess.run(cmd, capture_output=True, text=True)
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
                    print(f"case {n} differs\ntypes: {types}\n" + "\n---\n".join(yaml.safe_dump(e) for e in envs))
                    print(f"heat:   {json.dumps(want, sort_keys=True)}\nstrata: {json.dumps(got, sort_keys=True)}\n{run.stderr}\n")
    print(f"{args.cases - failures} passed, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
