#!/usr/bin/env python3
"""Differential test: random Deckhand document sets rendered by strata and by Airship Deckhand itself.

The oracle is the real rendering engine (deckhand.engine.layering.DocumentLayering, the code
/work/shared/oracles/deckhand.py runs), imported once into one worker process: this script
re-executes itself under the oracle virtualenv's python with `--worker` and sends it one JSON
request per case on stdin. Not part of CI (CI has no Deckhand); run it by hand after changing
the deckhand front-end. Setup (once, outside the checkout; see /work/shared/oracles/README.md):

    export ORACLE_VENV_DIR=$HOME/oracles/venvs DECKHAND_SRC=$HOME/oracles/deckhand-src
    mkdir -p "$DECKHAND_SRC"
    git --git-dir="$DECKHAND_GIT_DIR" archive 08728d3804b15d2b122db442be5477e02156bd6d \\
        | tar -x -C "$DECKHAND_SRC"
    python3 -m venv "$ORACLE_VENV_DIR/deckhand"
    "$ORACLE_VENV_DIR/deckhand/bin/pip" install jsonpath-ng==1.8.0 networkx==3.6.1 \\
        oslo.log==8.1.0 oslo.utils==10.0.1 oslo.config==10.3.0 oslo.serialization==5.9.1 \\
        six==1.17.0 Beaker==1.14.1 PyYAML==6.0.3 jsonschema==4.26.0 falcon==4.2.0 \\
        keystoneauth1==5.13.1 python-barbicanclient==7.3.0 pylibyaml==0.1.0

Then (this script itself needs only the standard library):

    cargo build --release
    python3 scripts/diff-deckhand.py --cases 2000 --seed 1
    python3 scripts/diff-deckhand.py --oracle-only --cases 3000 --seed 1   # generator tuning
    python3 scripts/diff-deckhand.py --replay /work/shared/conformance/deckhand/cases
    python3 scripts/diff-deckhand.py --seed 1 --only 417 --show-input       # one case again

Each case is one multi-document YAML stream written as text by scripts/yamltext.py (random
key order, block and flow style, comments, literal and folded block scalars, anchors, aliases
and `<<` merge keys of repeated values, YAML 1.1 scalars such as `yes`, `0755`, `1:30`, `.5`
and dates left unquoted, strings that only look like numbers such as `-.5` and `1e5`): a
LayeringPolicy (sometimes none or two), documents in 2-4 layers with labels, parentSelectors
and merge/replace/delete actions, abstract documents, substitutions (patterns, recursion,
chains, cycles, secrets as sources), replacements, control documents, and on some cases
`--validate` or `--allow-missing-substitution-source`. Paths use jsonpath-ng's grammar too:
source paths with `..`, slices, index lists, `a,b`, `(x|a)`, `['a']`, `` `this` `` and blanks
(whose first match the generator knows); destinations that match several places (`$..k`,
`[1:3]`, `$.a,b`, `$.* where k`) or cannot be written through (`$.a|b`: nothing changes);
action paths in other spellings (`['k']`, `[k]`, blanks). Deckhand reads the stream with
yaml.safe_load_all; strata runs `strata deckhand --output json [flags] FILE`.

Verdicts. Both render: the document lists must be equal in order (Deckhand's dependency order)
and by value as typed JSON (1, 1.0 and true differ; key order inside objects is ignored unless
--key-order). Both fail: same exception class (strata's stderr starts with
`error: <Class>: message`). Deckhand crashes with a raw Python exception (ValueError,
TypeError, ...): strata must exit 1 with an `error: ` line (any class); counted separately.

Known deviation (strata's DESIGN.md): strata copies substitution values deeply. Deckhand's
default copies them one level deep, so a later write inside a substituted value leaks into the
source and into other documents. The oracle therefore gets every substitution `src` with
`deepcopy: true` (Deckhand's own option for exactly that; removed again from the output
metadata), strata gets the input unchanged. Likewise a value jsonpath-ng writes at several
matches is one Python object in each place, where strata writes copies: the oracle's
jsonpath-ng writes a copy at each place (its Fields and Index updates wrapped). And a YAML
alias is the same object as its anchor for Deckhand, a copy for strata: a case with aliases is
also rendered from its documents with every container copied, and when that changes the
result, strata is compared with the copies' render (counted). `--check-aliasing` also renders
every case with Deckhand's default shallow copy and with shared multi-match writes, and
counts the cases where each changes the result.
"""
import argparse, collections, datetime, hashlib, json, os, random, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from yamltext import Emitter, canon, FLOAT_TEXTS, TRICKY_STRINGS  # noqa: E402


# ---------------------------------------------------------------------------------------------
# Typed values

def jtype(v):
    return {bool: "bool", int: "int", float: "float", str: "str", type(None): "null", list: "list", dict: "dict"}.get(type(v), type(v).__name__)


def jtyped(v, ordered):
    """A JSON value with its types made explicit (1, 1.0 and true differ)."""
    if isinstance(v, dict):
        items = [(k, jtyped(x, ordered)) for k, x in v.items()]
        return ("dict", tuple(items if ordered else sorted(items, key=lambda kv: kv[0])))
    if isinstance(v, list):
        return ("list", tuple(jtyped(x, ordered) for x in v))
    return (jtype(v), repr(v))


def short(v, n=160):
    s = json.dumps(v, sort_keys=False)
    return s if len(s) <= n else s[: n - 3] + "..."


def first_diff(a, b, path, ordered):
    """Where two JSON values first differ, as `path: oracle X, strata Y`, or None."""
    if jtype(a) != jtype(b):
        return f"{path or '.'}: Deckhand {short(a)} ({jtype(a)}), strata {short(b)} ({jtype(b)})"
    if isinstance(a, dict):
        for k in a:
            if k not in b:
                return f"{path}.{k}: only in Deckhand's output ({short(a[k])})"
            d = first_diff(a[k], b[k], f"{path}.{k}", ordered)
            if d:
                return d
        for k in b:
            if k not in a:
                return f"{path}.{k}: only in strata's output ({short(b[k])})"
        if ordered and list(a) != list(b):
            return f"{path or '.'}: key order: Deckhand {list(a)}, strata {list(b)}"
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]", ordered)
            if d:
                return d
        if len(a) != len(b):
            return f"{path}: Deckhand has {len(a)} items, strata {len(b)}"
        return None
    if jtyped(a, ordered) != jtyped(b, ordered):
        return f"{path or '.'}: Deckhand {short(a)}, strata {short(b)}"
    return None


def doc_id(d):
    if not isinstance(d, dict):
        return repr(d)[:60]
    md = d.get("metadata") if isinstance(d.get("metadata"), dict) else {}
    ld = md.get("layeringDefinition") if isinstance(md.get("layeringDefinition"), dict) else {}
    return f"[{d.get('schema')}, {ld.get('layer')}] {md.get('name')}"


def docs_diff(want, got, ordered):
    """First difference between Deckhand's and strata's document lists, or None."""
    if not isinstance(got, list):
        return f"strata's output is not a JSON array: {short(got)}"
    ids_w, ids_g = [doc_id(d) for d in want], [doc_id(d) for d in got]
    if ids_w != ids_g:
        if sorted(ids_w) == sorted(ids_g):
            return f"document order differs:\n    Deckhand {ids_w}\n    strata   {ids_g}"
        return (f"documents differ: only Deckhand {[i for i in ids_w if i not in ids_g]}, "
                f"only strata {[i for i in ids_g if i not in ids_w]}\n    Deckhand {ids_w}\n    strata   {ids_g}")
    for i, (w, g) in enumerate(zip(want, got)):
        d = first_diff(w, g, "", ordered)
        if d:
            return f"document {i} {ids_w[i]}: {d}"
    return None


# ---------------------------------------------------------------------------------------------
# The oracle worker (runs under the Deckhand virtualenv)

def worker_main():
    import copy, logging, warnings
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != HERE]
    src = os.environ.get("DECKHAND_SRC")
    if src:
        sys.path.insert(0, src)
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but answers on the protocol channel
    try:
        # Deckhand first, as in the service: deckhand/__init__.py imports pylibyaml, which makes
        # yaml.safe_load_all use libyaml's parser, but only if yaml is not imported yet.
        from deckhand.engine import layering
        from deckhand import errors
        import yaml
        import yaml.loader
    except ImportError as exc:
        out.write(json.dumps({"fatal": f"cannot import deckhand ({exc}); set DECKHAND_SRC and ORACLE_VENV_DIR"}) + "\n")
        out.flush()
        return 3

    def plain(v):
        return json.loads(json.dumps(v, default=str))

    # A value jsonpath-ng writes at several matches (a dest.path or action path like `$..x`,
    # `[0:2]`, `a,b`) is one Python object in each place, so a later write into one changes
    # all; strata writes copies (docs/frontends/deckhand.md). With COPY_WRITES on, each place
    # gets its own deep copy, as strata does: the updates of jsonpath_ng.Fields and .Index are
    # wrapped to write one field or index at a time, each with a copy of the value.
    import jsonpath_ng.jsonpath as jp
    copy_writes = [True]
    fields_update, index_update = jp.Fields._update_base, jp.Index._update_base

    def fields_copying(self, data, val, create):
        if not copy_writes[0] or data is None or callable(val):
            return fields_update(self, data, val, create)
        for field in self.reified_fields(jp.DatumInContext.wrap(data)):
            fields_update(jp.Fields(field), data, copy.deepcopy(val), create)
        return data

    def index_copying(self, data, val, create):
        if not copy_writes[0] or isinstance(val, list) or callable(val):
            return index_update(self, data, val, create)
        for index in self.indices:
            index_update(jp.Index(index), data, copy.deepcopy(val), create)
        return data

    jp.Fields._update_base, jp.Index._update_base = fields_copying, index_copying

    def inject(docs):
        """deepcopy: true on every substitution src; returns how to undo it."""
        undo = []
        for d in docs:
            md = d.get("metadata") if isinstance(d, dict) else None
            subs = md.get("substitutions") if isinstance(md, dict) else None
            if not isinstance(subs, list):
                continue
            for s in subs:
                if isinstance(s, dict) and isinstance(s.get("src"), dict):
                    undo.append((s["src"], "deepcopy" in s["src"], s["src"].get("deepcopy")))
                    s["src"]["deepcopy"] = True
        return undo

    def restore(undo):
        for src, had, old in undo:
            if had:
                src["deepcopy"] = old
            else:
                src.pop("deepcopy", None)

    def unshare(v):
        """The same value with every container its own object (what strata reads an alias as)."""
        if isinstance(v, dict):
            return {k: unshare(x) for k, x in v.items()}
        if isinstance(v, list):
            return [unshare(x) for x in v]
        return v

    def render(docs, validate, lenient, deep):
        undo = inject(docs) if deep else []
        try:
            engine = layering.DocumentLayering(docs, validate=validate, fail_on_missing_sub_src=not lenient)
            rendered = engine.render()
        except Exception as exc:  # noqa: BLE001 - every failure is an outcome
            return {"ok": False, "error": {"class": type(exc).__name__, "message": str(exc)[:3000],
                                           "raw": not isinstance(exc, errors.DeckhandException)}}
        restore(undo)
        try:
            return {"ok": True, "documents": plain([dict(d) for d in rendered])}
        except Exception as exc:  # noqa: BLE001 - e.g. a date as a mapping key
            return {"ok": False, "error": {"class": "Unserialisable", "message": f"{type(exc).__name__}: {exc}", "raw": True}}

    for line in sys.stdin:
        req = json.loads(line)
        op = req.get("op", "render")
        try:
            if op == "ping":
                resp = {"ok": True, "deckhand": os.path.dirname(os.path.dirname(layering.__file__)),
                        "libyaml": yaml.SafeLoader is not yaml.loader.SafeLoader}
            elif op == "load":
                resp = {"ok": True, "documents": plain([d for d in yaml.safe_load_all(req["text"]) if d is not None])}
            else:
                try:
                    docs = [d for d in yaml.safe_load_all(req["text"]) if d is not None]
                except yaml.YAMLError as exc:
                    resp = {"ok": False, "error": {"class": "YAMLError", "message": str(exc), "raw": True}, "parse_error": True}
                else:
                    mismatch = None
                    if req.get("expect"):
                        if hashlib.sha1(canon(docs).encode()).hexdigest() != req["expect"]:
                            mismatch = canon(docs)
                        elif yaml.SafeLoader is not yaml.loader.SafeLoader:
                            # what PyYAML's own (pure Python) reader makes of it must agree too
                            try:
                                pure = [d for d in yaml.load_all(req["text"], Loader=yaml.loader.SafeLoader) if d is not None]
                            except yaml.YAMLError as exc:
                                pure = exc
                            if not isinstance(pure, list) or canon(pure) != canon(docs):
                                mismatch = "pure-Python PyYAML reads it differently from libyaml: " + (
                                    str(pure) if not isinstance(pure, list) else canon(pure))
                    copies = unshare(copy.deepcopy(docs)) if re.search(r"\*a[0-9]", req["text"]) else None
                    base = copies if copies is not None else docs
                    shallow = copy.deepcopy(base) if req.get("aliasing") else None
                    shared = copy.deepcopy(base) if req.get("aliasing") else None
                    resp = render(docs, req.get("validate", False), req.get("lenient", False), req.get("deepcopy", True))
                    if copies is not None:
                        # YAML aliases: one Python object for Deckhand, copies for strata
                        # (docs/frontends/deckhand.md); the copies' render is what strata must give.
                        other = render(copies, req.get("validate", False), req.get("lenient", False), req.get("deepcopy", True))
                        if json.dumps(other, sort_keys=True) != json.dumps(resp, sort_keys=True):
                            other["alias_sharing_differs"] = True
                            resp = other
                    if mismatch:
                        resp["parse_mismatch"] = mismatch
                    if shallow is not None:
                        def core(r):
                            return json.dumps({k: r.get(k) for k in ("ok", "documents", "error")}, sort_keys=True)
                        other = render(shallow, req.get("validate", False), req.get("lenient", False), False)
                        resp["aliasing_differs"] = core(other) != core(resp)
                        copy_writes[0] = False
                        other = render(shared, req.get("validate", False), req.get("lenient", False), req.get("deepcopy", True))
                        copy_writes[0] = True
                        resp["sharing_differs"] = core(other) != core(resp)
        except Exception as exc:  # noqa: BLE001 - keep the worker alive
            resp = {"ok": False, "error": {"class": "WorkerError", "message": f"{type(exc).__name__}: {exc}", "raw": True}}
        out.write(json.dumps(resp) + "\n")
        out.flush()
    return 0


