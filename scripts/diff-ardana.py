#!/usr/bin/python3
"""Differential test: random Ardana input models read by strata and by the Ardana service.

Needs the oracle of ../shared/oracles/README.md (ardana-service 6800991 in ARDANA_SRC, its
venv under ORACLE_VENV_DIR) and a built strata:

    export ORACLE_VENV_DIR=/work/oracles/venvs ARDANA_SRC=/work/oracles/ardana-src
    python3 scripts/diff-ardana.py --cases 500 --seed 1 --strata target/debug/strata

Each case is a model directory: cloudConfig.yml, 1-8 files under data/ (some in
subdirectories), list sections keyed by name / id / region-name / node_name split over files,
dictionary sections, pass-through in 0-3 files (mapping and plain keys), empty lists, READMEs
of several names, files that are not model files, a cloudConfig.yml below the top, YAML 1.1
scalars (yes, on, 0755, 1:20, 0x1F, 1_000, ~). Some cases break one rule of the input-model
document (a dictionary in two files, a duplicate list key or pass-through key, an entry
without the key field, a file that does not parse): there strata must exit 1 naming the rule,
whatever the service does. Every other case: strata's JSON must equal `ardana.py read`'s, or
both must fail.

With `--write`, every case that reads is also edited at random (entries added to and removed
from lists, a field changed, a new section, a dictionary removed, a new pass-through key) and
written back by both, each on its own copy: `ardana.py write` and `strata ardana write`. The
per-file statuses (added / changed / deleted; unchanged files) must agree, and both directories
must read back to the same model. Known differences, normalised before comparing: the
service's random pass-through file name (`data/pass_through_*.yml`), and the files strata
keeps on purpose (a nested cloudConfig.yml the service deletes; a file holding only empty
lists).
"""
import argparse, copy, json, os, random, re, shutil, subprocess, sys, tempfile

SCALARS = ["yes", "no", "on", "off", "0755", "1:20", "0x1F", "1_000", "~", "3.5", "'quoted'",
           "plain text", "true", "2", "-7", "null", "Yes", "OFF"]
KEYED = {"servers": "id", "networks": "name", "disk-models": "name", "rings": "region-name",
         "nodes": "node_name", "groups": "name"}
DICTS = ["baremetal", "cloud-extra", "deployer", "firewall"]
CODES = ("DuplicateSection", "DuplicateListKey", "DuplicatePassThroughKey", "MissingKeyField",
         "SectionTypeClash", "invalid YAML", "InvalidModelFile")


def scalar(rng):
    return rng.choice(SCALARS)


def entry(rng, field, key, indent, with_name):
    pad = " " * indent
    lines = [f"{pad}- {field}: {key}"]
    if with_name:
        lines.append(f"{pad}  name: also-{key}")  # name beats the other key fields
    for _ in range(rng.randint(0, 3)):
        lines.append(f"{pad}  {rng.choice(['role', 'ip', 'mode', 'size'])}{rng.randint(0, 9)}: {scalar(rng)}")
    return lines


