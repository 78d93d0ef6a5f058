#!/usr/bin/python3
"""Differential test: random Ardana input models read by strata and by the Ardana service.

Needs the oracle of ../shared/oracles/README.md (ardana-service 6800991 in ARDANA_SRC, its
venv under ORACLE_VENV_DIR) and a built strata:

    export ORACLE_VENV_DIR=/work/oracles/venvs ARDANA_SRC=/work/oracles/ardana-src
    python3 scripts/diff-ardana.py --cases 500 --seed 1 --strata target/debug/strata

Each case is a model directory: cloudConfig.yml, 1-8 files under data/ (some in
subdirectories), list sections keyed by name / id / region-name / node_name split over files,
dictionary sections, pass-through in 0-3 files (mapping and plain keys), empty lists, READMEs
of several names, files that are not model files, a cloudConfig.yml below the top. Every file
is written as text by scripts/yamltext.py (block and flow style, comments, `---` and `...`,
indents of 2-4, literal and folded block scalars, anchors, aliases and `<<` merge keys of
shared entry fields, YAML 1.1 scalars left unquoted: `yes`, `on`, `0755`, `1:30`, `0x1F`,
`1_000`, `~`, `.5`, dates and datetimes in several spellings, and strings that only look like
numbers: `-.5`, `1e5`, `08`); each text is read back with PyYAML under the oracle's python and
must give the value generated (else: GENERATOR BUG). Some cases have a cloudConfig.yml that
Python takes for false (0 bytes, a comment, `{}`, `[]`, `~`, `0`, `''`, `false`: the service's
empty model), symbolic links to directories inside and outside the model (not followed), to a
model file inside (its entries twice) and outside (read), to nothing, or an empty model file.
Some cases break one rule of the input-model document (a dictionary in two files, a duplicate
list key or pass-through key, an entry without the key field, a file that does not parse, a
link repeating a model file): there strata must exit 1 naming the rule, whatever the service
does. Every other case: strata's JSON must equal `ardana.py read`'s, or both must fail.
`--features` prints how many cases had each construct.

With `--write`, every case that reads is also edited at random (entries added to and removed
from lists, a field changed, a new section, a dictionary removed, a new pass-through key) and
written back by both, each on its own copy: `ardana.py write` and `strata ardana write`. The
per-file statuses (added / changed / deleted; unchanged files) must agree, and both directories
must read back to the same model, with the same symbolic links (a model file that is a link
is written through by both). A model file that is a link to a file outside the model folder
is written through by the service and refused by strata (exit 1, "outside the model
directory": input never steers where strata writes, docs/frontends/ardana.md); counted apart. Known differences, normalised before comparing: the service's
random pass-through file name (`data/pass_through_*.yml`), and the files strata keeps on
purpose (a nested cloudConfig.yml the service deletes; a file holding only `product` and
empty lists).
"""
import argparse, copy, datetime, json, os, random, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from yamltext import Emitter, canon, FLOAT_TEXTS, TRICKY_STRINGS  # noqa: E402

KEYED = {"servers": "id", "networks": "name", "disk-models": "name", "rings": "region-name",
         "nodes": "node_name", "groups": "name"}
DICTS = ["baremetal", "cloud-extra", "deployer", "firewall"]
CODES = ("DuplicateSection", "DuplicateListKey", "DuplicatePassThroughKey", "MissingKeyField",
         "SectionTypeClash", "invalid YAML", "InvalidModelFile")
FIELDS = ["role", "ip", "mode", "size", "mtu", "enabled", "when", "note", "vlan", "opts"]
# cloudConfig.yml texts Python takes for false: the service's empty model, nothing else read
FALSY_CONFIGS = ["", "# not configured yet\n", "{}\n", "[]\n", "~\n", "0\n", "''\n", "false\n", "---\n...\n"]


