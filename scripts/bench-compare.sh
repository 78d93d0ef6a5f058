#!/usr/bin/env bash
# Two strata binaries side by side on the x16 workloads of scripts/bench.sh (docs/PERF.md):
# W1 `merge a b` (default jobs, --jobs 1, --explain, and a.yaml alone: one big file), W3
# `merge --rules`, W2 `cloud-init` parts, with the parse floor of the same bytes. Each line is
# the median wall time of RUNS runs and the largest peak RSS, the two binaries' runs in one
# series on one machine (compare within a series only: the host's speed moves by 15-20 %).
#
#   scripts/bench-compare.sh OLD_STRATA NEW_STRATA     # needs the data scripts/bench.sh made
#                                                      # in BENCH_DIR (default /tmp/strata-bench)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-/tmp/strata-bench}
RUNS=${RUNS:-5}
[ "$#" -eq 2 ] || { echo "usage: $0 OLD_STRATA NEW_STRATA" >&2; exit 2; }
# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
TOOLS=$(tools_bin "$ROOT" cargo)
D=$WORK/data
[ -f "$D/w1/x16/a.yaml" ] || { echo "no workloads in $D: run scripts/bench.sh once" >&2; exit 1; }
row() { # label cmd...
  local s mib
  read -r s mib < <(measure "$RUNS" "${@:2}")
  printf '| %s | %s s | %s MiB |\n' "$1" "$s" "$mib"
}
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | median wall | peak RSS |"
echo "| --- | ---: | ---: |"
w1=("$D/w1/x16/a.yaml" "$D/w1/x16/b.yaml")
w3=(--rules "$D/w3/x16/rules.yaml" "$D/w3/x16/a.yaml" "$D/w3/x16/b.yaml")
mapfile -t w2 < <(ls "$D"/w2/x16/part-*.yaml)
row "W1 floor" "$TOOLS" floor "${w1[@]}"
row "W3 floor" "$TOOLS" floor "${w3[@]:1}"
row "W2 floor" "$TOOLS" floor "${w2[@]}"
for b in "$1" "$2"; do
  n=$(basename "$b")
  row "W1 $n" "$b" merge "${w1[@]}"
  row "W1 $n --jobs 1" "$b" merge --jobs 1 "${w1[@]}"
  row "W1 $n --explain" "$b" merge --explain "${w1[@]}"
  row "W1 a.yaml alone, $n" "$b" merge "${w1[0]}"
  row "W3 $n" "$b" merge "${w3[@]}"
  row "W3 $n --jobs 1" "$b" merge --jobs 1 "${w3[@]}"
  row "W2 $n" "$b" cloud-init "${w2[@]}"
  row "W2 $n --jobs 1" "$b" cloud-init --jobs 1 "${w2[@]}"
done