class Case:
    def __init__(self, rng):
        self.rng = rng
        self.files = {}        # relpath -> list of lines (or raw text)
        self.violates = None   # the rule a case breaks on purpose
        self.keys = {}         # section -> set of keys used
        self.dotted = set()    # pass-through keys used
        self.counts = {}       # section -> entries written

    def break_rule(self, rule):
        if self.violates is None:
            self.violates = rule

    def build(self):
        rng = self.rng
        self.files["cloudConfig.yml"] = ["product:", "  version: 2", "cloud:", f"  name: cloud{rng.randint(0, 99)}",
                                         f"  flag: {scalar(rng)}"]
        names = []
        for i in range(rng.randint(1, 8)):
            d = rng.choice(["data", "data", "data/a", "data/b/c", "data/a"])
            names.append(f"{d}/f{i}_{rng.choice(['x', 'Y', 'z'])}.yml")
        for n in names:
            self.files[n] = ["product:", "  version: 2"]
        dicts_used = {}
        for n in names:
            lines = self.files[n]
            for _ in range(rng.randint(1, 3)):
                roll = rng.random()
                if roll < 0.55:
                    section = rng.choice(list(KEYED))
                    field = KEYED[section]
                    if section in [l.rstrip(":") for l in lines]:
                        continue
                    if rng.random() < 0.05:
                        lines.append(f"{section}: []")
                        continue
                    lines.append(f"{section}:")
                    used = self.keys.setdefault(section, set())  # identities of plain lists
                    count = self.counts.get(section, 0)
                    with_name = field != "name" and rng.random() < 0.2
                    for _ in range(rng.randint(1, 3)):
                        if rng.random() < 0.01 and used and not with_name:
                            key = rng.choice(sorted(used))
                            self.break_rule("DuplicateListKey")
                        else:
                            key = f"{section[:3]}{count}"
                            count += 1
                        if not with_name:
                            used.add(key)
                        self.counts[section] = count
                        if rng.random() < 0.02 and len(lines) > 0 and lines[-1] != f"{section}:":
                            lines.append(f"  - other: {key}")
                            self.break_rule("MissingKeyField")
                            continue
                        lines.extend(entry(rng, field, key, 2, with_name))
                elif roll < 0.75:
                    section = rng.choice(DICTS)
                    if section in [l.rstrip(":") for l in lines]:
                        continue
                    if section in dicts_used:
                        if rng.random() < 0.7:
                            continue
                        self.break_rule("DuplicateSection")
                    dicts_used[section] = n
                    lines.append(f"{section}:")
                    for j in range(rng.randint(1, 3)):
                        lines.append(f"  k{j}: {scalar(rng)}")
                else:
                    if "pass-through:" in lines:
                        continue
                    lines.append("pass-through:")
                    tops = set()
                    for _ in range(rng.randint(1, 3)):
                        top = rng.choice(["global", "extra", "solo"])
                        if top in tops:
                            continue
                        tops.add(top)
                        if rng.random() < 0.6:
                            lines.append(f"  {top}:")
                            children = set()
                            for _ in range(rng.randint(0, 2)):
                                child = f"c{rng.randint(0, 200)}"
                                if child in children:
                                    continue
                                children.add(child)
                                if f"{top}.{child}" in self.dotted:
                                    self.break_rule("DuplicatePassThroughKey")
                                self.dotted.add(f"{top}.{child}")
                                lines.append(f"    {child}: {scalar(rng)}")
                            if lines[-1] == f"  {top}:":
                                lines[-1] = f"  {top}: {{}}"
                        else:
                            plain = f"{top}x{rng.randint(0, 200)}"
                            if plain in self.dotted:
                                self.break_rule("DuplicatePassThroughKey")
                            self.dotted.add(plain)
                            lines.append(f"  {plain}: {scalar(rng)}")
        if rng.random() < 0.03:
            victim = rng.choice(names)
            self.files[victim] = self.files[victim] + ["bad:", "  - a", " - b"]
            self.break_rule("invalid YAML")
        extras = {"README.md": "# model\r\nline two\n", "data/README": "plain readme\n",
                  "data/a/READMEFIRST.txt": "first\n", "notes.txt": "ignored\n",
                  "data/x.yaml": "servers: [{id: nope}]\n", "data/b/cloudConfig.yml": "product: {version: 9}\n"}
        for k, v in extras.items():
            if rng.random() < 0.4:
                self.files[k] = v

    def write(self, root):
        for rel, content in self.files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            text = content if isinstance(content, str) else "\n".join(content) + "\n"
            with open(path, "w", newline="") as f:
                f.write(text)


def edit(rng, model):
    """Random edits of a combined model, as a user of the service would make them."""
    m = copy.deepcopy(model)
    im = m["inputModel"]
    fsm = m["fileInfo"]["fileSectionMap"]
    fields = {}
    for entries in fsm.values():
        for e in entries:
            if isinstance(e, dict) and e.get("type") == "array":
                name = [k for k in e if k not in ("type", "keyField")][0]
                fields.setdefault(name, e["keyField"])
    lists = [k for k, v in im.items() if isinstance(v, list) and k in fields]
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        if lists and roll < 0.35:
            sec = rng.choice(lists)
            im[sec].append({fields[sec]: f"new{rng.randint(0, 999)}", "note": "added"})
        elif lists and roll < 0.5:
            sec = rng.choice(lists)
            if im[sec]:
                im[sec].pop(rng.randrange(len(im[sec])))
        elif lists and roll < 0.65:
            sec = rng.choice(lists)
            if im[sec]:
                im[sec][0]["changed"] = rng.randint(0, 9)
        elif roll < 0.75:
            im[f"new-section-{rng.randint(0, 9)}"] = {"k": rng.randint(0, 9)}
        elif roll < 0.85:
            dicts = [k for k, v in im.items() if isinstance(v, dict) and k not in ("product", "pass-through", "cloud")]
            if dicts:
                del im[rng.choice(dicts)]
        else:
            pt = im.setdefault("pass-through", {})
            if isinstance(pt, dict):
                g = pt.setdefault("global", {})
                if isinstance(g, dict):
                    g[f"added{rng.randint(0, 99)}"] = "v"
    return m


PT = re.compile(r"^data/pass_through_[0-9a-f ]+\.yml$")


def statuses_service(text):
    return {("data/pass_through_*.yml" if PT.match(k) else k): v for k, v in json.loads(text).items() if v != "ignored"}