class Oracle:
    """The worker process: one Deckhand import for the whole run."""

    def __init__(self):
        venv, src = os.environ.get("ORACLE_VENV_DIR"), os.environ.get("DECKHAND_SRC")
        if not venv or not src or not os.path.isdir(os.path.join(src, "deckhand")):
            sys.exit("diff-deckhand: set ORACLE_VENV_DIR and DECKHAND_SRC (see the setup in this script's docstring)")
        self.python = os.path.join(venv, "deckhand", "bin", "python")
        if not os.path.exists(self.python):
            sys.exit(f"diff-deckhand: no virtualenv python at {self.python}")
        self.proc = None
        self.start()
        info = self.ask({"op": "ping"})
        if "fatal" in info:
            sys.exit("diff-deckhand: " + info["fatal"])
        self.where = info.get("deckhand") + (" (YAML read with libyaml, as pylibyaml makes it)" if info.get("libyaml") else "")

    def start(self):
        self.proc = subprocess.Popen([self.python, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=dict(os.environ))

    def ask(self, req):
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            self.proc.kill()
            self.proc.wait()
            self.start()
            return {"ok": False, "error": {"class": "OracleWorkerDied", "message": "the worker exited", "raw": True}}
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


# ---------------------------------------------------------------------------------------------
# strata

def run_strata(strata, path, validate, lenient):
    cmd = [strata, "deckhand", "--output", "json"] + (["--validate"] if validate else []) \
        + (["--allow-missing-substitution-source"] if lenient else []) + [path]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return {"ok": False, "exit": "timeout", "stderr": ""}
    except OSError as exc:
        sys.exit(f"diff-deckhand: cannot run {strata}: {exc}")
    if r.returncode == 0:
        try:
            return {"ok": True, "documents": json.loads(r.stdout)}
        except ValueError:
            return {"ok": False, "exit": 0, "stderr": "stdout is not JSON: " + r.stdout[:300]}
    line = next((l for l in r.stderr.splitlines() if l.startswith("error: ")), None)
    m = re.match(r"error: ([A-Za-z_][A-Za-z0-9_]*): ", line or "")
    return {"ok": False, "exit": r.returncode, "class": m.group(1) if m else None, "line": line, "stderr": r.stderr}


def verdict(want, got, ordered):
    """(kind, detail): kind is pass, pass-raw or fail."""
    if want["ok"]:
        if got["ok"]:
            d = docs_diff(want["documents"], got["documents"], ordered)
            return ("fail", d) if d else ("pass", None)
        return "fail", f"Deckhand renders {len(want['documents'])} documents, strata fails: {strata_text(got)}"
    err = want["error"]
    if got["ok"]:
        return "fail", f"Deckhand fails ({err['class']}), strata renders {len(got['documents'])} documents"
    if got.get("exit") != 1 or not got.get("line"):
        return "fail", f"Deckhand fails ({err['class']}), strata: {strata_text(got)}"
    if err.get("raw"):
        return "pass-raw", None
    if got.get("class") != err["class"]:
        return "fail", f"error class: Deckhand {err['class']}, strata {got.get('class')}"
    return "pass", None


def strata_text(got):
    if got["ok"]:
        return f"{len(got['documents'])} documents"
    if got.get("exit") == 1 and got.get("line"):
        return got["line"]
    return f"exit {got.get('exit')}: {got.get('stderr', '')[:400].strip()}"


def oracle_text(want):
    if want["ok"]:
        return f"{len(want['documents'])} documents {[doc_id(d) for d in want['documents']]}"
    e = want["error"]
    return f"{e['class']}{' (raw Python exception)' if e.get('raw') else ''}: {e['message'][:400]}"


# ---------------------------------------------------------------------------------------------
# YAML text

# The writer is scripts/yamltext.py (shared with diff-ardana.py).


# ---------------------------------------------------------------------------------------------
# Random document sets
#
# A case is a clean document set (every parent found, every action path present, every
# substitution source concrete and acyclic: it renders) plus, on about a third of the cases,
# one injected fault from FAULTS. To keep the clean part clean, the generator follows each
# document's data roughly as Deckhand will render it (Doc.approx: layering by path, no
# substitution); that only steers the choices, the verdict is always the real engine's.

LAYER_NAMES = ["global", "region", "type", "site", "zone"]
SCHEMAS = ["example/Kind/v1", "armada/Chart/v1", "app/Config/v2", "promenade/Node/v1"]
SECRET_SCHEMAS = ["deckhand/Passphrase/v1", "deckhand/Certificate/v1", "deckhand/CertificateKey/v1",
                  "deckhand/CertificateAuthority/v1", "deckhand/CertificateAuthorityKey/v1",
                  "deckhand/PrivateKey/v1", "deckhand/PublicKey/v1"]
KEYS = ["a", "b", "c", "x", "y", "m", "l", "port", "name", "database", "base", "vals"]
STRS = ["x", "hello", "img:1.2", "repo/app:v3", "TOKEN", "a-TOKEN-b", "INSERT_PASSWORD_HERE",
        "http://admin:INSERT_PASSWORD_HERE@svc:8080/v1", "it's", "two words", "", "yes", "0755", "1:30",
        "2024-01-02", "null", "\u00fcber", "multi\nline\n", "tab\there", "x: y", "# not a comment", "-dash",
        "quote\"d", "[1, 'a']"]
TOKEN_STRS = ["TOKEN", "pre-TOKEN-post", "TOKEN and TOKEN", "INSERT_PASSWORD_HERE", "url://INSERT_USER_HERE@h",
              "lit INSERT_[A-Z]+_HERE lit", "none here", "port 8080"]
DEST_PATTERNS = ["INSERT_[A-Z]+_HERE", "TOKEN", "TOKEN", "INSERT_PASSWORD_HERE", "[0-9]+", "none", "T.K"]
PEM = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\nQ2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n"
MISSING = object()
SEG_RE = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def equal_variants(v):
    """Values Python finds equal to v (delete-by-value matches any of them)."""
    if isinstance(v, (bool, int, float)) and v == 1:
        return [1, True, 1.0]
    if isinstance(v, (bool, int, float)) and v == 0:
        return [0, False, 0.0]
    return [v]


def get_path(data, segs):
    for kind, k in segs:
        if kind == "k" and isinstance(data, dict) and k in data:
            data = data[k]
        elif kind == "i" and isinstance(data, list) and k < len(data):
            data = data[k]
        else:
            return MISSING
    return data


def creatable(data, segs):
    """Whether writing at segs works: every existing prefix is the container the next segment needs."""
    for kind, k in segs:
        if kind == "k":
            if not isinstance(data, dict):
                return False
            if k not in data:
                return True
            data = data[k]
        else:
            if not isinstance(data, list):
                return False
            if k >= len(data):
                return True
            data = data[k]
    return True


def set_path(data, segs, value, filler=dict):
    """Writes value at segs inside data, creating containers; False if data is no container."""
    if not segs:
        return False
    for n, (kind, k) in enumerate(segs):
        last = n == len(segs) - 1
        want_list = not last and segs[n + 1][0] == "i"
        if kind == "k":
            if not isinstance(data, dict):
                return False
            if last:
                data[k] = value
                return True
            if not isinstance(data.get(k), list if want_list else dict):
                data[k] = [] if want_list else {}
            data = data[k]
        else:
            if not isinstance(data, list):
                return False
            while len(data) <= k:
                data.append(filler())
            if last:
                data[k] = value
                return True
            if not isinstance(data[k], list if want_list else dict):
                data[k] = [] if want_list else {}
            data = data[k]
    return False


def written(segs, v):
    """What a write of v at segs stores: jsonpath-ng's Index.update stores a list value's first
    element (it pops it); an empty list there crashes (MISSING)."""
    if segs and segs[-1][0] == "i" and isinstance(v, list):
        return copy_data(v[0]) if v else MISSING
    return v


def delete_by_value(data, target, parent=None):
    """Removes the first value equal to target, depth first, as layering's delete does."""
    if data == target:
        if isinstance(parent, list):
            parent.remove(data)
            return True
        if isinstance(parent, dict):
            for k, v in parent.items():
                if v == data:
                    parent.pop(k)
                    return True
    elif isinstance(data, list):
        return any(delete_by_value(v, target, data) for v in data)
    elif isinstance(data, dict):
        return any(delete_by_value(v, target, data) for v in list(data.values()))
    return False


def simulate(base, cdata, actions):
    """Roughly what layering makes of base with the child's data and actions."""
    result = copy_data(base)
    for a in actions:
        eff = parse_segs(action_lookup_path(a["path"])) if isinstance(a, dict) and isinstance(a.get("path"), str) else None
        if eff is None:
            continue
        m = a.get("method")
        if m == "delete":
            v = get_path(result, eff) if eff else MISSING
            if not eff:
                result = {}
            elif v is not MISSING and v is not None:
                delete_by_value(result, v)
        elif m in ("merge", "replace"):
            c = get_path(cdata, eff) if eff else cdata
            if c is MISSING or c is None:
                continue
            if not eff:
                result = merged(result, c) if m == "merge" and isinstance(result, dict) and isinstance(c, dict) else copy_data(c)
            elif creatable(result, eff) and written(eff, c) is not MISSING:
                pv = get_path(result, eff)
                set_path(result, eff, merged(pv, c) if m == "merge" and isinstance(pv, dict) and isinstance(c, dict)
                         else copy_data(written(eff, c)))
    return result


def del_path(data, segs):
    parent = get_path(data, segs[:-1])
    kind, k = segs[-1]
    if kind == "k" and isinstance(parent, dict):
        parent.pop(k, None)
    elif kind == "i" and isinstance(parent, list) and k < len(parent):
        parent.pop(k)


def merged(p, c):
    """Deep merge as layering does it (child wins, objects recurse), on copies."""
    out = copy_data(p)
    for k, v in c.items():
        out[k] = merged(out[k], v) if isinstance(out.get(k), dict) and isinstance(v, dict) else copy_data(v)
    return out


def copy_data(v):
    if isinstance(v, dict):
        return {k: copy_data(x) for k, x in v.items()}
    if isinstance(v, list):
        return [copy_data(x) for x in v]
    return v


def all_paths(data, prefix=(), depth=0):
    out = []
    if depth >= 4:
        return out
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(k, str) and re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", k):
                p = prefix + (("k", k),)
                out.append(p)
                out.extend(all_paths(v, p, depth + 1))
    elif isinstance(data, list) and prefix:
        for i, v in enumerate(data):
            p = prefix + (("i", i),)
            out.append(p)
            out.extend(all_paths(v, p, depth + 1))
    return out


def all_lists(v, out=None):
    out = [] if out is None else out
    if isinstance(v, list):
        out.append(v)
        for x in v:
            all_lists(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            all_lists(x, out)
    return out


def path_body(segs):
    return "".join("." + k if kind == "k" else "[%d]" % k for kind, k in segs)


def parse_segs(path):
    """Segments of a generated path (`.`, `$`, `.a.b[2]`, `$.a`), or None."""
    if path in (".", "$"):
        return ()
    body = path[1:] if path.startswith("$.") else path
    # jsonpath-ng spellings of the same steps: `['k']`, `[k]`, blanks between tokens
    body = re.sub(r"\[\s*'([A-Za-z_][A-Za-z0-9_]*)'\s*\]|\[\s*([A-Za-z_][A-Za-z0-9_]*)\s*\]",
                  lambda m: "." + (m.group(1) or m.group(2)), body.replace(" ", ""))
    segs, pos = [], 0
    for m in SEG_RE.finditer(body):
        if m.start() != pos:
            return None
        segs.append(("k", m.group(1)) if m.group(1) else ("i", int(m.group(2))))
        pos = m.end()
    return tuple(segs) if pos == len(body) and segs else None


def action_lookup_path(text):
    """The path a layering action reads and writes (Deckhand strips a leading `.data`/`$.data` by prefix)."""
    if text.startswith(".data"):
        text = text[5:]
    elif text.startswith("$.data"):
        text = text[6:]
    if not (text.startswith(".") or text.startswith("$.")):
        text = "." + text
    return text


JP_ABSENT = "zz_none"  # a name no generated data has


def first_desc(node, key):
    """The first value of `key` in a depth-first search (jsonpath-ng's `..key`), or MISSING."""
    if isinstance(node, dict):
        if key in node:
            return node[key]
        children = list(node.values())
    elif isinstance(node, list):
        children = node
    else:
        return MISSING
    for c in children:
        r = first_desc(c, key)
        if r is not MISSING:
            return r
    return MISSING


def all_desc(node, key, out):
    """Every container holding `key`, depth first (where `$..key` writes)."""
    if isinstance(node, dict):
        if key in node:
            out.append(node)
        for c in list(node.values()):
            all_desc(c, key, out)
    elif isinstance(node, list):
        for c in node:
            all_desc(c, key, out)
    return out


def contains_key_or_string(v, key):
    if isinstance(v, dict):
        return key in v or any(contains_key_or_string(x, key) for x in v.values())
    if isinstance(v, list):
        return key in v or any(contains_key_or_string(x, key) for x in v)
    return False


def jp_name(k):
    return "." + k


def jp_src(rng, segs, sdata):
    """A jsonpath-ng form of the source path segs and the value its first match has (the value
    at segs, unless `..` finds the key earlier): (text, value, feature) or None."""
    j = rng.randrange(len(segs))
    kind, k = segs[j]
    before, after = path_body(segs[:j]), path_body(segs[j + 1:])
    r = rng.random()
    if kind == "k" and j == len(segs) - 1 and r < 0.35:
        base = get_path(sdata, segs[:j]) if j else sdata
        if rng.random() < 0.3:
            before, base = "$", sdata
        v = first_desc(base, k)
        return (before + ".." + k, v, "jp-src-descendants") if v is not MISSING else None
    if kind == "k":
        form = rng.choice(["['%s']" % k, "[%s]" % k, ".%s,%s" % (k, JP_ABSENT), ".(%s|%s)" % (JP_ABSENT, k),
                           ".%s.`this`" % k, ". %s" % k])
        feat = "jp-src-" + {"[": "bracket-name", ",": "field-list", "(": "union", "`": "this", " ": "blanks"}[
            "[" if form.startswith("[") else "," if "," in form else "(" if "(" in form else "`" if "`" in form else " "]
        return before + form + after, get_path(sdata, segs), feat
    lst = get_path(sdata, segs[:j]) if j else sdata
    n = len(lst) if isinstance(lst, list) else k + 1
    form = rng.choice(["[%d:]" % k, "[%d:%d]" % (k, k + 1), "[%d,0]" % k, "[%d]" % (k - n), "[%d::1]" % k, "[-%d:]" % (n - k)])
    return before + form + after, get_path(sdata, segs), "jp-src-slice-or-index-list"


class Doc:
    def __init__(self, schema, name, layer, kind="doc"):
        self.schema, self.name, self.layer, self.kind = schema, name, layer, kind
        self.meta_schema = "metadata/Control/v1" if kind == "control" else "metadata/Document/v1"
        self.labels, self.selector, self.actions = {}, None, None
        self.abstract = MISSING
        self.replacement = MISSING
        self.storage = None if kind == "control" else "cleartext"
        self.data = {}
        self.approx = None  # data as rendered, roughly
        self.subs = []
        self.extra_meta, self.extra_top = {}, {}
        self.layering = kind != "control"  # write metadata.layeringDefinition
        self.layer_key = True
        self.parent = None
        self.children = []
        self.replaced_by = None
        self.deps = set()  # documents this one waits for (ids)

    @property
    def concrete(self):
        return self.abstract is not True


class Case:
    def __init__(self):
        self.validate = self.lenient = False
        self.features = set()
        self.docs = []  # python documents, in input order
        self.text = ""


FAULTS = {  # name: weight (about one injected fault every third case)
    "no-layering-policy": 2.0, "layer-not-in-layerOrder": 1.6, "empty-layerOrder": 0.8, "second-policy-first": 0.6,
    "parent-other-schema": 1.4, "parent-same-or-lower-layer": 1.0, "selector-family-wide": 0.7,
    "two-candidates-same-layer": 1.5, "candidates-far2-near1": 1.2,
    "replacement-without-parent": 0.6, "replacement-other-name": 0.6, "same-name-as-parent-not-replacement": 0.7,
    "same-name-two-layers": 0.6, "replacement-of-replacement": 0.9,
    "sub-self": 1.0, "sub-cycle-2": 1.0, "sub-parent-from-child": 1.0,
    "merge-path-missing-in-child": 0.8, "action-child-value-null": 0.5, "delete-path-missing-in-parent": 0.8,
    "delete-after-root-delete": 0.3, "child-data-null-merge-root": 0.2,
    "bad-action-method": 1.5,
    "sub-source-missing": 0.9, "sub-source-abstract": 0.9, "sub-source-wrong-schema": 0.4,
    "sub-src-path-missing": 1.2, "sub-src-value-null": 0.6,
    "sub-dest-no-leading-dot": 0.5, "sub-dest-pattern-non-string": 0.5, "sub-dest-pattern-invalid-regex": 0.4,
    "sub-dest-root-falsy": 0.5, "sub-src-pattern-non-string": 0.3, "sub-src-match-group-out-of-range": 0.3,
    "sub-dest-through-scalar": 0.4, "sub-dest-quoted-key-with-dot": 0.2, "sub-dest-pattern-path-missing": 0.4,
    "sub-value-backslash": 0.3, "sub-dest-recurse-empty": 0.3,
    "parent-data-null": 0.25, "layerless-child-with-matching-parent": 0.25, "mixed-key-types-in-child": 0.15,
    "parent-data-non-dict-path-action": 0.3,
    "duplicate-schema-layer-name": 1.0,
}
VALIDATE_FAULTS = ["schema-v1.0", "no-storagePolicy", "selector-without-actions", "actions-without-selector",
                   "extra-top-key", "extra-metadata-key", "no-layer", "duplicate", "layerOrder-int", "control-label-int",
                   "dest-without-path", "recurse-depth-invalid", "data-date", "name-int", "validation-name",
                   "abstract-string", "empty-actions", "bad-method", "src-extra-key", "lp-extra-key"]


class Generator:
    def __init__(self, rng):
        self.rng = rng
        self.count = 0

    # --- values

    def scalar(self, null=True):
        rng = self.rng
        while True:
            r = rng.random()
            if r < 0.25:
                v = rng.choice([0, 1, 1, 2, 7, 42, 90, 493, -3, 1000, 65535])
            elif r < 0.62:
                v = rng.choice(STRS)
            elif r < 0.72:
                v = rng.random() < 0.6
            elif r < 0.79:
                v = None
            elif r < 0.88:
                v = rng.choice(list(FLOAT_TEXTS))
            elif r < 0.96:
                v = datetime.date(2024, rng.randint(1, 12), rng.randint(1, 28))
            else:
                v = datetime.datetime(2024, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))
            if null or v is not None:
                return v

    def value(self, depth, null=True):
        rng = self.rng
        r = rng.random()
        made = getattr(self, "made", None)
        if made and r < 0.05:
            # a container again (the YAML writer may then alias it, or merge it with `<<`)
            old = rng.choice(made[-6:])
            if isinstance(old, dict) and rng.random() < 0.5:
                extra = {k: self.scalar() for k in rng.sample(KEYS, 2) if k not in old}
                self.feat("value-extends-another")
                return dict(list(copy_data(old).items()) + list(extra.items()))
            self.feat("value-repeats-another")
            return copy_data(old)
        if depth < 3 and r < 0.22:
            v = self.mapping(depth + 1, rng.randint(0, 3))
        elif depth < 3 and r < 0.36:
            v = [self.value(depth + 1) for _ in range(rng.randint(0, 4))]
        else:
            return self.scalar(null)
        if v and made is not None:
            made.append(v)
        return v

    def mapping(self, depth, n):
        return {k: self.value(depth) for k in self.rng.sample(KEYS, n)}

    def data(self):
        return self.mapping(0, self.rng.randint(1, 4))

    def non_dict_data(self):
        self.feat("data-non-dict")
        return self.rng.choice([["p", 1, {"k": "v"}], "plain string", 42, 2.5, True, [1, 2, 3], "multi\nline\n"])

    # --- helpers

    def feat(self, name):
        self.cur.features.add(name)

    def new_name(self, stem):
        self.count += 1
        return f"{stem}-{self.count}"

    def label_id(self):
        self.count += 1
        return f"d{self.count}"

    def reaches(self, a, b):
        """Whether document a (transitively) waits for document b."""
        seen, todo = set(), [a]
        while todo:
            x = todo.pop()
            if x is b:
                return True
            if id(x) in seen:
                continue
            seen.add(id(x))
            todo.extend(self.by_id[i] for i in x.deps)
        return False

    def add(self, d):
        self.docs.append(d)
        self.by_id[id(d)] = d
        return d

    def depend(self, d, on):
        d.deps.add(id(on))

    def layer_index(self, d):
        return self.layers.index(d.layer) if d.layer in self.layers else -1

    # --- document sets

    def make(self):
        rng = self.rng
        self.cur = c = Case()
        self.made = []  # containers made so far (some are used again)
        self.docs, self.by_id, self.controls, self.done = [], {}, [], None
        c.validate = rng.random() < 0.14
        c.lenient = rng.random() < 0.12
        if c.validate:
            self.feat("validate")
        if c.lenient:
            self.feat("lenient-substitution")
        n = rng.choice([2, 3, 3, 3, 4, 4])
        self.layers = [LAYER_NAMES[i] for i in sorted(rng.sample(range(len(LAYER_NAMES)), n))]
        self.feat(f"layers-{n}")

        for f in range(rng.choice([1, 1, 2, 2, 2, 3])):
            self.family(f, rng.choice(SCHEMAS))
        if rng.random() < 0.5:
            for _ in range(rng.randint(1, 2)):
                d = self.add(Doc(rng.choice(SCHEMAS), self.new_name("cfg"), rng.choice(self.layers)))
                if rng.random() < 0.4:
                    d.labels = {"id": self.label_id()}
                d.data = self.data() if rng.random() < 0.9 else self.non_dict_data()
                d.approx = copy_data(d.data)
                self.feat("standalone-document")
        if rng.random() < 0.4:
            for _ in range(rng.randint(1, 2)):
                self.secret()
        if rng.random() < 0.1:
            self.replacement(rng.choice(["valid", "valid", "sibling"]))
        if rng.random() < 0.03 and not c.validate:
            self.layerless(False)
        if rng.random() < 0.01 and not c.validate:
            d = rng.choice(self.docs)
            d.abstract = "true"
            self.feat("abstract-string-true")

        # Substitutions document by document, parents before children, each taking values only
        # from documents already done (so no cycles, and their data is known).
        self.done = set()
        for d in self.topo_order():
            self.relayer(d)
            if rng.random() < 0.3:
                for _ in range(rng.choice([1, 1, 1, 2, 3])):
                    self.substitution(d)
            self.done.add(id(d))
        self.done = None

        self.policy(self.layers)
        if rng.random() < 0.04:
            order = rng.choice([self.layers + ["extra"], [LAYER_NAMES[0]] + self.layers if self.layers[0] != LAYER_NAMES[0] else self.layers])
            self.policy(order, second=True)
            self.feat("second-layering-policy-after")
        if rng.random() < 0.2:
            ds = Doc("deckhand/DataSchema/v1", rng.choice(SCHEMAS), None, "control")
            ds.labels = {"application": "x"} if rng.random() < 0.3 else {}
            ds.data = {"$schema": "http://json-schema.org/schema#", "type": "object"}
            self.controls.append(ds)
            self.feat("DataSchema")
        if rng.random() < 0.1:
            vp = Doc("deckhand/ValidationPolicy/v1", "site-deploy-ready", None, "control")
            vp.data = {"validations": [{"name": "deckhand-schema-validation"}, {"name": "promenade-schema-validation", "expiresAfter": "P1W"}]}
            self.controls.append(vp)
            self.feat("ValidationPolicy")

        if c.validate and rng.random() < 0.4:
            self.invalidate()
        elif rng.random() < 0.34:
            names, weights = zip(*FAULTS.items())
            for _ in range(6):
                fault = rng.choices(names, weights)[0]
                if self.fault(fault) is not False:
                    self.feat("fault-" + fault)
                    break

        used = {d.layer for d in self.docs}
        empty = [i for i, l in enumerate(self.layers) if l not in used]
        for i in empty:
            self.feat("empty-layer-" + ("first" if i == 0 else "last" if i == len(self.layers) - 1 else "middle"))

        docs = list(self.docs)
        r = rng.random()
        if r < 0.5:
            rng.shuffle(docs)
            self.feat("order-shuffled")
        elif r < 0.6:
            docs.reverse()
            self.feat("order-reversed")
        for ctl in self.controls:
            docs.insert(rng.randint(0, len(docs)) if rng.random() < 0.5 else 0, ctl)
        c.docs = [self.render_doc(d) for d in docs]
        if rng.random() < 0.02:
            c.docs.insert(rng.randint(0, len(c.docs)), None)
            self.feat("empty-yaml-document")
        # A datetime spelled as Python's str() spells it: strata's JSON writes a timestamp as its
        # text, Deckhand's (through str()) as Python prints it (docs/frontends/deckhand.md).
        anchors = rng.choice([0.0, 0.0, 0.3, 0.6])
        c.text = Emitter(rng, c.features, anchors=anchors, datetimes=("%Y-%m-%d %H:%M:%S",)).stream(c.docs)
        return c

    def policy(self, order, second=False, first=False):
        lp = Doc("deckhand/LayeringPolicy/v1", "layering-policy-2" if second else "layering-policy", None, "control")
        lp.data = {"layerOrder": list(order)}
        if first:
            self.controls.insert(0, lp)
        else:
            self.controls.append(lp)
        return lp

    def family(self, f, schema):
        rng = self.rng
        fam = f"f{f}"
        members = []
        for i in range(rng.choice([1, 2, 2, 3, 3, 3, 4, 4])):
            candidates = [m for m in members if self.layer_index(m) < len(self.layers) - 1]
            if i == 0 or not candidates or rng.random() < 0.1:
                li = 0 if rng.random() < 0.75 else rng.randrange(len(self.layers))
                d = self.add(Doc(schema, self.new_name(f"{fam}-{self.layers[li]}"), self.layers[li]))
                d.labels = self.labels(d, fam)
                d.data = self.data() if rng.random() < 0.96 else self.non_dict_data()
                d.approx = copy_data(d.data)
                d.abstract = rng.choice([True, True, False, MISSING])
                members.append(d)
                continue
            p = rng.choice(candidates)
            pli = self.layer_index(p)
            li = pli + 1 if rng.random() < 0.6 else rng.randint(pli + 1, len(self.layers) - 1)
            if li > pli + 1:
                self.feat("child-skips-layer")
            d = self.add(Doc(schema, self.new_name(f"{fam}-{self.layers[li]}"), self.layers[li]))
            d.labels = self.labels(d, fam)
            d.data = self.data()
            self.link(d, p)
            d.abstract = rng.choice([True, False, MISSING, MISSING])
            members.append(d)

    def labels(self, d, fam):
        rng = self.rng
        labels = {"id": self.label_id()}
        if rng.random() < 0.5:
            labels["fam"] = fam
        if rng.random() < 0.2:
            labels["tier"] = d.layer
        items = list(labels.items())
        rng.shuffle(items)
        return dict(items)

    def link(self, d, p, replacement=False):
        """Makes d a child of p: selector, actions, and d.approx."""
        rng = self.rng
        r = rng.random()
        d.parent = p
        p.children.append(d)
        if r < 0.78 or replacement:
            d.selector = {"id": p.labels["id"]}
            if "tier" in p.labels and rng.random() < 0.5:
                d.selector["tier"] = p.labels["tier"]
                self.feat("selector-subset-2-labels")
            self.feat("selector-unique")
        elif r < 0.86:
            p.labels["n"] = rng.choice([1, True, 1.0])
            d.selector = {"id": p.labels["id"], "n": rng.choice([1, True, 1.0])}
            self.feat("selector-typed-equality")
        elif r < 0.92:
            d.selector = rng.choice([{"id": "nope"}, {"id": p.labels["id"], "zone": "z9"}])
            d.parent = None
            p.children.remove(d)
            self.feat("selector-no-match")
        else:
            d.selector = {"id": p.labels["id"]}
            far = [x for x in self.docs if x.schema == d.schema and x.kind == "doc" and 0 <= self.layer_index(x) < self.layer_index(p)
                   and x.parent is None]
            if far:
                g = rng.choice(far)
                shared = "s" + p.labels["id"]
                g.labels["shared"] = p.labels["shared"] = shared
                d.selector = {"shared": shared}
                self.feat("candidates-far1-near1")
        if d.parent is not None:
            self.depend(d, p)
        self.actions(d, p if d.parent is not None else None)

    def action_text(self, segs):
        rng = self.rng
        if not segs:
            text = rng.choice([".", ".", ".", ".", ".data", "$.data"])
            if text != ".":
                self.feat("action-root-" + text)
            return text
        body = path_body(segs)
        r = rng.random()
        if rng.random() < 0.1:
            # the same steps in other jsonpath-ng spellings (a bracketed name that the parent
            # lacks cannot be created: Deckhand fails, and so must strata)
            named = [i for i, (k, _) in enumerate(segs) if k == "k"]
            i = rng.choice(named) if named else None
            if i is not None:
                k = segs[i][1]
                form = rng.choice(["['%s']" % k, "[%s]" % k, " . %s" % k])
                self.feat("action-path-jsonpath-spelling")
                return path_body(segs[:i]) + form + path_body(segs[i + 1:])
        if r < 0.6:
            return body
        if r < 0.7:
            self.feat("action-path-$.x")
            return "$" + body
        if r < 0.8:
            self.feat("action-path-.data.x")
            return ".data" + body
        if r < 0.9:
            self.feat("action-path-$.data.x")
            return "$.data" + body
        self.feat("action-path-no-dot")
        return body[1:]

    def actions(self, d, p):
        """Actions for d on parent p (None: no parent found; the actions are then unused)."""
        rng = self.rng
        r = rng.random()
        if r < 0.03 and not self.cur.validate:
            d.actions = rng.choice([[], MISSING])
            d.approx = copy_data(d.data)
            self.feat("parent-without-actions")
            return
        result = copy_data(p.approx) if p is not None else {}
        root_only = not isinstance(result, dict)
        if root_only:
            self.feat("parent-data-non-dict-root-actions")
        acts, used = [], []
        for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
            m = rng.random()
            method = "merge" if m < 0.52 else "replace" if m < 0.77 else "delete"
            if root_only and method == "delete":
                method = "merge"
            if not isinstance(result, dict) and method != "delete":
                root_only = True
            segs, text = self.action_path(method, result, d, root_only, used)
            if segs is None:
                continue
            eff = parse_segs(action_lookup_path(text))
            if eff != segs:
                self.feat("action-path-.database-prefix-quirk")
            if method == "delete":
                if not eff:
                    result = {}
                else:
                    v = get_path(result, eff)
                    if p is not None and not acts and p.parent is None and isinstance(p.data, dict) and eff[0][0] == "k" \
                            and not isinstance(v, (dict, list)) and rng.random() < 0.3 and "aa" not in p.data:
                        w = rng.choice(equal_variants(v))
                        p.data = dict([("aa", w)] + list(p.data.items()))
                        p.approx = dict([("aa", w)] + list(p.approx.items()))
                        result = dict([("aa", w)] + list(result.items()))
                        self.feat("delete-by-value-equal-earlier" + ("-typed" if type(w) is not type(v) else ""))
                    delete_by_value(result, v)
            else:
                c = get_path(d.data, eff) if eff else d.data
                if not eff:
                    result = merged(result, c) if method == "merge" and isinstance(result, dict) and isinstance(c, dict) else copy_data(c)
                else:
                    pv = get_path(result, eff)
                    set_path(result, eff, merged(pv, c) if method == "merge" and isinstance(pv, dict) and isinstance(c, dict)
                             else copy_data(written(eff, c)))
            used.append(eff)
            acts.append({"method": method, "path": text})
            self.feat("action-" + method)
        if not acts:
            acts = [{"method": "merge", "path": "."}]
            result = merged(result, d.data) if isinstance(result, dict) and isinstance(d.data, dict) else copy_data(d.data)
        d.actions = acts
        d.approx = result if p is not None else copy_data(d.data)

    def action_path(self, method, result, d, root_only, used):
        """(segs, text) of one action on the current result; plants the child's value. (None, None) to skip."""
        rng = self.rng
        if method == "delete":
            cands = [s for s in all_paths(result) if get_path(result, s) is not None]
            if not cands or rng.random() < 0.12:
                return (), self.action_text(())
            segs = rng.choice(cands)
            for _ in range(4):
                text = self.action_text(segs)
                if parse_segs(action_lookup_path(text)) == segs:
                    break
            else:
                text = ".data" + path_body(segs)
            if any(k == "i" for k, _ in segs):
                self.feat("action-path-index")
            return segs, text
        q = rng.random()
        if root_only or q < 0.2 or not isinstance(d.data, dict):
            if d.data is None:
                d.data = self.data()
            if not root_only and rng.random() < 0.08 and not used:
                d.data = self.non_dict_data()
                self.feat("action-root-child-non-dict")
            return (), self.action_text(())
        for _ in range(6):
            if q < 0.6 and all_paths(result):
                segs = rng.choice(all_paths(result))
            else:
                segs = self.new_path()
            text = self.action_text(segs)
            eff = parse_segs(action_lookup_path(text))
            if eff is None or not eff or not creatable(result, eff):
                continue
            if any(u[: len(eff)] == eff or eff[: len(u)] == u for u in used):
                continue
            pv = get_path(result, eff)
            v = self.mapping(2, rng.randint(0, 2)) if isinstance(pv, dict) and rng.random() < 0.7 else self.value(2, null=False)
            if written(eff, v) is MISSING:
                continue
            if eff[-1][0] == "i" and isinstance(v, list):
                self.feat("index-path-write-of-list")
            snapshot = copy_data(d.data)
            if not set_path(d.data, eff, v, lambda: self.scalar(False)) or \
                    any(get_path(d.data, u) in (MISSING, None) for u in used if u):
                d.data = snapshot
                continue
            if any(k == "i" for k, _ in eff):
                self.feat("action-path-index")
                lst = get_path(result, eff[: max(i for i, (k, _) in enumerate(eff) if k == "i")])
                if isinstance(lst, list) and eff[-1][0] == "i" and eff[-1][1] >= len(lst):
                    self.feat("action-index-past-end")
            return eff, text
        return None, None

    def new_path(self):
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            return (("k", rng.choice(KEYS)),)
        if r < 0.6:
            return (("k", rng.choice(KEYS)), ("k", rng.choice(KEYS)))
        if r < 0.8:
            return (("k", rng.choice(["l", "vals", "m"])), ("i", rng.choice([0, 1, 2, 5])))
        if r < 0.9:
            return (("k", rng.choice(["l", "vals"])), ("i", rng.choice([0, 1, 3])), ("k", rng.choice(["x", "y"])))
        return (("k", "database"), ("k", rng.choice(["x", "host"])))

    def secret(self):
        rng = self.rng
        schema = rng.choice(SECRET_SCHEMAS)
        d = self.add(Doc(schema, self.new_name(schema.split("/")[1].lower()), rng.choice(self.layers), "secret"))
        d.data = PEM if "Cert" in schema or "Key" in schema and rng.random() < 0.5 else rng.choice(["s3cr3t", "pass word", "p@ss:1"])
        if rng.random() < 0.1:
            d.data = {"pw": "s3cr3t", "user": "admin"}
        d.approx = copy_data(d.data)
        self.feat("secret-document")
        return d

    def layerless(self, matching):
        rng = self.rng
        d = self.add(Doc(rng.choice(SCHEMAS), self.new_name("nolayer"), None))
        d.data = self.data()
        d.approx = copy_data(d.data)
        r = rng.random()
        if r < 0.4:
            d.layering = False
        elif r < 0.7:
            d.layer_key = False
            d.abstract = rng.choice([False, MISSING])
        else:
            d.layer = ""
        if matching:
            target = next((x for x in self.docs if x.labels and x.layer in self.layers), None)
            if target is None:
                return False
            d.layering, d.layer_key, d.layer = True, False, None
            d.selector = dict(list(target.labels.items())[:1])
            d.actions = [{"method": "merge", "path": "."}]
        self.feat("layerless-document")

    def replacement(self, variant):
        rng = self.rng
        parents = [d for d in self.docs if d.kind == "doc" and d.replaced_by is None and d.replacement is MISSING
                   and 0 <= self.layer_index(d) < len(self.layers) - 1]
        if not parents:
            return False
        p = rng.choice(parents)
        p.labels.setdefault("id", self.label_id())
        pli = self.layer_index(p)
        r = Doc(p.schema, p.name, self.layers[rng.randint(pli + 1, len(self.layers) - 1)])
        r.labels = {"id": self.label_id()}
        r.replacement = True
        r.data = self.data()
        self.add(r)
        self.link(r, p, replacement=True)
        if variant in ("valid", "sibling"):
            p.replaced_by = r
            for c in p.children:
                if c is not r:
                    self.depend(c, r)
            self.feat("replacement")
            if rng.random() < 0.15:
                r.abstract = True
                self.feat("replacement-abstract")
        if variant == "sibling":
            sib = self.add(Doc(p.schema, self.new_name("sibling"), self.layers[rng.randint(pli + 1, len(self.layers) - 1)]))
            sib.labels = {"id": self.label_id()}
            sib.data = self.data()
            p.approx, saved = r.approx, p.approx
            self.link(sib, p)
            p.approx = saved
            self.depend(sib, r)
            self.feat("replacement-with-sibling")
        elif variant == "without-parent":
            r.selector = {"id": "nope"} if rng.random() < 0.5 else None
            if r.selector is None:
                r.actions = None
        elif variant == "other-name":
            r.name = self.new_name("renamed")
        elif variant == "not-replacement":
            r.replacement = rng.choice([MISSING, False, "true"])
        elif variant == "two-layers":
            r.selector, r.actions, r.replacement = None, None, MISSING
        elif variant == "of-replacement":
            if pli + 2 >= len(self.layers):
                return False
            r.layer = self.layers[pli + 1]
            r.abstract = rng.choice([MISSING, MISSING, True])
            r2 = self.add(Doc(p.schema, p.name, self.layers[rng.randint(pli + 2, len(self.layers) - 1)]))
            r2.labels = {"id": self.label_id()}
            r2.replacement = True
            r2.data = self.data()
            self.link(r2, r, replacement=True)
            self.feat("replacement-of-replacement" + ("-abstract-middle" if r.abstract is True else ""))
        return r

    def layer_parent(self, d):
        """The document whose rendered data d layers on (a replaced parent's replacement)."""
        p = d.parent
        if p is not None and p.replaced_by is not None and p.replaced_by is not d:
            return p.replaced_by
        return p

    def topo_order(self):
        order, seen = [], set()

        def visit(d):
            if id(d) in seen:
                return
            seen.add(id(d))
            for i in sorted(d.deps, key=lambda i: self.docs.index(self.by_id[i]) if self.by_id[i] in self.docs else 0):
                visit(self.by_id[i])
            order.append(d)

        docs = list(self.docs)
        self.rng.shuffle(docs)
        for d in docs:
            visit(d)
        return order

    def relayer(self, d):
        p = self.layer_parent(d)
        if p is not None and isinstance(d.actions, list) and d.actions and p.approx is not None:
            d.approx = simulate(p.approx, d.data, d.actions)

    def reserved(self, d):
        """Top-level keys d's descendants use (their action paths and data): substitutions into d
        must not create them, or a child's action written earlier would meet another type."""
        keys, todo = set(), list(d.children) + ([d.replaced_by] if d.replaced_by else [])
        while todo:
            c = todo.pop()
            for a in (c.actions if isinstance(c.actions, list) else []):
                eff = parse_segs(action_lookup_path(a["path"]))
                if eff:
                    keys.add(eff[0][1])
            if isinstance(c.data, dict):
                keys.update(k for k in c.data if isinstance(k, str))
            todo.extend(c.children)
        return keys

    def sources(self, d):
        """Documents d can take a substitution from without an error or a cycle."""
        out = []
        for s in self.docs:
            t = s.replaced_by or s
            if s is d or s.replacement is True or s.kind not in ("doc", "secret") or not s.concrete:
                continue
            if t is d or t.approx is None or (id(t) not in self.done if self.done is not None else self.reaches(t, d)):
                continue
            out.append(s)
        return out

    def substitution(self, d, src_doc=None, fault=None):
        """One substitution into d (a clean one unless fault says otherwise)."""
        rng = self.rng
        if src_doc is None:
            pool = self.sources(d)
            if not pool:
                return False
            secrets = [x for x in pool if x.kind == "secret"]
            src_doc = rng.choice(secrets) if secrets and rng.random() < 0.35 else rng.choice(pool)
        if src_doc.kind == "secret":
            self.feat("sub-source-secret")
        if src_doc.children:
            self.feat("sub-source-has-children")
        if src_doc.subs:
            self.feat("sub-chain")
        target = src_doc.replaced_by or src_doc
        if target is not src_doc:
            self.feat("sub-source-replaced")
        sdata = target.approx
        src = {"schema": src_doc.schema, "name": src_doc.name}
        v = MISSING
        if not isinstance(sdata, dict):
            src["path"] = rng.choice([".", ".pw", ".x"])
            v = sdata
            self.feat("sub-source-data-non-dict")
        else:
            paths = [s for s in all_paths(sdata) if get_path(sdata, s) is not None]
            if rng.random() < 0.12 or not paths:
                src["path"] = "."
                v = sdata
                self.feat("sub-src-path-root")
            else:
                segs = rng.choice(paths)
                body = path_body(segs)
                w = rng.random()
                src["path"] = body if w < 0.8 else "$" + body if w < 0.9 else body[1:]
                v = get_path(sdata, segs)
                if w >= 0.9:
                    self.feat("sub-src-path-no-dot")
                jp = jp_src(rng, segs, sdata) if rng.random() < 0.3 else None
                if jp and jp[1] is not None:
                    src["path"], v, feat = jp
                    self.feat(feat)
                if isinstance(v, str) and rng.random() < 0.25:
                    if re.search(r"^(.*):(.*)$", v):
                        src["pattern"] = r"^(.*):(.*)$"
                        g = rng.choice([0, 1, 2, MISSING])
                        if g is not MISSING:
                            src["match_group"] = g
                        v = re.search(src["pattern"], v).group(0 if g is MISSING else g)
                    else:
                        src["pattern"] = rng.choice(["e", "nomatch", r"\w+"])
                        m = re.search(src["pattern"], v)
                        v = m.group(0) if m else v
                    self.feat("sub-src-pattern")
        if rng.random() < 0.03 and not fault:
            src["deepcopy"] = rng.random() < 0.5
            self.feat("sub-src-deepcopy-explicit")
        n = rng.choice([1, 1, 1, 1, 2, 3])
        dests = []
        for _ in range(n):
            dest = self.dest(d, v)
            if dest is not None:
                dests.append(dest)
        if not dests:
            return False
        as_list = len(dests) > 1 or rng.random() < 0.1
        if as_list:
            self.feat("sub-dest-list")
        sub = {"src": src, "dest": dests if as_list else dests[0]}
        if rng.random() < 0.5:
            sub = {"dest": sub["dest"], "src": src}
        d.subs.append(sub)
        self.depend(d, target)
        self.feat("substitution")
        return sub

    def dest(self, d, v):
        """One clean destination in d for value v, applied to d.approx; None if none fits."""
        rng = self.rng
        data = d.approx
        unlayered = (d.parent is None or not d.actions) and isinstance(d.data, dict)
        kids = bool(d.children) or d.replaced_by is not None
        if not isinstance(data, dict):
            if v is MISSING or v is None or not v or kids:
                return None
            d.approx = copy_data(v)
            self.feat("sub-dest-root-into-non-dict")
            return {"path": "."}
        # A document with children: keep the paths its children's actions use (written before
        # substitutions were chosen) as they are: only new keys, scalar over scalar, patterns.
        reserved = self.reserved(d) if kids else set()
        for _ in range(6):
            if not kids and rng.random() < 0.12:
                jp = self.jp_dest(data, v)
                if jp is not None:
                    return jp
                continue
            r = rng.random()
            paths = all_paths(data)
            if kids:
                paths = [p for p in paths if not isinstance(get_path(data, p), (dict, list)) and not isinstance(v, (dict, list))]
            if r < 0.25 and paths:
                segs = rng.choice(paths)
                self.feat("sub-dest-existing")
                text = path_body(segs)
            elif r < 0.4:
                segs = rng.choice([(("k", "new"),), (("k", "new"), ("k", "deep")), (("k", "a"), ("k", "new")), (("k", "x"), ("k", "y"))])
                if kids and (segs[0][1] in data or segs[0][1] in reserved):
                    continue
                self.feat("sub-dest-new-map")
                text = path_body(segs)
            elif kids and r < 0.6:
                continue
            elif r < 0.48:
                segs = rng.choice([(("k", "lst"), ("i", 3), ("k", "z")), (("k", "lst"), ("i", 0)), (("k", "l"), ("i", 2)),
                                   (("k", "chart"), ("i", 0), ("k", "values"), ("i", 1), ("k", "k")), (("k", "l"), ("i", 11))])
                self.feat("sub-dest-new-list")
                text = path_body(segs)
            elif r < 0.52:
                key, sub = rng.choice([("a:b", "c"), ("filter:authtoken", "pw"), ("x y", None)])
                q = rng.choice(["'", '"'])
                if key in data and not isinstance(data[key], dict):
                    continue
                text = f".{q}{key}{q}" + (f".{sub}" if sub else "")
                if sub:
                    data.setdefault(key, {})[sub] = copy_data(v)
                else:
                    data[key] = copy_data(v)
                self.feat("sub-dest-quoted-key")
                return {"path": text}
            elif r < 0.6:
                if not (isinstance(v, dict) or (v not in (MISSING, None) and v)):
                    continue
                if isinstance(v, dict):
                    data.update(copy_data(v))
                    self.feat("sub-dest-root-object")
                else:
                    d.approx = copy_data(v)
                    self.feat("sub-dest-root-non-object")
                return {"path": rng.choice([".", ".", "$"])}
            elif r < 0.64:
                segs = (("k", rng.choice(KEYS)),)
                if kids and (segs[0][1] in data or segs[0][1] in reserved):
                    continue
                text = "$" + path_body(segs)
                self.feat("sub-dest-$.x")
            elif r < 0.85:
                key = rng.choice(["url", "conn", "a", "x"])
                pattern = rng.choice(DEST_PATTERNS)
                if unlayered and data.get(key, MISSING) == d.data.get(key, MISSING) and not (kids and (key in data or key in reserved)):
                    d.data[key] = data[key] = rng.choice(TOKEN_STRS)
                elif not isinstance(data.get(key), str):
                    strings = [s for s in all_paths(data) if isinstance(get_path(data, s), str)]
                    if not strings:
                        continue
                    self.feat("sub-dest-pattern")
                    return {"path": path_body(rng.choice(strings)), "pattern": pattern}
                self.feat("sub-dest-pattern")
                self.feat("sub-dest-pattern-value-" + jtype(v) if v is not MISSING else "missing")
                return {"path": "." + key, "pattern": pattern}
            else:
                tok = rng.choice(["TOKEN", "INSERT_PASSWORD_HERE"])
                pattern = rng.choice([tok, tok, "TOK[A-Z]+", "INSERT_[A-Z]+_HERE"])
                key = rng.choice(["tree", "a", "vals"])
                if unlayered and data.get(key, MISSING) == d.data.get(key, MISSING) and not (kids and (key in data or key in reserved)):
                    tree = {"s": f"pre-{tok}", "n": {"s": f"{tok}!", "l": [f"x{tok}", 3, {"deep": tok}]}, "k": 7}
                    if rng.random() < 0.3:
                        tree = [f"a{tok}", {"s": tok}, [tok]]
                    d.data[key], data[key] = copy_data(tree), tree
                    text = "." + key + (".n" if isinstance(tree, dict) and rng.random() < 0.3 else "")
                else:
                    conts = [s for s in all_paths(data) if isinstance(get_path(data, s), (dict, list))]
                    if not conts:
                        continue
                    text = path_body(rng.choice(conts))
                depths = [{"depth": -1}, {"depth": 0}, {"depth": 1}, {"depth": 2}, {"depth": 3}]
                recurse = rng.choice(depths)
                self.feat("sub-dest-recurse-depth-%s" % recurse.get("depth", "none"))
                if pattern != tok:
                    self.feat("sub-dest-recurse-regex-pattern")
                return {"path": text, "pattern": pattern, "recurse": recurse}
            if not creatable(data, segs) or written(segs, v) is MISSING:
                continue
            if segs[-1][0] == "i" and isinstance(v, list):
                self.feat("index-path-write-of-list")
            set_path(data, segs, copy_data(written(segs, v)))
            return {"path": text}
        return None

    def jp_dest(self, data, v):
        """A destination in jsonpath-ng syntax that matches several places (or cannot be
        written through), applied to data as Deckhand's update applies it; None if none fits."""
        rng = self.rng
        if v is MISSING:
            return None
        r = rng.random()
        if r < 0.35:
            keys = [k for k in KEYS if len(all_desc(data, k, [])) >= 1]
            if not keys:
                return None
            k = rng.choice(keys)
            if contains_key_or_string(v, k) or any(k in x for x in all_lists(data)):
                return None
            for holder in all_desc(data, k, []):
                holder[k] = copy_data(v)
            self.feat("jp-dest-descendants")
            return {"path": "$.." + k}
        if r < 0.55:
            lists = [p for p in all_paths(data) if isinstance(get_path(data, p), list) and get_path(data, p)]
            if not lists:
                return None
            segs = rng.choice(lists)
            lst = get_path(data, segs)
            n = len(lst)
            a, b = rng.randrange(n), rng.randrange(n + 1)
            idx = list(range(n))[a:b]
            if not idx or isinstance(v, list) and len(v) < len(idx):
                return None
            items = list(v) if isinstance(v, list) else None
            for i in idx:
                lst[i] = copy_data(items.pop(0) if items is not None else v)
            self.feat("jp-dest-slice" + ("-list-value" if items is not None else ""))
            return {"path": path_body(segs) + "[%d:%d]" % (a, b)}
        if r < 0.75:
            present = [k for k in data if isinstance(k, str) and re.match(r"^[a-z]+$", k)]
            if not present:
                return None
            ks = rng.sample(present, min(len(present), rng.randint(1, 2))) + [JP_ABSENT]
            rng.shuffle(ks)
            for k in ks:
                if k in data:
                    data[k] = copy_data(v)
            self.feat("jp-dest-field-list")
            return {"path": "$." + ",".join(ks)}
        if r < 0.9:
            subs = [(k, c) for k, x in data.items() if isinstance(k, str) and re.match(r"^[a-z]+$", k)
                    and isinstance(x, dict) for c in x if isinstance(c, str) and re.match(r"^[a-z]+$", c)]
            if not subs:
                return None
            _, c = rng.choice(subs)
            for k in list(data):
                if isinstance(data[k], dict) and c in data[k]:
                    data[k] = copy_data(v)
            self.feat("jp-dest-where")
            return {"path": "$.* where " + c}
        # `|` cannot be written through: nothing changes (Deckhand reports nothing).
        present = [x for x in data if isinstance(x, str) and re.match(r"^[a-z]+$", x)]
        if not present:
            return None
        self.feat("jp-dest-union-changes-nothing")
        pair = [rng.choice(present), JP_ABSENT]
        rng.shuffle(pair)
        return {"path": "$." + "|".join(pair)}

    # --- faults

    def fault(self, name):
        rng = self.rng
        docs = [d for d in self.docs if d.kind == "doc"]
        children = [d for d in docs if d.parent is not None and d.selector]
        parents = [d for d in docs if 0 <= self.layer_index(d) < len(self.layers) - 1 and "id" in d.labels]
        lp = next((c for c in self.controls if c.schema.startswith("deckhand/LayeringPolicy")), None)
        if name == "no-layering-policy":
            self.controls = [c for c in self.controls if not c.schema.startswith("deckhand/LayeringPolicy")]
        elif name == "layer-not-in-layerOrder":
            rng.choice(self.docs).layer = rng.choice(["nowhere", "Site", "sites"])
        elif name == "empty-layerOrder":
            lp.data["layerOrder"] = []
        elif name == "second-policy-first":
            self.policy(rng.choice([self.layers[:-1], self.layers[::-1], ["global", "site"]]), second=True, first=True)
        elif name == "parent-other-schema":
            if not children:
                return False
            d = rng.choice(children)
            d.schema = rng.choice([s for s in SCHEMAS if s != d.schema])
        elif name == "parent-same-or-lower-layer":
            if not children:
                return False
            d = rng.choice(children)
            d.layer = rng.choice(self.layers[: self.layer_index(d.parent) + 1])
        elif name == "selector-family-wide":
            if not children:
                return False
            d = rng.choice(children)
            others = [x for x in docs if x.schema == d.schema and x is not d.parent and x is not d]
            if not others:
                return False
            d.parent.labels["wide"] = rng.choice(others).labels["wide"] = "w"
            d.selector = {"wide": "w"}
        elif name == "two-candidates-same-layer":
            if not children:
                return False
            p = rng.choice(children).parent
            twin = self.add(Doc(p.schema, self.new_name("twin"), p.layer))
            twin.labels = dict(p.labels)
            twin.data = self.data()
            twin.abstract = rng.choice([True, MISSING])
        elif name == "candidates-far2-near1":
            if len(self.layers) < 3:
                return False
            schema = rng.choice(SCHEMAS)
            dli = rng.randint(2, len(self.layers) - 1)
            near, far = self.layers[dli - 1], self.layers[rng.randrange(0, dli - 1)]
            grp = self.label_id()
            for layer in [far, far, near] + ([near] if rng.random() < 0.2 else []):
                x = self.add(Doc(schema, self.new_name("cand"), layer))
                x.labels = {"grp": grp, "id": self.label_id()}
                x.data = self.data()
                x.abstract = rng.choice([True, MISSING])
            d = self.add(Doc(schema, self.new_name("leaf"), self.layers[dli]))
            d.selector = {"grp": grp}
            d.data = self.data()
            d.actions = [{"method": "merge", "path": "."}]
        elif name in ("replacement-without-parent", "replacement-other-name", "same-name-as-parent-not-replacement",
                      "same-name-two-layers", "replacement-of-replacement"):
            variant = {"replacement-without-parent": "without-parent", "replacement-other-name": "other-name",
                       "same-name-as-parent-not-replacement": "not-replacement", "same-name-two-layers": "two-layers",
                       "replacement-of-replacement": "of-replacement"}[name]
            return self.replacement(variant)
        elif name == "sub-self":
            d = rng.choice(docs)
            return self.substitution(d, src_doc=d, fault=True)
        elif name == "sub-cycle-2":
            if len(docs) < 2:
                return False
            a, b = rng.sample(docs, 2)
            if not a.concrete or not b.concrete:
                return False
            return self.substitution(a, src_doc=b, fault=True) and self.substitution(b, src_doc=a, fault=True)
        elif name == "sub-parent-from-child":
            cands = [c for c in children if c.concrete]
            if not cands:
                return False
            c = rng.choice(cands)
            return self.substitution(c.parent, src_doc=c, fault=True)
        elif name in ("merge-path-missing-in-child", "action-child-value-null"):
            cands = [d for d in children if isinstance(d.actions, list) and isinstance(d.data, dict)
                     and any(a["method"] in ("merge", "replace") and parse_segs(action_lookup_path(a["path"])) for a in d.actions)]
            if not cands:
                return False
            d = rng.choice(cands)
            a = next(a for a in d.actions if a["method"] in ("merge", "replace") and parse_segs(action_lookup_path(a["path"])))
            segs = parse_segs(action_lookup_path(a["path"]))
            if name == "action-child-value-null":
                set_path(d.data, segs, None)
            else:
                del_path(d.data, segs)
        elif name == "delete-path-missing-in-parent":
            if not children:
                return False
            d = rng.choice(children)
            d.actions = (d.actions if isinstance(d.actions, list) else []) + [{"method": "delete", "path": rng.choice([".nope", ".a.zz", ".l[9]"])}]
        elif name == "delete-after-root-delete":
            if not children:
                return False
            d = rng.choice(children)
            d.actions = [{"method": "delete", "path": "."}, {"method": "delete", "path": rng.choice([".a", ".b"])}]
        elif name == "child-data-null-merge-root":
            if not children:
                return False
            d = rng.choice(children)
            d.data = None
            d.actions = [{"method": "merge", "path": "."}]
        elif name == "bad-action-method":
            if not children:
                return False
            d = rng.choice(children)
            d.actions = (d.actions if isinstance(d.actions, list) else []) + [{"method": rng.choice(["patch", "Merge", "append", "remove"]), "path": "."}]
        elif name in ("sub-source-missing", "sub-source-wrong-schema", "sub-source-abstract"):
            d = rng.choice(self.docs)
            if name == "sub-source-abstract":
                cands = [x for x in docs if x.abstract is True and x is not d and x.replaced_by is None]
                if not cands:
                    return False
                s = rng.choice(cands)
                src = {"schema": s.schema, "name": s.name, "path": "."}
            elif name == "sub-source-missing":
                src = {"schema": rng.choice(SCHEMAS), "name": "missing-doc", "path": "."}
            else:
                s = rng.choice(docs)
                src = {"schema": "other/Schema/v1", "name": s.name, "path": "."}
            d.subs.append({"src": src, "dest": {"path": ".got"}})
        elif name in ("sub-src-path-missing", "sub-src-value-null"):
            d = rng.choice(self.docs)
            pool = [s for s in self.sources(d) if isinstance((s.replaced_by or s).approx, dict)]
            if not pool:
                return False
            s = rng.choice(pool)
            path = rng.choice([".nope", ".a.zz", ".l[9]", "nope"])
            if name == "sub-src-value-null":
                t = s.replaced_by or s
                if t.parent is not None or t.subs:
                    return False
                key = rng.choice(["nul", "a"])
                t.data[key] = None
                path = "." + key
            d.subs.append({"src": {"schema": s.schema, "name": s.name, "path": path}, "dest": {"path": ".got"}})
            self.depend(d, s.replaced_by or s)
        elif name.startswith("sub-dest-") or name in ("sub-src-pattern-non-string", "sub-src-match-group-out-of-range",
                                                      "sub-value-backslash"):
            own = [x for x in self.docs if isinstance(x.data, dict) and (x.parent is None or not x.actions)]
            if not own:
                return False
            d = rng.choice(own)
            pool = [s for s in self.sources(d) if isinstance((s.replaced_by or s).approx, dict)]
            if not pool:
                return False
            s = rng.choice(pool)
            t = s.replaced_by or s
            if t.parent is not None or t.subs:
                return False
            src = {"schema": s.schema, "name": s.name, "path": ".v"}
            t.data["v"] = t.approx["v"] = rng.choice(["val", 5, {"k": 1}, [1, 2], True, 2.5])
            dest = {"path": ".got"}
            if name == "sub-dest-no-leading-dot":
                dest = {"path": rng.choice(["got", "a.b", "data.x"])}
            elif name == "sub-dest-pattern-non-string":
                if not isinstance(d.data, dict) or d.parent is not None:
                    return False
                d.data["tgt"] = rng.choice([5, {"k": "TOKEN"}, ["TOKEN"], None, True])
                dest = {"path": ".tgt", "pattern": "TOKEN"}
            elif name == "sub-dest-pattern-invalid-regex":
                if not isinstance(d.data, dict) or d.parent is not None:
                    return False
                d.data["tgt"] = "a TOKEN"
                dest = {"path": ".tgt", "pattern": rng.choice(["(", "[a-", "*x", "a{2"])}
            elif name == "sub-dest-root-falsy":
                t.data["v"] = rng.choice(["", 0, [], False, 0.0])
                dest = {"path": rng.choice([".", "$"])}
                if rng.random() < 0.3:
                    t.data["v"] = {}
                    self.feat("sub-dest-root-empty-object")
            elif name == "sub-src-pattern-non-string":
                t.data["v"] = rng.choice([5, {"k": 1}, [1, 2], True, None])
                src["pattern"] = "x"
            elif name == "sub-src-match-group-out-of-range":
                t.data["v"] = "repo/app:v3"
                src["pattern"], src["match_group"] = r"^(.*):(.*)$", rng.choice([3, 5])
            elif name == "sub-dest-through-scalar":
                if not isinstance(d.data, dict) or d.parent is not None:
                    return False
                d.data["sc"] = rng.choice(["hello", 5, True])
                dest = {"path": rng.choice([".sc.x", ".sc[1]", ".sc.x.y"])}
            elif name == "sub-dest-quoted-key-with-dot":
                dest = {"path": rng.choice([".'a.b'.c", '."x.y".z'])}
            elif name == "sub-dest-recurse-empty":
                if not isinstance(d.data, dict) or d.parent is not None:
                    return False
                d.data["tgt"] = rng.choice([{"s": "a TOKEN"}, ["TOKEN"], "a TOKEN"])
                dest = {"path": ".tgt", "pattern": "TOKEN", "recurse": {}}
            elif name == "sub-dest-pattern-path-missing":
                dest = {"path": rng.choice([".missing", ".m.missing"]), "pattern": "TOKEN"}
            elif name == "sub-value-backslash":
                if not isinstance(d.data, dict) or d.parent is not None:
                    return False
                t.data["v"] = rng.choice([r"a\1b", r"x\d", "back\\\\slash", r"\g<0>!"])
                d.data["tgt"] = "a TOKEN b"
                dest = {"path": ".tgt", "pattern": "TOKEN"}
            d.subs.append({"src": src, "dest": dest})
            self.depend(d, t)
        elif name == "parent-data-null":
            if not children:
                return False
            d = rng.choice(children)
            d.parent.data = None
            if all(parse_segs(action_lookup_path(a["path"])) == () for a in (d.actions if isinstance(d.actions, list) else [])):
                d.actions = (d.actions if isinstance(d.actions, list) else []) + [{"method": "merge", "path": ".a"}]
                if isinstance(d.data, dict):
                    d.data["a"] = 1
        elif name == "parent-data-non-dict-path-action":
            if not children:
                return False
            d = rng.choice(children)
            d.parent.data = rng.choice([["p", 1], "parent string", 3])
            d.actions = [{"method": rng.choice(["merge", "replace", "delete"]), "path": ".a"}]
            d.data = {"a": {"k": 1}}
        elif name == "layerless-child-with-matching-parent":
            return self.layerless(True)
        elif name == "mixed-key-types-in-child":
            if not children:
                return False
            d = rng.choice(children)
            if not isinstance(d.data, dict):
                return False
            d.data[rng.choice([True, 7])] = self.scalar()
        elif name == "duplicate-schema-layer-name":
            src = rng.choice([d for d in self.docs if d.layer is not None])
            d = Doc(src.schema, src.name, src.layer, src.kind)
            d.labels = dict(src.labels)
            d.selector, d.actions, d.abstract = src.selector, src.actions, src.abstract
            d.data = self.data()
            self.docs.insert(self.docs.index(src) + rng.choice([0, 1]), d)
            self.by_id[id(d)] = d
        else:
            raise ValueError(name)
        return True

    def invalidate(self):
        """One schema violation for --validate."""
        rng = self.rng
        docs = [d for d in self.docs if d.kind != "control"] or self.docs
        d = rng.choice(docs)
        k = rng.choice(VALIDATE_FAULTS)
        if k in ("layerOrder-int", "lp-extra-key", "validation-name") and rng.random() < 0.6:
            k = rng.choice(VALIDATE_FAULTS[:7])
        if rng.random() < 0.02:
            k = "schema-two-parts"
        self.feat("invalid-" + k)
        lp = next((c for c in self.controls if c.schema.startswith("deckhand/LayeringPolicy")), None)
        if k == "schema-v1.0":
            d.schema = d.schema + ".0"
        elif k == "no-storagePolicy":
            d.storage = None
        elif k == "selector-without-actions":
            d.selector = d.selector or {"id": "nope"}
            d.actions = MISSING
        elif k == "actions-without-selector":
            d.selector = None
            d.actions = [{"method": "merge", "path": "."}]
        elif k == "empty-actions":
            d.selector = d.selector or {"id": "nope"}
            d.actions = []
        elif k == "bad-method":
            d.selector = d.selector or {"id": "nope"}
            d.actions = [{"method": "patch", "path": "."}]
        elif k == "extra-top-key":
            d.extra_top = {"status": "draft"}
        elif k == "extra-metadata-key":
            d.extra_meta = {"owner": "me"}
        elif k == "no-layer":
            d.layer_key = False
        elif k == "duplicate":
            self.fault("duplicate-schema-layer-name")
        elif k == "layerOrder-int":
            lp.data["layerOrder"] = lp.data["layerOrder"] + [5]
        elif k == "lp-extra-key":
            lp.data["owner"] = "me"
        elif k == "control-label-int":
            lp.labels = {"n": 5}
        elif k == "dest-without-path":
            d.subs.append({"src": {"schema": "a/B/v1", "name": "n", "path": "."}, "dest": {"pattern": "x"}})
        elif k == "src-extra-key":
            d.subs.append({"src": {"schema": "a/B/v1", "name": "n", "path": ".", "layer": "site"}, "dest": {"path": ".x"}})
        elif k == "recurse-depth-invalid":
            d.subs.append({"src": {"schema": "a/B/v1", "name": "n", "path": "."},
                           "dest": {"path": ".a", "pattern": "x", "recurse": rng.choice([{"depth": -2}, {"depth": "1"}, {"max": 1}, {}])}})
        elif k == "data-date":
            d.data = datetime.date(2024, 5, 6)
        elif k == "name-int":
            d.name = 42
        elif k == "validation-name":
            vp = Doc("deckhand/ValidationPolicy/v1", "vp", None, "control")
            vp.data = {"validations": [{"name": "bogus"}]}
            self.controls.append(vp)
        elif k == "abstract-string":
            d.abstract = "yes-please"
        elif k == "schema-two-parts":
            d.schema = "example/Kind"

    def render_doc(self, d):
        rng = self.rng
        meta = [("schema", d.meta_schema), ("name", d.name)]
        if d.labels:
            meta.append(("labels", dict(d.labels)))
        if d.storage is not None and (rng.random() < 0.9 or self.cur.validate):
            meta.append(("storagePolicy", d.storage))
        if d.layering:
            ld = []
            if d.layer_key:
                ld.append(("layer", d.layer))
            if d.abstract is not MISSING:
                ld.append(("abstract", d.abstract))
            if d.selector is not None:
                ld.append(("parentSelector", dict(d.selector)))
            if d.actions is not MISSING and d.actions is not None:
                ld.append(("actions", [dict(rng.sample(list(a.items()), len(a))) for a in d.actions]))
            rng.shuffle(ld)
            meta.append(("layeringDefinition", dict(ld)))
        if d.replacement is not MISSING:
            meta.append(("replacement", d.replacement))
        if d.subs:
            meta.append(("substitutions", d.subs))
        meta.extend(d.extra_meta.items())
        if rng.random() < 0.7:
            rng.shuffle(meta)
        top = [("schema", d.schema), ("metadata", dict(meta)), ("data", d.data)] + list(d.extra_top.items())
        if rng.random() < 0.4:
            rng.shuffle(top)
        return dict(top)


# ---------------------------------------------------------------------------------------------
# Driver

ERROR_CLASSES = ["LayeringPolicyNotFound", "InvalidDocumentLayer", "InvalidDocumentParent", "IndeterminateDocumentParent",
                 "InvalidDocumentReplacement", "SubstitutionDependencyCycle", "MissingDocumentKey", "UnsupportedActionMethod",
                 "SubstitutionSourceNotFound", "SubstitutionSourceDataNotFound", "UnknownSubstitutionError",
                 "InvalidDocumentFormat"]


def outcome(want):
    if want["ok"]:
        return "success"
    e = want["error"]
    return ("raw " if e.get("raw") else "") + e["class"]


def gen_case(seed, k):
    return Generator(random.Random(f"{seed}:{k}")).make()


def save_case(save, name, text, validate, lenient, want, got):
    os.makedirs(save, exist_ok=True)
    path = os.path.join(save, f"{name}.yaml")
    with open(path, "w") as f:
        f.write(text)
    if validate or lenient:
        with open(os.path.join(save, f"{name}.options.yaml"), "w") as f:
            f.write(("validate: true\n" if validate else "") + ("fail_on_missing_sub_src: false\n" if lenient else ""))
    with open(os.path.join(save, f"{name}.oracle.json"), "w") as f:
        json.dump(want, f, indent=2)
        f.write("\n")
    if got is not None:
        with open(os.path.join(save, f"{name}.strata.txt"), "w") as f:
            f.write(json.dumps(got["documents"], indent=2) if got["ok"] else f"exit {got.get('exit')}\n{got.get('stderr', '')}")
    return path


def replay_inputs(root):
    """(name, path, options path) for every input YAML under root."""
    skip = re.compile(r"(^expected\.yaml$|^options\.yaml$|\.options\.yaml$)")
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for fn in sorted(files):
            if not fn.endswith(".yaml") or skip.search(fn):
                continue
            path = os.path.join(dirpath, fn)
            if fn == "input.yaml":
                yield os.path.relpath(dirpath, root), path, os.path.join(dirpath, "options.yaml")
            else:
                yield os.path.relpath(path, root), path, path[:-5] + ".options.yaml"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__[__doc__.index("The oracle"):],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strata", default=os.path.join(HERE, "..", "target", "release", "strata"))
    ap.add_argument("--save", metavar="DIR", help="write failing cases as DIR/case-K.yaml (+ .options.yaml, .oracle.json, .strata.txt)")
    ap.add_argument("--oracle-only", action="store_true", help="run only Deckhand: outcome distribution and generator coverage")
    ap.add_argument("--replay", metavar="DIR", help="run every input YAML under DIR (conformance cases/NAME/input.yaml "
                    "with options.yaml, or saved case-K.yaml with case-K.options.yaml); checks expected.yaml / "
                    "expected-error.txt against Deckhand when present")
    ap.add_argument("--only", type=int, metavar="K", help="run only case K of --seed")
    ap.add_argument("--show", type=int, default=5, help="print at most this many failures in full (default 5)")
    ap.add_argument("--show-input", action="store_true", help="print every case's YAML (with --only)")
    ap.add_argument("--key-order", action="store_true", help="also require the same key order inside objects")
    ap.add_argument("--no-deepcopy", action="store_true", help="give Deckhand the input unchanged (its default shallow copy)")
    ap.add_argument("--check-aliasing", action="store_true", help="count cases whose Deckhand result changes without deepcopy")
    ap.add_argument("--examples", type=int, default=0, metavar="N", help="list N example cases per outcome")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        sys.exit(worker_main())
    strata = os.path.abspath(args.strata)
    if not args.oracle_only and not os.path.exists(strata):
        sys.exit(f"diff-deckhand: no strata binary at {strata} (cargo build --release, or --strata PATH, or --oracle-only)")
    oracle = Oracle()
    print(f"oracle: Deckhand from {oracle.where}" + ("" if args.no_deepcopy else " (substitution src.deepcopy: true)"))

    stats = collections.Counter()
    outcomes = collections.Counter()
    raw_types = collections.Counter()
    examples = collections.defaultdict(list)
    features = collections.Counter()
    failures = []
    t_oracle = t_strata = 0.0
    shown = 0
    started = time.time()

    if args.replay:
        items = []
        for name, path, opts in replay_inputs(args.replay):
            with open(path) as f:
                text = f.read()
            validate = lenient = False
            if os.path.exists(opts):
                with open(opts) as f:
                    o = oracle.ask({"op": "load", "text": f.read()})
                o = (o.get("documents") or [{}])[0] or {}
                validate, lenient = o.get("validate") is True, o.get("fail_on_missing_sub_src") is False
            items.append((name, text, validate, lenient, path))
    else:
        ks = [args.only] if args.only is not None else range(args.cases)
        items = ((k, None, None, None, None) for k in ks)

    with tempfile.TemporaryDirectory() as tmp:
        for name, text, validate, lenient, path in items:
            expect = None
            if text is None:
                case = gen_case(args.seed, name)
                text, validate, lenient = case.text, case.validate, case.lenient
                intended = canon([d for d in case.docs if d is not None])
                expect = hashlib.sha1(intended.encode()).hexdigest()
                for f in case.features:
                    features[f] += 1
                label = f"case {name} (--seed {args.seed} --only {name})"
            else:
                label = name
            stats["cases"] += 1
            if args.show_input:
                print(f"--- {label}{' --validate' if validate else ''}{' --lenient' if lenient else ''}\n{text}")
            t0 = time.time()
            want = oracle.ask({"text": text, "validate": validate, "lenient": lenient, "expect": expect,
                               "deepcopy": not args.no_deepcopy, "aliasing": args.check_aliasing})
            t_oracle += time.time() - t0
            if want.get("parse_mismatch") or want.get("parse_error"):
                stats["generator bug"] += 1
                got_c = want.get("parse_mismatch") or ""
                i = next((i for i, (x, y) in enumerate(zip(intended, got_c)) if x != y), min(len(intended), len(got_c)))
                print(f"{label}: GENERATOR BUG: PyYAML reads the text differently from what was generated\n{text}\n"
                      f"{want['error']['message'] if want.get('parse_error') else ''}\n"
                      f"  generated ...{intended[max(0, i - 80):i + 80]}\n  read      ...{got_c[max(0, i - 80):i + 80]}\n")
                continue
            if want.get("aliasing_differs"):
                stats["aliasing differs"] += 1
            if want.get("sharing_differs"):
                stats["sharing differs"] += 1
            if want.get("alias_sharing_differs"):
                stats["alias sharing differs"] += 1
            oc = outcome(want)
            outcomes[oc] += 1
            if len(examples[oc]) < args.examples:
                injected = sorted(f for f in (case.features if path is None else ()) if f.startswith(("fault-", "invalid-")))
                examples[oc].append(f"{label} [{', '.join(injected) or 'no injected fault'}]"
                                    + ("" if want["ok"] else f": {want['error']['message'][:300]}"))
            if not want["ok"] and want["error"].get("raw"):
                raw_types[want["error"]["class"]] += 1
            if args.show_input:
                print(f"Deckhand: {oracle_text(want)}")
            if path is not None:
                # harness check against recorded expectations
                base = os.path.dirname(path) if os.path.basename(path) == "input.yaml" else None
                if base and os.path.exists(os.path.join(base, "expected.yaml")):
                    with open(os.path.join(base, "expected.yaml")) as f:
                        exp = oracle.ask({"op": "load", "text": f.read()})["documents"]
                    d = docs_diff(exp, want["documents"], args.key_order) if want["ok"] else f"Deckhand fails: {oracle_text(want)}"
                    stats["expected checked"] += 1
                    if d:
                        stats["expected mismatch"] += 1
                        print(f"{label}: Deckhand differs from expected.yaml: {d}")
                elif base and os.path.exists(os.path.join(base, "expected-error.txt")):
                    with open(os.path.join(base, "expected-error.txt")) as f:
                        cls = f.readline().strip()
                    stats["expected checked"] += 1
                    if want["ok"] or want["error"]["class"] != cls:
                        stats["expected mismatch"] += 1
                        print(f"{label}: Deckhand gives {oracle_text(want)}, expected-error.txt says {cls}")
            if args.oracle_only:
                continue
            fpath = os.path.join(tmp, "input.yaml")
            with open(fpath, "w") as f:
                f.write(text)
            t0 = time.time()
            got = run_strata(strata, fpath, validate, lenient)
            t_strata += time.time() - t0
            kind, detail = verdict(want, got, args.key_order)
            stats[kind] += 1
            if kind != "fail":
                continue
            failures.append(label)
            saved = save_case(args.save, f"case-{name}" if path is None else re.sub(r"[^A-Za-z0-9_.-]+", "_", name),
                              text, validate, lenient, want, got) if args.save else None
            if shown < args.show:
                shown += 1
                flags = (" --validate" if validate else "") + (" --allow-missing-substitution-source" if lenient else "")
                print(f"{label} differs{flags}")
                print(f"input: {saved}" if saved else text.rstrip("\n"))
                print(f"  Deckhand: {oracle_text(want)}\n  strata:   {strata_text(got)}\n  {detail}\n")

    oracle.close()
    elapsed = time.time() - started
    n = stats["cases"]
    if args.oracle_only or args.replay or args.show_input:
        print(f"\noutcomes (Deckhand) over {n} cases:")
        for oc, c in sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {c:6d} {100.0 * c / max(n, 1):5.1f}%  {oc}")
            if args.examples:
                for e in examples[oc]:
                    print(f"           e.g. {e}")
        missing = [e for e in ERROR_CLASSES if e not in outcomes]
        if missing and not args.replay:
            print(f"  never: {', '.join(missing)}")
        if features:
            print("feature coverage (cases with the feature):")
            for f, c in sorted(features.items()):
                print(f"  {c:6d}  {f}")
    if args.check_aliasing:
        print(f"{stats['aliasing differs']} of {n} cases render differently with Deckhand's default shallow copy "
              "of substitution values (strata copies deeply: docs/frontends/deckhand.md)")
        print(f"{stats['sharing differs']} of {n} cases render differently when a value written at several matches "
              "is one object (Deckhand) rather than a copy at each (strata)")
    if stats["alias sharing differs"]:
        print(f"{stats['alias sharing differs']} cases render differently when YAML aliases are one object (Deckhand) "
              "and when they are copies (strata); compared with the copies' render")
    if stats["generator bug"]:
        print(f"{stats['generator bug']} GENERATOR BUGS (YAML text does not read back as generated)")
    if args.replay and stats["expected checked"]:
        print(f"recorded expectations: {stats['expected checked'] - stats['expected mismatch']} of "
              f"{stats['expected checked']} reproduced by Deckhand")
    print(f"time: Deckhand {t_oracle:.1f}s, strata {t_strata:.1f}s, total {elapsed:.1f}s "
          f"({1000.0 * elapsed / max(n, 1):.1f} ms per case)")
    if not args.oracle_only:
        passed = stats["pass"] + stats["pass-raw"]
        print(f"{passed} passed, {stats['fail']} failed ({stats['pass-raw']} passed where Deckhand crashed with a raw "
              f"Python exception and strata reported an error)")
        if failures and len(failures) > shown:
            print("failing: " + ", ".join(str(f) for f in failures[:50]) + (" ..." if len(failures) > 50 else ""))
    bad = stats["fail"] or stats["generator bug"] or stats["expected mismatch"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
