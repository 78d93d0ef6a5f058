#!/usr/bin/env python3
"""Readback differential (issue 35): random layers written as text with everything the writer
keeps — plain spellings in flow and block context, every block scalar header, comments at every
column, blank lines, tags, anchors and aliases, odd keys, odd line breaks — merged by
`strata merge` (and `strata cloud-init` with --cloud-init); PyYAML reads the default output, the
`--explain` output and the `--no-comments` output, and all three must be the same data (typed:
1, 1.0 and True differ; bytes, sets, tuples and dates are kept). `--no-comments` writes every
value afresh, so it is the reference for what was rendered; when strata refuses the layers
(exit 1), every mode must refuse them. Developer tool, not CI (tests/integration/readback.rs
runs the same kind of cases through strata's own loader in CI).

    cargo build --release
    python3 scripts/readback.py --cases 3000 --seed 1 [--bin target/release/strata] [--keep DIR]

The seed is printed; a failing case is written to DIR (default: a temp folder) and named.
"""
import argparse, os, random, subprocess, sys, tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from yamltext import typed  # noqa: E402  (shared with diff-cloud-init.py)

WORDS = ["a", "b", "c", "name", "x-y", "k1", "on", "yes", "~", "null", "0755", "1:30", "-", "-x",
         "?q", ":c", "a:b", "2024-01-02", "1e3", ".5", "-.5", "1_000", "0x1F", "0o17", "+1",
         ".nan", ".inf", "true", "NO", "y", "<<", "=", "é", "a b", "x#y", "[", "]"]
PLAIN = ["x", "y", "hello world", "-", "-x", "- ", "a:b", "yes", "no", "on", "Off", "~", "null",
         "", "0755", "0o17", "0x1F", "1_000", "1:30", "22:22", "190:20:30", "-.5", ".5", "1e3",
         "1.0", "3.", ".inf", "-.Inf", ".NaN", "2024-01-02", "2001-12-14 21:59:43.10 -5",
         "=", "<<", "é", "a,b", "a]b", "?x", ":x", "...x", "---x", "a#b", "tab\tx", "12",
         "-12", "+12",
         "012", "08", "0b101", "TRUE", "y", "n", "Yes", "1.5e+3", "0.", "-0"]
QUOTED = ["'x'", "'it''s'", '"a\\nb"', '"\\t"', "'yes'", '"0755"', "''", '""', "'-'",
          '"\\x01"', '"\\u0085"', '"\\u2028x"', '"\\N"', '"\\L"', "'# not'", "'a: b'",
          '"\\e"', '"multi\n  line"', "'two\n\n  lines'", '"\\ttab"']
BLOCK_BODIES = [["x"], ["x", "y"], ["x", "", "y"], ["  indented", "x"], ["x", "  more"],
                ["# not a comment"], [], [""], ["x", ""], ["x", "", ""], ["- a"], ["a: b"],
                ["x", "  # deep"], ["tab\tx"]]