def statuses_strata(text):
    out = {}
    for line in text.splitlines():
        verb, _, rel = line.partition(" ")
        if verb in ("added", "changed", "deleted"):
            out["data/pass_through_*.yml" if PT.match(rel) else rel] = verb
    return out


def write_case(a, py, rng, root, strata_json):
    """Edits the model, writes it with both, compares; returns a problem or None."""
    model = edit(rng, json.loads(strata_json))
    work = root + ".w"
    os.makedirs(work)
    jf = os.path.join(work, "model.json")
    with open(jf, "w") as f:
        json.dump(model, f)
    sdir, odir = os.path.join(work, "strata"), os.path.join(work, "service")
    shutil.copytree(root, sdir)
    shutil.copytree(root, odir)
    o = subprocess.run([py, a.oracle, "write", jf, odir, "--seed", "1"], capture_output=True, text=True,
                       cwd=os.path.dirname(a.oracle))
    s = subprocess.run([os.path.abspath(a.strata), "ardana", "write", jf, sdir], capture_output=True, text=True)
    if o.returncode != 0:
        return None if s.returncode != 0 else f"write: the service fails ({o.stdout[:300]}{o.stderr[-300:]}), strata does not"
    if s.returncode != 0:
        return f"write: strata exit {s.returncode}: {s.stderr[:600]}"
    want, got = statuses_service(o.stdout), statuses_strata(s.stdout)
    for rel, st in list(want.items()):
        # Files strata keeps on purpose: a nested cloudConfig.yml, one holding only empty lists.
        if st == "deleted" and rel not in got:
            path = os.path.join(root, rel)
            text = open(path).read() if os.path.exists(path) else ""
            if rel.endswith("/cloudConfig.yml") or not re.search(r"^(?!product)[^\s#][^:]*:\s*(?!\[\])\S", text, re.M):
                del want[rel]
    if want != got:
        return f"write statuses differ\nservice: {sorted(want.items())}\nstrata:  {sorted(got.items())}"
    rs = subprocess.run([os.path.abspath(a.strata), "ardana", "read", sdir], capture_output=True, text=True)
    ro = subprocess.run([os.path.abspath(a.strata), "ardana", "read", odir], capture_output=True, text=True)
    if rs.returncode != 0 or ro.returncode != 0:
        return f"write: reading back failed: strata's {rs.returncode} {rs.stderr[:300]} / service's {ro.returncode} {ro.stderr[:300]}"
    if json.loads(rs.stdout)["inputModel"] != json.loads(ro.stdout)["inputModel"]:
        return "write: the two directories read back to different models"
    shutil.rmtree(work)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strata", default="target/release/strata")
    ap.add_argument("--oracle", default="/work/shared/oracles/ardana.py")
    ap.add_argument("--write", action="store_true", help="also edit each model and write it back with both")
    a = ap.parse_args()
    py = os.path.join(os.environ.get("ORACLE_VENV_DIR", "/work/oracles/venvs"), "ardana", "bin", "python")
    rng = random.Random(a.seed)
    failures, broken, both_fail, written = 0, 0, 0, 0
    tmp = tempfile.mkdtemp()
    for n in range(a.cases):
        case = Case(rng)
        case.build()
        root = os.path.join(tmp, f"m{n}")
        case.write(root)
        s = subprocess.run([os.path.abspath(a.strata), "ardana", "read", root], capture_output=True, text=True)
        problem = None
        if case.violates:
            broken += 1
            if s.returncode != 1 or not any(c in s.stderr for c in CODES):
                problem = f"breaks {case.violates}: strata exit {s.returncode}\n{s.stderr[:800]}"
        else:
            o = subprocess.run([py, a.oracle, "read", root], capture_output=True, text=True,
                               cwd=os.path.dirname(a.oracle))
            if o.returncode != 0:
                both_fail += 1
                if s.returncode != 1:
                    problem = f"the service fails ({o.stdout[:300]}), strata exit {s.returncode}"
            elif s.returncode != 0:
                problem = f"strata exit {s.returncode}:\n{s.stderr[:800]}"
            elif json.loads(s.stdout) != json.loads(o.stdout):
                want, got = json.loads(o.stdout), json.loads(s.stdout)
                diff = [k for k in want if want.get(k) != got.get(k)]
                problem = f"differs in {diff}\nservice: {json.dumps(want)[:600]}\nstrata:  {json.dumps(got)[:600]}"
            elif a.write:
                written += 1
                problem = write_case(a, py, rng, root, s.stdout)
        if problem:
            failures += 1
            if failures <= 5:
                print(f"case {n} ({root}): {problem}\n")
        else:
            shutil.rmtree(root)
    print(f"{a.cases - failures} passed, {failures} failed ({broken} break a rule on purpose, "
          f"{both_fail} rejected by both, {written} edited and written back by both; seed {a.seed})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
