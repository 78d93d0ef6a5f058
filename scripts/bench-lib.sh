# Shared by the bench scripts (source it after setting WORK): timing one command with its peak
# RSS, medians, and finding the `tools` bench binary (the parse floor).
#   measure RUNS CMD...   prints "median_seconds median_MiB" (stdout of CMD to /dev/null)
#   tools_bin ROOT CARGO  prints the path of the built `tools` bench

LAST_S=0
LAST_KB=0
time_once() { # time_once CMD...: sets LAST_S, LAST_KB
  local t0 t1
  t0=$EPOCHREALTIME
  /usr/bin/time -v -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" </dev/null
  t1=$EPOCHREALTIME
  LAST_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
  LAST_KB=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time.txt")
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
measure() {
  local runs=$1 i ts=() kbs=()
  shift
  for ((i = 0; i < runs; i++)); do
    time_once "$@"
    ts+=("$LAST_S")
    kbs+=("$LAST_KB")
  done
  printf '%s %s\n' "$(printf '%s\n' "${ts[@]}" | median)" \
    "$(printf '%s\n' "${kbs[@]}" | median | awk '{ printf "%.1f", $1 / 1024 }')"
}
tools_bin() {
  (cd "$1" && $2 bench --bench tools --no-run --message-format=json 2>/dev/null |
    python3 -c 'import sys, json
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "tools" and m.get("executable"):
        print(m["executable"])' | tail -1)
}
