#!/usr/bin/env bash
# Ardana benchmark (docs/PERF.md, "Ardana"): a generated input model of SERVERS servers spread
# over FILES files (servers split evenly, plus networks, disk-models split one per file,
# interface models, a pass-through file and dictionary sections; scripts/gen-ardana-bench.py,
# seeded). For each size:
#   * floor: `tools floor` runs strata's YAML parser alone over the same files (no values);
#   * strata: `strata ardana read DIR` (and `validate`, and read --explain), output to /dev/null;
#   * service: the Ardana service's read_model through ../shared/oracles/ardana.py, when its
#     venv exists (NO_ORACLE=1 skips it).
# Every timing: wall time around `/usr/bin/time -v` (peak RSS), median of RUNS (service: one).
#
#   scripts/bench-ardana.sh      # BENCH_DIR (default /tmp/strata-bench), RUNS (5),
#                                # SIZES ("5000x200 2500x100 10000x400"), NO_BUILD=1
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-/tmp/strata-bench}
RUNS=${RUNS:-5}
SIZES=${SIZES:-"5000x200 2500x100 10000x400"}
ORACLE_VENV_DIR=${ORACLE_VENV_DIR:-/work/oracles/venvs}
export ARDANA_SRC=${ARDANA_SRC:-/work/oracles/ardana-src}
ORACLE_SCRIPT=${ORACLE_SCRIPT:-$ROOT/../shared/oracles/ardana.py}
CARGO=${CARGO:-cargo}
mkdir -p "$WORK"

if [ "${NO_BUILD:-}" != 1 ]; then
  (cd "$ROOT" && $CARGO build --release --quiet)
fi
STRATA=$ROOT/target/release/strata
# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
TOOLS=$(tools_bin "$ROOT" $CARGO)
[ -x "$TOOLS" ] || { echo "bench-ardana.sh: could not build the tools bench" >&2; exit 1; }

echo "# strata ardana bench $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(cd "$ROOT" && git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| servers x files | input | floor (parse only) | read | read / floor | read peak RSS | validate | read --explain | service read_model |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for size in $SIZES; do
  servers=${size%x*}
  files=${size#*x}
  dir=$WORK/ardana/s$servers-f$files
  python3 "$ROOT/scripts/gen-ardana-bench.py" "$dir" "$servers" "$files" >&2
  mapfile -t ymls < <(find "$dir" -name '*.yml' | sort)
  bytes=$(cat "${ymls[@]}" | wc -c)
  mib=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1048576 }')
  read -r floor_s _ < <(measure "$RUNS" "$TOOLS" floor "${ymls[@]}")
  read -r read_s read_mib < <(measure "$RUNS" "$STRATA" ardana read "$dir")
  read -r val_s _ < <(measure "$RUNS" "$STRATA" ardana validate "$dir")
  read -r explain_s explain_mib < <(measure "$RUNS" "$STRATA" ardana read --explain "$dir")
  oracle="(not run)"
  if [ "${NO_ORACLE:-}" != 1 ] && [ -x "$ORACLE_VENV_DIR/ardana/bin/python" ]; then
    read -r oracle_s oracle_mib < <(measure 1 "$ORACLE_VENV_DIR/ardana/bin/python" "$ORACLE_SCRIPT" read "$dir")
    oracle="${oracle_s} s, ${oracle_mib} MiB"
  fi
  ratio=$(awk -v a="$read_s" -v b="$floor_s" 'BEGIN { printf "%.2fx", a / b }')
  echo "| $servers x $files | $mib MiB | ${floor_s} s | ${read_s} s | $ratio | ${read_mib} MiB | ${val_s} s | ${explain_s} s, ${explain_mib} MiB | $oracle |"
done
