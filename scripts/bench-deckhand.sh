#!/usr/bin/env bash
# Deckhand benchmark (docs/PERF.md, "Deckhand"): W4, a generated Airship-like site of 10 000
# documents over four layers (30 % with substitutions), and the same at 20 000 for the
# doubling check, written by `tools deckhand` (benches/gen/deckhand.rs, seeded). For each size:
#   * floor: `tools floor` runs strata's YAML parser alone over the same bytes (no values built);
#   * strata: `strata deckhand site.yaml` (and with --explain), output to /dev/null;
#   * deckhand: the real engine on the same file through /work/shared/oracles/deckhand.py
#     (its import of Deckhand's modules is part of the time), when its virtualenv exists.
# Every timing: wall time around `/usr/bin/time -v` (peak RSS), median of RUNS (deckhand: one).
#
#   scripts/bench-deckhand.sh            # needs the release build; BENCH_DIR (default
#                                        # /tmp/strata-bench), RUNS (5), SIZES ("10000 20000")
# Oracle: ORACLE_VENV_DIR (default /work/oracles/venvs), DECKHAND_SRC (/work/oracles/deckhand-src),
# ORACLE_SCRIPT (/work/shared/oracles/deckhand.py); NO_ORACLE=1 skips it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-/tmp/strata-bench}
RUNS=${RUNS:-5}
SIZES=${SIZES:-"10000 20000"}
ORACLE_VENV_DIR=${ORACLE_VENV_DIR:-/work/oracles/venvs}
export DECKHAND_SRC=${DECKHAND_SRC:-/work/oracles/deckhand-src}
ORACLE_SCRIPT=${ORACLE_SCRIPT:-/work/shared/oracles/deckhand.py}
mkdir -p "$WORK"
say() { printf '== %s\n' "$*" >&2; }

say "building (release)"
(cd "$ROOT" && cargo build --release --quiet)
STRATA=$ROOT/target/release/strata
# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
TOOLS=$(tools_bin "$ROOT" cargo)
[ -x "$TOOLS" ] || { echo "bench-deckhand.sh: could not build the tools bench" >&2; exit 1; }

# shellcheck disable=SC2086
"$TOOLS" deckhand "$WORK/data" $SIZES >&2

echo "# strata deckhand bench $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(cd "$ROOT" && git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| documents | input | floor (parse only) | strata | strata / floor | strata peak RSS | RSS / input | strata --explain | Deckhand engine |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for n in $SIZES; do
  f=$WORK/data/w4/n$n/site.yaml
  bytes=$(wc -c <"$f")
  mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
  read -r floor_s _ < <(measure "$RUNS" "$TOOLS" floor "$f")
  read -r strata_s strata_mib < <(measure "$RUNS" "$STRATA" deckhand "$f")
  read -r explain_s explain_mib < <(measure "$RUNS" "$STRATA" deckhand --explain "$f")
  oracle="(not run)"
  if [ "${NO_ORACLE:-}" != 1 ] && [ -x "$ORACLE_VENV_DIR/deckhand/bin/python" ]; then
    read -r oracle_s oracle_mib < <(measure 1 "$ORACLE_VENV_DIR/deckhand/bin/python" "$ORACLE_SCRIPT" "$f")
    oracle="${oracle_s} s, ${oracle_mib} MiB"
  fi
  ratio=$(awk -v a="$strata_s" -v b="$floor_s" 'BEGIN { printf "%.2fx", a / b }')
  rss_ratio=$(awk -v a="$strata_mib" -v b="$mib" 'BEGIN { printf "%.2fx", a / b }')
  echo "| $n | $mib MiB | ${floor_s} s | ${strata_s} s | $ratio | ${strata_mib} MiB | $rss_ratio | ${explain_s} s, ${explain_mib} MiB | $oracle |"
done
