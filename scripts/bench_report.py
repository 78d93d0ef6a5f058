#!/usr/bin/env python3
"""Turns scripts/bench.sh's results.tsv into Markdown tables and checks the targets of issue 6.
Usage: bench_report.py results.tsv"""
import sys

NAMES = {
    "w1": "W1 `merge a b` (deep maps)",
    "w2": "W2 `cloud-init` parts",
    "w3": "W3 `merge --rules` (DeepTuple by name)",
}


def main():
    lines = open(sys.argv[1]).read().splitlines()
    title = lines[0].lstrip("# ")
    rows = {}
    for line in lines[2:]:
        wl, scale, tool, size, runs, med, rss, status = line.split("\t")
        rows[(wl, scale, tool)] = {
            "bytes": int(size),
            "runs": int(runs),
            "s": float(med) if med else None,
            "kb": int(float(rss)) if rss else None,
            "status": status,
        }
    out = [f"Run: {title}", ""]
    scales = sorted({int(k[1]) for k in rows if k[0] != "small"})
    top = str(scales[-1]) if scales else "16"
    checks = []

    def get(wl, scale, tool):
        r = rows.get((wl, str(scale), tool))
        return r if r and r["s"] is not None and r["status"] == "ok" else None

    for wl in ("w1", "w2", "w3"):
        strata = get(wl, top, "strata")
        if not strata:
            continue
        floor = get(wl, top, "floor")
        sj = get(wl, top, "strata-json")
        mb = strata["bytes"] / 1e6
        out += [
            f"### {NAMES[wl]}, x{top} ({mb:.1f} MB of YAML input)",
            "",
            "| tool | runs | median wall | peak RSS | RSS / input | × floor | tool / strata |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        fastest = {}
        for (w, sc, tool), r in sorted(rows.items(), key=lambda kv: (kv[1]["s"] is None, kv[1]["s"] or 0)):
            if w != wl or sc != top:
                continue
            if r["s"] is None or r["status"] != "ok":
                out.append(f"| {tool} | – | {r['status']} | | | | |")
                continue
            base = sj if "(json)" in tool and sj else strata
            ratio = r["s"] / base["s"]
            vs_floor = f"{r['s'] / floor['s']:.2f}" if floor else ""
            rss = r["kb"] / 1024
            out.append(
                f"| {tool} | {r['runs']} | {r['s']:.3f} s | {rss:.0f} MiB | {rss * 1.048576 / mb:.2f} |"
                f" {vs_floor} | {ratio:.1f}{' (vs strata on JSON)' if base is sj and base is not strata else ''} |"
            )
            if tool.startswith("peer:"):
                kind = "json" if "(json)" in tool else "yaml"
                if kind not in fastest or ratio < fastest[kind][1]:
                    fastest[kind] = (tool, ratio)
        out.append("")
        if floor:
            f = strata["s"] / floor["s"]
            checks.append((f"{wl}: strata within 2.5× of the parse floor", f <= 2.5, f"{f:.2f}×"))
            checks.append((f"{wl}: strata within 1.3× of the single-thread parse floor (issue 19)", f <= 1.3, f"{f:.2f}×"))
        j1 = get(wl, top, "strata-j1")
        if j1:
            checks.append((f"{wl}: --jobs 1 / default jobs", True, f"{j1['s'] / strata['s']:.2f}× ({j1['s']:.3f} s vs {strata['s']:.3f} s)"))
        for kind, what in (("yaml", "reading the same YAML"), ("json", "on the JSON twins")):
            if kind in fastest:
                tool, ratio = fastest[kind]
                checks.append((f"{wl}: ≥ 20× faster than the fastest peer {what}", ratio >= 20, f"{tool} {ratio:.1f}×"))
        if wl == "w1":
            ratio = strata["kb"] * 1024 / strata["bytes"]
            checks.append(("w1: peak RSS ≤ 3× input", ratio <= 3, f"{ratio:.2f}×"))
            if j1:
                ratio = j1["kb"] * 1024 / j1["bytes"]
                checks.append(("w1: peak RSS ≤ 3× input with --jobs 1", ratio <= 3, f"{ratio:.2f}×"))

    out += [
        "### Scaling (median wall time; x16 = the full workload)",
        "",
        "| workload | tool | " + " | ".join(f"x{s}" for s in scales) + f" | x{scales[-1]} / x{scales[0]} |",
        "| --- | --- | " + " | ".join("---:" for _ in scales) + " | ---: |",
    ]
    for wl in ("w1", "w2", "w3"):
        for tool in ("floor", "strata", "strata-j1", "strata-json", "strata-explain"):
            vals = [get(wl, s, tool) for s in scales]
            if not all(vals):
                continue
            growth = vals[-1]["s"] / vals[0]["s"]
            out.append(
                f"| {wl} | {tool} | "
                + " | ".join(f"{v['s']:.3f} s" for v in vals)
                + f" | {growth:.1f}× (input {vals[-1]['bytes'] / vals[0]['bytes']:.1f}×) |"
            )
            if tool == "strata" and len(scales) > 1:
                limit = 18 * (scales[-1] / scales[0]) / 16
                checks.append((f"{wl}: x{scales[0]} → x{scales[-1]} within {limit:.0f}×", growth <= limit, f"{growth:.1f}×"))
    out.append("")

    plain = [get("w1", s, "strata") for s in scales]
    expl = [get("w1", s, "strata-explain") for s in scales]
    if all(plain) and all(expl):
        out += ["### `--explain` on W1", "", "| scale | plain | --explain | ratio | RSS plain | RSS explain |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for s, p, e in zip(scales, plain, expl):
            out.append(
                f"| x{s} | {p['s']:.3f} s | {e['s']:.3f} s | {e['s'] / p['s']:.2f} | {p['kb'] / 1024:.0f} MiB | {e['kb'] / 1024:.0f} MiB |"
            )
        out.append("")
        r = expl[-1]["s"] / plain[-1]["s"]
        checks.append(("w1: --explain ≤ 2× plain render", r <= 2, f"{r:.2f}×"))
        checks.append(("w1: --explain ≤ 1.5× plain render (issue 19)", r <= 1.5, f"{r:.2f}×"))

    diffs = [get("w1", s, "strata-diff") for s in scales]
    if all(expl) and all(diffs):
        out += ["### `strata diff` on W1 (1 % of the leaves changed)", "", "| scale | --explain render | diff | ratio | RSS diff |", "| --- | ---: | ---: | ---: | ---: |"]
        for s, e, d in zip(scales, expl, diffs):
            out.append(f"| x{s} | {e['s']:.3f} s | {d['s']:.3f} s | {d['s'] / e['s']:.2f} | {d['kb'] / 1024:.0f} MiB |")
        out.append("")
        r = diffs[-1]["s"] / expl[-1]["s"]
        checks.append(("w1: diff ≤ 3× an --explain render (issue 18)", r <= 3, f"{r:.2f}×"))

    small = rows.get(("small", "1", "strata"))
    if small:
        out += [
            f"Small render (README example, {small['bytes']} bytes): median {small['s'] * 1000:.1f} ms"
            f" over {small['runs']} runs (fork/exec included), peak RSS {small['kb'] / 1024:.1f} MiB.",
            "",
        ]
        checks.append(("small render < 10 ms", small["s"] < 0.010, f"{small['s'] * 1000:.1f} ms"))

    out += ["### Targets", "", "| target | met | measured |", "| --- | --- | --- |"]
    for name, ok, val in checks:
        out.append(f"| {name} | {'yes' if ok else '**no**'} | {val} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