HEADERS = ["|", "|-", "|+", ">", ">-", ">+", "|2", ">1-"]


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.anchors = []
        self.nanchor = 0

    def comment(self):
        r = self.rng
        return r.choice(["# note", "#c", "# - x", "# a: b", "#", "# |", "# ---"])

    def key(self):
        r = self.rng
        k = r.choice(WORDS)
        if r.random() < 0.15:
            k = r.choice(["'" + k + "'", '"' + k + '"'])
        elif not is_plain_key(k):
            k = "'" + k.replace("'", "''") + "'"
        return k

    def scalar_text(self, flow):
        r = self.rng
        c = r.random()
        if c < 0.55:
            s = r.choice(PLAIN)
            if flow and (any(ch in s for ch in ",[]{}") or s.startswith((":", "?"))):
                s = "x"
            return s
        if c < 0.8:
            return r.choice(QUOTED)
        if c < 0.9 and self.anchors:
            return "*" + r.choice(self.anchors)
        return r.choice(["!!str " + r.choice(["1", "yes", "-x"]), "!!int 010", "!!float 1",
                         "!!binary aGVsbG8=", "!!bool yes", "!!null ''"])

    def flow(self, depth):
        r = self.rng
        items = []
        kind = r.choice(["seq", "map"])
        for _ in range(r.randint(0, 3)):
            if depth > 0 and r.random() < 0.3:
                v = self.flow(depth - 1)
            else:
                v = self.scalar_text(True)
            if kind == "map":
                items.append(f"{self.key()}: {v}")
            else:
                items.append(v)
        sep = r.choice([", ", ",", ",\n  "])
        body = sep.join(items)
        tag = r.choice(["", "", "", "!!seq " if kind == "seq" else "!!map ", "!!omap ",
                        "!!pairs ", "!!set "])
        if tag in ("!!omap ", "!!pairs "):
            kind = "seq"
            keys = list(dict.fromkeys(self.key() for _ in items))
            body = sep.join(f"{k}: {self.scalar_text(True)}" for k in keys)
        if tag == "!!set ":
            kind = "map"
            keys = list(dict.fromkeys(self.key() for _ in items))
            body = sep.join(keys)
        return tag + ("[" + body + "]" if kind == "seq" else "{" + body + "}")

    def block_scalar(self, indent):
        r = self.rng
        h = r.choice(HEADERS)
        body = r.choice(BLOCK_BODIES)
        extra = 2
        if any(ch.isdigit() for ch in h):
            extra = int("".join(ch for ch in h if ch.isdigit()))
            if body and body[0].startswith(" ") is False and any(l.startswith(" ") for l in body):
                pass
        cmt = (" " + self.comment()) if r.random() < 0.2 else ""
        lines = [h + cmt]
        for l in body:
            lines.append((" " * (indent + extra) + l) if l else r.choice(["", " " * (indent + extra + r.randint(0, 2))]))
        return "\n".join(lines)

    def value(self, indent, depth):
        """Text after `key:` (starting with a space or a line break)."""
        r = self.rng
        c = r.random()
        anchor = ""
        if r.random() < 0.1:
            self.nanchor += 1
            anchor = f" &a{self.nanchor}"
        v = self.value_body(indent, depth, anchor)
        if anchor:
            self.anchors.append(anchor[2:])
        return v

    def value_body(self, indent, depth, anchor):
        r = self.rng
        c = r.random()
        if depth > 0 and c < 0.3:
            return anchor + "\n" + self.mapping(indent + 2, depth - 1)
        if depth > 0 and c < 0.45:
            return anchor + "\n" + self.sequence(indent + r.choice([0, 2]), depth - 1)
        if c < 0.6:
            return anchor + " " + self.flow(1)
        if c < 0.72:
            return anchor + " " + self.block_scalar(indent)
        if c < 0.75:
            return anchor
        if c < 0.8 and self.anchors and not anchor:
            return " *" + r.choice(self.anchors)
        s = self.scalar_text(False)
        if "\n" in s:
            s = s.replace("\n", "\n" + " " * (indent + 2))
        return anchor + " " + s

    def trivia(self, indent):
        r = self.rng
        out = []
        for _ in range(r.choice([0, 0, 0, 1, 1, 2])):
            if r.random() < 0.3:
                out.append(r.choice(["", "  "]))
            else:
                out.append(" " * r.randint(0, indent + 6) + self.comment())
        return out

    def mapping(self, indent, depth):
        r = self.rng
        lines = []
        seen = set()
        for _ in range(r.randint(1, 4)):
            k = self.key()
            if k in seen:
                continue
            seen.add(k)
            lines.extend(self.trivia(indent))
            if r.random() < 0.06 and self.anchors:
                lines.append(" " * indent + "<<: *" + r.choice(self.anchors))
                continue
            v = self.value(indent, depth)
            tail = ("  " + self.comment()) if r.random() < 0.15 and "\n" not in v else ""
            lines.append(" " * indent + k + ":" + v + tail)
        return "\n".join(lines)

    def sequence(self, indent, depth):
        r = self.rng
        lines = []
        for _ in range(r.randint(1, 3)):
            lines.extend(self.trivia(indent))
            c = r.random()
            if depth > 0 and c < 0.25:
                body = self.mapping(indent + 2, depth - 1)
                lines.append(" " * indent + "- " + body.lstrip(" "))
            elif c < 0.45:
                lines.append(" " * indent + "- " + self.flow(1))
            elif c < 0.6:
                lines.append(" " * indent + "- " + self.block_scalar(indent))
            else:
                s = self.scalar_text(False)
                lines.append(" " * indent + "- " + s.replace("\n", "\n" + " " * (indent + 2)))
        return "\n".join(lines)

    def layer(self):
        self.anchors = []
        r = self.rng
        head = "\n".join(self.trivia(0))
        body = self.mapping(0, 3)
        tail = "\n".join(self.trivia(0))
        text = (head + "\n" if head else "") + body + "\n" + (tail + "\n" if tail else "")
        if r.random() < 0.1:
            text = r.choice(["{a: [-]}\n", "a: {v: -}\n", "- x\n- -x\n", "--- |\n  doc\n"]) + ""
        return text


