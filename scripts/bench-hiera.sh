#!/usr/bin/env bash
# Hiera benchmark (docs/PERF.md, "Hiera (issue 15)"): generated Hiera 5 sites of LEVELS levels
# × KEYS keys per level (scripts/gen-hiera-bench.py, seeded: fact-interpolated paths
# nodes/%{trusted.certname}, role/%{facts.role}, ..., common.yaml with lookup_options of deep,
# unique and hash merges and a regex entry; scalars, small maps, lists, a few %{facts.x}
# values). The main size is 6 × 10 000; 6 × 5 000, 6 × 20 000, 3 × 10 000 and 12 × 10 000
# check growth in keys and in levels. For each size:
#   * whole document: `strata lookup --hiera hiera.yaml --facts facts.yaml` (no KEY);
#   * one key: the same with KEY = a deep-merged key found on every level
#     (profile::m100::settings) and a plain first-found key on the node level
#     (profile::m101::version), with the indexes the whole-document run kept (in
#     $BENCH_DIR/hiera/cache) and, for the deep key, without (STRATA_CACHE_DIR=); the deep
#     key also as the mean of 50 back-to-back runs without time(1) around them;
#   * puppet: `puppet lookup --hiera_config=... --facts ... --render-as json KEY` for the deep
#     key, the command /work/shared/oracles/hiera.py runs (called directly: the oracle also
#     runs --explain and writes expected files), one run; its answer is compared with strata's.
# Every timing: wall time (bash $EPOCHREALTIME) around `/usr/bin/time -v` (peak RSS), median
# of RUNS; output to /dev/null. The header gives the floor of that harness (/bin/true).
#
#   scripts/bench-hiera.sh               # BENCH_DIR (default /tmp/strata-bench), RUNS (5),
#                                        # SIZES ("6x10000 6x5000 6x20000 3x10000 12x10000")
# Build: `cargo build --release` first unless NO_BUILD=1 (CARGO names the cargo to run, e.g. a
# locking wrapper); STRATA overrides the binary. PUPPET (default /usr/bin/puppet); NO_PUPPET=1
# skips it. INSTR=1 adds callgrind instruction counts of the whole-document run (slow, load
# independent: the linearity check on a shared machine).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-/tmp/strata-bench}/hiera
RUNS=${RUNS:-5}
SIZES=${SIZES:-"6x10000 6x5000 6x20000 3x10000 12x10000"}
PUPPET=${PUPPET:-/usr/bin/puppet}
STRATA=${STRATA:-$ROOT/target/release/strata}
GEN=$ROOT/scripts/gen-hiera-bench.py
mkdir -p "$WORK"
say() { printf '== %s\n' "$*" >&2; }

if [ "${NO_BUILD:-}" != 1 ]; then
  say "building (release)"
  (cd "$ROOT" && ${CARGO:-cargo} build --release --quiet)
fi
[ -x "$STRATA" ] || { echo "bench-hiera.sh: no binary $STRATA" >&2; exit 1; }

