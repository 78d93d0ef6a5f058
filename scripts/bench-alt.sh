#!/usr/bin/env bash
# Commands run one after another, N rounds over (cmd1, cmd2, ...), and the median and the
# fastest wall time of each: ratios between commands measured this way survive the host's
# drift, which a series of one command's runs after another's does not (docs/PERF.md).
#
#   scripts/bench-alt.sh 11 "TOOLS floor a.yaml b.yaml" "strata merge a.yaml b.yaml" ...
set -euo pipefail
[ "$#" -ge 2 ] || { echo "usage: $0 ROUNDS 'command' ['command'...]" >&2; exit 2; }
n=$1
shift
for _ in $(seq "$n"); do
  j=0
  for c in "$@"; do
    j=$((j + 1))
    s=$(date +%s.%N)
    eval "$c" >/dev/null 2>&1
    e=$(date +%s.%N)
    echo "$j $(echo "$e - $s" | bc)"
  done
done | sort -k1,1n -k2n | awk '{c[$1]++; a[$1, c[$1]] = $2}
  END {for (k in c) printf "%s median %.3f s, fastest %.3f s\n", k, a[k, int((c[k] + 1) / 2)], a[k, 1]}' |
  sort -n