def scalar(rng):
    r = rng.random()
    if r < 0.3:
        return rng.choice([0, 1, 2, 7, 42, 90, 493, 1000, -3, 8080, 65535])
    if r < 0.42:
        return rng.random() < 0.5
    if r < 0.48:
        return None
    if r < 0.56:
        return rng.choice(list(FLOAT_TEXTS))
    if r < 0.62:
        return datetime.date(2024, rng.randint(1, 12), rng.randint(1, 28))
    if r < 0.65:
        return datetime.datetime(2024, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59))
    return rng.choice(TRICKY_STRINGS + ["plain text", "10.0.0.1", "eth0", "yes", "0755", "1:20", "it's", "multi\nline\n",
                                         "a b c d e", "x: y", "# not a comment", "tab\there"])


MADE = []  # containers of the current case (some come again: the writer may alias them)


def value(rng, depth):
    r = rng.random()
    if MADE and r < 0.04:
        return copy.deepcopy(rng.choice(MADE[-6:]))
    if depth < 2 and r < 0.15:
        v = {f"{rng.choice(FIELDS)}{i}": value(rng, depth + 1) for i in range(rng.randint(1, 3))}
    elif depth < 2 and r < 0.25:
        v = [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    else:
        return scalar(rng)
    if v:
        MADE.append(v)
    return v


class Case:
    def __init__(self, rng):
        self.rng = rng
        MADE.clear()
        self.files = {}        # relpath -> ("doc", value) | ("raw", text) | ("link", target)
        self.outside = {}      # relpath under the outside folder -> ("doc", value)
        self.violates = None   # the rule a case breaks on purpose
        self.keys = {}         # section -> set of keys used
        self.dotted = set()    # pass-through keys used
        self.counts = {}       # section -> entries written
        self.features = set()
        self.intended = {}     # relpath -> the value its text must read back as

    def break_rule(self, rule):
        if self.violates is None:
            self.violates = rule

    def entries(self, section, n, with_name, base=None):
        rng = self.rng
        field = KEYED[section]
        used = self.keys.setdefault(section, set())
        out = []
        for _ in range(n):
            if rng.random() < 0.01 and used and not with_name:
                key = rng.choice(sorted(used))
                self.break_rule("DuplicateListKey")
            else:
                key = f"{section[:3]}{self.counts.get(section, 0)}"
                self.counts[section] = self.counts.get(section, 0) + 1
            if not with_name:
                used.add(key)
            e = {field: key}
            if with_name:
                e["name"] = f"also-{key}"  # name beats the other key fields
            if base is not None and rng.random() < 0.3:
                e = dict(list(base.items()) + list(e.items()))  # shared fields: `<<: *anchor`
                self.features.add("entry-extends-another")
            for _ in range(rng.randint(0, 3)):
                e[rng.choice(FIELDS) + str(rng.randint(0, 9))] = value(rng, 1)
            out.append(e)
        if out and rng.random() < 0.02 and len(out) > 1:
            del out[-1][field]
            out[-1].pop("name", None)
            out[-1]["other"] = "x"
            self.break_rule("MissingKeyField")
        return out

    def model_file(self, n_sections, dicts_used, name):
        rng = self.rng
        doc = {"product": {"version": 2}}
        base = None
        if rng.random() < 0.2:
            # fields entries share, in a section of their own before them (`<<: *anchor`)
            base = {f: value(rng, 2) for f in rng.sample(FIELDS, 2)}
            self.counts["defaults"] = self.counts.get("defaults", 0) + 1
            doc["defaults-%d" % self.counts["defaults"]] = base
        for _ in range(n_sections):
            roll = rng.random()
            if roll < 0.55:
                section = rng.choice(list(KEYED))
                if section in doc:
                    continue
                if rng.random() < 0.05:
                    doc[section] = []
                    continue
                with_name = KEYED[section] != "name" and rng.random() < 0.2
                doc[section] = self.entries(section, rng.randint(1, 3), with_name, base)
            elif roll < 0.75:
                section = rng.choice(DICTS)
                if section in doc:
                    continue
                if section in dicts_used:
                    if rng.random() < 0.7:
                        continue
                    self.break_rule("DuplicateSection")
                dicts_used[section] = name
                doc[section] = {f"k{j}": value(rng, 1) for j in range(rng.randint(1, 3))}
            else:
                if "pass-through" in doc:
                    continue
                pt = {}
                for top in rng.sample(["global", "extra", "solo"], rng.randint(1, 3)):
                    if rng.random() < 0.6:
                        children = {}
                        for _ in range(rng.randint(0, 2)):
                            child = f"c{rng.randint(0, 200)}"
                            if child in children:
                                continue
                            if f"{top}.{child}" in self.dotted:
                                self.break_rule("DuplicatePassThroughKey")
                            self.dotted.add(f"{top}.{child}")
                            children[child] = value(rng, 1)
                        pt[top] = children
                    else:
                        plain = f"{top}x{rng.randint(0, 200)}"
                        if plain in self.dotted:
                            self.break_rule("DuplicatePassThroughKey")
                        self.dotted.add(plain)
                        pt[plain] = value(rng, 1)
                doc["pass-through"] = pt
        return doc

    def build(self):
        rng = self.rng
        if rng.random() < 0.04:
            self.files["cloudConfig.yml"] = ("raw", rng.choice(FALSY_CONFIGS))
            self.features.add("cloudconfig-falsy")
        else:
            cloud = {"name": f"cloud{rng.randint(0, 99)}", "flag": scalar(rng)}
            if rng.random() < 0.3:
                cloud["ntp-servers"] = [scalar(rng) for _ in range(rng.randint(1, 3))]
            self.files["cloudConfig.yml"] = ("doc", {"product": {"version": 2}, "cloud": cloud})
        names = []
        for i in range(rng.randint(1, 8)):
            d = rng.choice(["data", "data", "data/a", "data/b/c", "data/a"])
            names.append(f"{d}/f{i}_{rng.choice(['x', 'Y', 'z'])}.yml")
        dicts_used = {}
        for n in names:
            self.files[n] = ("doc", self.model_file(rng.randint(1, 3), dicts_used, n))
        if rng.random() < 0.03:
            victim = rng.choice(names)
            self.files[victim] = ("raw", "product:\n  version: 2\nbad:\n  - a\n - b\n")
            self.break_rule("invalid YAML")
        self.links(names, dicts_used)
        extras = {"README.md": "# model\r\nline two\n", "data/README": "plain readme\n",
                  "data/a/READMEFIRST.txt": "first\n", "notes.txt": "ignored\n",
                  "data/x.yaml": "servers: [{id: nope}]\n", "data/b/cloudConfig.yml": "product: {version: 9}\n"}
        for k, v in extras.items():
            if rng.random() < 0.4:
                self.files[k] = ("raw", v)
        if self.files["cloudConfig.yml"][0] == "raw":
            self.violates = None  # the service reads no other file, nor does strata

    def links(self, names, dicts_used):
        """Symbolic links: to directories inside and outside the model (the service's walk does
        not go into them), to files inside (their sections twice: strata refuses) and outside
        (read like a file), to nothing (the service crashes); and empty model files."""
        rng = self.rng
        r = rng.random()
        dirs = sorted({n.rsplit("/", 1)[0] for n in names})
        if r < 0.06:
            target = rng.choice(dirs)
            link = rng.choice(["data/alias", "data-alias", "data/a/up"])
            rel = os.path.relpath(target, os.path.dirname(link) or ".")
            if link not in self.files and not any(n.startswith(link + "/") for n in names):
                self.files[link] = ("link", rel)
                self.features.add("link-to-directory-inside")
        elif r < 0.11:
            # never read (the link is not followed): whatever rule it breaks does not count
            violates = self.violates
            out = self.model_file(rng.randint(1, 2), dict(dicts_used), "outside")
            self.violates = violates
            self.outside["shared/more.yml"] = ("doc", out)
            self.files["data/shared"] = ("link", "../../outside/shared")
            self.features.add("link-to-directory-outside")
        elif r < 0.15:
            out = self.model_file(rng.randint(1, 2), dicts_used, "outside-file")
            self.outside["extra.yml"] = ("doc", out)
            self.files["data/linked.yml"] = ("link", "../../outside/extra.yml")
            self.features.add("link-to-file-outside")
        elif r < 0.17:
            target = rng.choice(names)
            if self.files[target][0] == "doc":
                doc = self.files[target][1]
                def counted(k, v):  # a section whose entries or keys the link repeats
                    if k == "pass-through":
                        return any(not isinstance(x, dict) or x for x in v.values())
                    return k != "product" and (not isinstance(v, list) or v)
                if any(counted(k, v) for k, v in doc.items()):
                    self.break_rule("duplicate via a link to a model file")
                self.files["data/again.yml"] = ("link", os.path.relpath(target, "data"))
                self.features.add("link-to-file-inside")
        elif r < 0.19 and not self.violates:
            self.files["data/gone.yml"] = ("link", "removed.yml")
            self.features.add("link-to-nothing")
        elif r < 0.21 and not self.violates:
            self.files[rng.choice(names)] = ("raw", rng.choice(["", "# only a comment\n"]))
            self.features.add("model-file-empty")

    def write(self, root, emitter):
        """Writes the model (and its outside folder); returns {relpath: text} of the YAML written."""
        texts = {}
        outside = os.path.join(os.path.dirname(root), "outside")
        for base, files in ((root, self.files), (outside, self.outside)):
            for rel, (kind, content) in files.items():
                path = os.path.join(base, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                if kind == "link":
                    os.symlink(content, path)
                    continue
                text = content if kind == "raw" else emitter.document(content)
                if kind == "doc":
                    texts[os.path.join(base, rel)] = (text, content)
                with open(path, "w", newline="") as f:
                    f.write(text)
        return texts


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


def kept_on_purpose(case, rel):
    """Files strata keeps where the service deletes them: a nested cloudConfig.yml (never read),
    a model file holding nothing but `product` and empty lists."""
    if rel.endswith("/cloudConfig.yml"):
        return True
    kind, content = case.files.get(rel, (None, None))
    if kind == "link":
        target = os.path.normpath(os.path.join(os.path.dirname(rel), content))
        kind, content = (case.outside.get(target[len("../outside/"):], (None, None)) if target.startswith("../outside/")
                         else case.files.get(target, (None, None)))
    if kind == "doc":
        return isinstance(content, dict) and all(k == "product" or v == [] for k, v in content.items())
    return kind == "raw" and not re.search(r"^(?!product)[^\s#][^:]*:\s*(?!\[\])\S", content, re.M)


def links_in(top):
    return sorted(os.path.relpath(os.path.join(d, n), top) for d, dirs, files in os.walk(top)
                  for n in dirs + files if os.path.islink(os.path.join(d, n)))


# Writes strata refused on purpose: a model file that is a link to a file outside the model.
REFUSED_OUTSIDE = [0]


def write_case(a, py, rng, case, root, strata_json):
    """Edits the model, writes it with both, compares; returns a problem or None."""
    read = json.loads(strata_json)
    if "inputModel" not in read:
        return None  # the empty model (a falsy cloudConfig.yml): nothing to edit
    model = edit(rng, read)
    # Each side gets a copy of the model and of the folder beside it (the target of its
    # links): the service writes a model file through its link into that folder.
    work = os.path.dirname(root)
    jf = os.path.join(work, "model.json")
    with open(jf, "w") as f:
        json.dump(model, f)
    sides = {}
    for side in ("strata", "service"):
        os.makedirs(os.path.join(work, side))
        shutil.copytree(root, os.path.join(work, side, "model"), symlinks=True)
        if os.path.isdir(os.path.join(work, "outside")):
            shutil.copytree(os.path.join(work, "outside"), os.path.join(work, side, "outside"), symlinks=True)
        sides[side] = os.path.join(work, side, "model")
    sdir, odir = sides["strata"], sides["service"]
    o = subprocess.run([py, a.oracle, "write", jf, odir, "--seed", "1"], capture_output=True, text=True,
                       cwd=os.path.dirname(a.oracle))
    s = subprocess.run([os.path.abspath(a.strata), "ardana", "write", jf, sdir], capture_output=True, text=True)
    if o.returncode != 0:
        return None if s.returncode != 0 else f"write: the service fails ({o.stdout[:300]}{o.stderr[-300:]}), strata does not"
    if s.returncode != 0:
        if s.returncode == 1 and "outside the model directory" in s.stderr:
            # Policy: input never steers where strata writes; the service writes through the link.
            REFUSED_OUTSIDE[0] += 1
            return None
        return f"write: strata exit {s.returncode}: {s.stderr[:600]}"
    want, got = statuses_service(o.stdout), statuses_strata(s.stdout)
    kept = set()
    for rel, st in list(want.items()):
        if st == "deleted" and rel not in got and kept_on_purpose(case, rel):
            del want[rel]
            kept.add("model/" + rel)
    if want != got:
        return f"write statuses differ\nservice: {sorted(want.items())}\nstrata:  {sorted(got.items())}"
    links_s = [l for l in links_in(os.path.dirname(sdir)) if l not in kept]
    if links_s != links_in(os.path.dirname(odir)):
        return f"write: links after: service {links_in(os.path.dirname(odir))}, strata {links_s}"
    rs = subprocess.run([os.path.abspath(a.strata), "ardana", "read", sdir], capture_output=True, text=True)
    ro = subprocess.run([os.path.abspath(a.strata), "ardana", "read", odir], capture_output=True, text=True)
    if rs.returncode != 0 or ro.returncode != 0:
        return f"write: reading back failed: strata's {rs.returncode} {rs.stderr[:300]} / service's {ro.returncode} {ro.stderr[:300]}"
    if json.loads(rs.stdout)["inputModel"] != json.loads(ro.stdout)["inputModel"]:
        return "write: the two directories read back to different models"
    return None


def worker():
    """Under the oracle's python: reads each text with yaml.safe_load (the generator's check)."""
    import yaml
    for line in sys.stdin:
        out = {}
        for path, text in json.loads(line).items():
            try:
                out[path] = canon(yaml.safe_load(text))
            except yaml.YAMLError as exc:
                out[path] = "error: " + str(exc)
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strata", default="target/release/strata")
    ap.add_argument("--oracle", default="/work/shared/oracles/ardana.py")
    ap.add_argument("--write", action="store_true", help="also edit each model and write it back with both")
    ap.add_argument("--features", action="store_true", help="print how many cases had each feature")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker()
    py = os.path.join(os.environ.get("ORACLE_VENV_DIR", "/work/oracles/venvs"), "ardana", "bin", "python")
    check = subprocess.Popen([py, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    rng = random.Random(a.seed)
    failures, broken, both_fail, written, bugs = 0, 0, 0, 0, 0
    features = {}
    tmp = tempfile.mkdtemp()
    for n in range(a.cases):
        case = Case(rng)
        case.build()
        root = os.path.join(tmp, f"m{n}", "model")
        emitter = Emitter(rng, case.features, anchors=rng.choice([0.0, 0.3, 0.6]))
        texts = case.write(root, emitter)
        for f in case.features:
            features[f] = features.get(f, 0) + 1
        check.stdin.write(json.dumps({p: t for p, (t, _) in texts.items()}) + "\n")
        check.stdin.flush()
        read_back = json.loads(check.stdout.readline())
        wrong = [p for p, (_, v) in texts.items() if read_back.get(p) != canon(v)]
        if wrong:
            bugs += 1
            print(f"case {n}: GENERATOR BUG: PyYAML reads {wrong[0]} differently from what was generated:\n"
                  f"{texts[wrong[0]][0]}\n  generated {canon(texts[wrong[0]][1])[:400]}\n  read      {read_back[wrong[0]][:400]}\n")
            continue
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
                problem = write_case(a, py, rng, case, root, s.stdout)
        if problem:
            failures += 1
            if failures <= 5:
                print(f"case {n} ({root}): {problem}\n")
        else:
            shutil.rmtree(os.path.dirname(root))
    check.stdin.close()
    check.wait()
    if a.features:
        for f, c in sorted(features.items()):
            print(f"  {c:6d}  {f}")
    if bugs:
        print(f"{bugs} GENERATOR BUGS (YAML text does not read back as generated)")
    print(f"{a.cases - failures - bugs} passed, {failures} failed ({broken} break a rule on purpose, "
          f"{both_fail} rejected by both, {written} edited and written back by both, {REFUSED_OUTSIDE[0]} of them "
          f"refused by strata on purpose (a model file linked outside the model); seed {a.seed})")
    sys.exit(1 if failures or bugs else 0)


if __name__ == "__main__":
    main()