# Data: regenerated when the generator changes (its checksum is kept next to the data).
gen_sum=$(sha256sum "$GEN" | cut -d' ' -f1)
for size in $SIZES; do
  d=$WORK/L${size%x*}-K${size#*x}
  if [ "$(cat "$d/.generator" 2>/dev/null)" != "$gen_sum" ]; then
    say "generating $d"
    rm -rf "$d"
    python3 "$GEN" "$d" "${size%x*}" "${size#*x}"
    echo "$gen_sum" >"$d/.generator"
  fi
done

# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
instr() { # instr CMD...: callgrind's instruction count, in millions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null </dev/null |
    awk '/Collected :/ { printf "%.0f", $4 / 1e6 }'
}

# Kept indexes (docs/frontends/hiera.md) go to the bench's own cache folder, emptied first.
export STRATA_CACHE_DIR=$WORK/cache
rm -rf "$STRATA_CACHE_DIR"
loop_mean() { # loop_mean N CMD...: mean wall seconds of N back-to-back runs, no time(1) around
  local n=$1 i t0 t1
  shift
  t0=$EPOCHREALTIME
  for ((i = 0; i < n; i++)); do "$@" >/dev/null 2>&1 </dev/null; done
  t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.4f", (b - a) / n }'
}

read -r floor_s _ < <(measure "$RUNS" /bin/true)
true_loop=$(loop_mean 50 /bin/true)
echo "# strata hiera bench $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, commit $(cd "$ROOT" && git rev-parse --short HEAD)$(cd "$ROOT" && git diff --quiet HEAD -- src || echo ' (src/ modified)'), load $(cut -d' ' -f1-3 /proc/loadavg), RUNS=$RUNS, harness floor $(ms "$floor_s") ms (time -v) / $(ms "$true_loop") ms (loop)"
echo
echo "| levels × keys | distinct keys | input | whole document | whole-doc peak RSS | deep key, no index | deep key | plain key | deep key, loop of 50 | one-key peak RSS | puppet lookup (deep key) | same answer |$([ "${INSTR:-}" = 1 ] && echo ' whole-doc instructions |')"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |$([ "${INSTR:-}" = 1 ] && echo ' ---: |')"
for size in $SIZES; do
  levels=${size%x*} keys=${size#*x}
  d=$WORK/L$levels-K$keys
  read -r _ deep < <(grep '^deep ' "$d/keys.txt")
  read -r _ plain < <(grep '^plain ' "$d/keys.txt")
  bytes=$(cat "$d"/hiera.yaml "$d"/facts.yaml $(find "$d/data" -type f) | wc -c)
  mib=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1048576 }')
  distinct=$(( keys / 2 * (levels + 1) ))
  hiera=(--hiera "$d/hiera.yaml" --facts "$d/facts.yaml")
  # The whole document parses every file and keeps their indexes; one-key runs then use them
  # ("no index": the same run with the cache off, as a first lookup is).
  read -r whole_s whole_mib < <(measure "$RUNS" "$STRATA" lookup "${hiera[@]}")
  read -r cold_s _ < <(STRATA_CACHE_DIR='' measure "$RUNS" "$STRATA" lookup "$deep" "${hiera[@]}")
  read -r deep_s deep_mib < <(measure "$RUNS" "$STRATA" lookup "$deep" "${hiera[@]}")
  read -r plain_s _ < <(measure "$RUNS" "$STRATA" lookup "$plain" "${hiera[@]}")
  loop_s=$(loop_mean 50 "$STRATA" lookup "$deep" "${hiera[@]}")
  puppet="(not run)" same="-"
  if [ "${NO_PUPPET:-}" != 1 ] && [ -x "$PUPPET" ]; then
    pcmd=("$PUPPET" lookup "--hiera_config=$d/hiera.yaml" --facts "$d/facts.yaml" --render-as json "$deep")
    read -r puppet_s puppet_mib < <(measure 1 "${pcmd[@]}")
    puppet="$puppet_s s, $puppet_mib MiB"
    "${pcmd[@]}" >"$WORK/puppet.json" 2>/dev/null </dev/null || true
    "$STRATA" lookup "$deep" "${hiera[@]}" --output json >"$WORK/strata.json"
    same=$(python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
print("yes" if a == b else "NO")' "$WORK/puppet.json" "$WORK/strata.json" 2>/dev/null || echo "NO (puppet failed)")
  fi
  extra=""
  if [ "${INSTR:-}" = 1 ]; then
    extra=" $(instr "$STRATA" lookup "${hiera[@]}") M |"
  fi
  echo "| $levels × $keys | $distinct | $mib MiB | ${whole_s} s | ${whole_mib} MiB | $(ms "$cold_s") ms | $(ms "$deep_s") ms | $(ms "$plain_s") ms | $(ms "$loop_s") ms | ${deep_mib} MiB | $puppet | $same |$extra"
done