def is_plain_key(k):
    return k not in ("", "-", "[", "]", "?q") and not k.startswith(("-", "?", ":", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", '"', "%", "@", "`", ",")) and ": " not in k and " #" not in k


def load(text):
    try:
        return ("ok", [typed(d) for d in yaml.safe_load_all(text)])
    except yaml.YAMLError as e:
        return ("error", str(e).splitlines()[0])
    except (RecursionError, ValueError, TypeError) as e:
        return ("error", repr(e))


def run(bin_, args, cwd):
    p = subprocess.run([bin_] + args, capture_output=True, cwd=cwd, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "strata"))
    ap.add_argument("--keep", default=None)
    ap.add_argument("--cloud-init", action="store_true")
    ap.add_argument("--stop", type=int, default=5, help="stop after this many failures")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    print(f"readback: seed {seed}, {a.cases} cases, {a.bin}", flush=True)
    rng = random.Random(seed)
    keep = a.keep or tempfile.mkdtemp(prefix="readback-")
    os.makedirs(keep, exist_ok=True)
    fails = refused = 0
    with tempfile.TemporaryDirectory() as d:
        for case in range(a.cases):
            g = Gen(rng)
            names = []
            for i in range(rng.randint(1, 3)):
                text = g.layer()
                if a.cloud_init:
                    text = "#cloud-config\n" + text
                name = f"l{i}.yaml"
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
                names.append(name)
            sub = ["cloud-init"] if a.cloud_init else ["merge"]
            results = {}
            for mode, extra in (("plain", []), ("no-comments", ["--no-comments"]),
                                ("explain", ["--explain"])):
                code, out, err = run(a.bin, sub + extra + names, d)
                if "panicked" in err or code not in (0, 1):
                    results[mode] = ("crash", code, err)
                elif code == 1:
                    results[mode] = ("refused", err.splitlines()[0] if err else "")
                else:
                    results[mode] = load(out) + (out,)
            ref = results["no-comments"]
            bad = []
            if ref[0] == "refused":
                refused += 1
            for mode in ("plain", "explain"):
                got = results[mode]
                if got[0] == "crash" or ref[0] == "crash":
                    bad.append(f"{mode}: crash {got}")
                elif ref[0] == "refused" or got[0] == "refused":
                    if ref[0] != got[0]:
                        bad.append(f"{mode}: {got[0]} vs no-comments {ref[0]}")
                elif ref[0] == "error":
                    bad.append(f"no-comments output does not load: {ref[1]}")
                elif got[0] == "error":
                    bad.append(f"{mode}: output does not load: {got[1]}")
                elif got[1] != ref[1]:
                    bad.append(f"{mode}: reads as other data than --no-comments")
            if bad:
                fails += 1
                cdir = os.path.join(keep, f"case-{seed}-{case}")
                os.makedirs(cdir, exist_ok=True)
                for n in names:
                    with open(os.path.join(d, n)) as src, open(os.path.join(cdir, n), "w") as dst:
                        dst.write(src.read())
                for mode, r in results.items():
                    if r[0] in ("ok", "error"):
                        with open(os.path.join(cdir, f"out-{mode}.yaml"), "w") as f:
                            f.write(r[-1])
                print(f"FAIL case {case} ({cdir}): " + "; ".join(bad), flush=True)
                if fails >= a.stop:
                    break
    print(f"readback: seed {seed}: {case + 1} cases, {fails} failed, {refused} refused by strata")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
