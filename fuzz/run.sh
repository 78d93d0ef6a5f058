#!/usr/bin/env bash
# Runs the fuzz targets, one after the other.
#
#   fuzz/run.sh ci [TARGET...]          what CI runs: replay, then a fixed-seed run of each target
#   fuzz/run.sh replay [TARGET...]      every saved input once: the seed corpus and the regressions
#   fuzz/run.sh [SECONDS] [TARGET...]   random fuzzing, default 30 seconds per target (developers)
#
# `ci` leaves as little as it can to chance, so a red CI can be replayed exactly. It first runs
# every file in corpus/<target>/ and regressions/<target>/ once (libFuzzer's file mode: the
# same inputs every time), then fuzzes each target from a fresh scratch corpus with a fixed
# seed (FUZZ_SEED, default 1) for a fixed number of executions (its line in `runs_of` below,
# about 25 seconds on the project machine; scaled by FUZZ_RUNS_PERCENT), not for a time, so a
# faster or slower machine runs the same inputs. The same sources, seed and count give the same
# run up to the targets' own nondeterminism (most likely std's randomly seeded hash sets: rare
# paths differ from run to run; json_load, seed 1: two runs agreed for their first 2 671
# executions, then parted). So a failure prints, besides the seed and the command that runs it again, the
# crash input itself (base64, up to 64 KiB): replaying that is exact. The crash input lands in
# fuzz/artifacts/<target>/; once fixed, it goes to regressions/<target>/ (docs/RELIABILITY.md).
#
# The developer mode runs for a time with a random seed (printed; FUZZ_SEED fixes it) and keeps
# what it finds in target/work/<target>/ for the next run. Extra libFuzzer flags in both random
# modes: FUZZ_FLAGS="-jobs=2 -workers=2" fuzz/run.sh 3600 yaml_load
#
# Works on the stable toolchain: cargo-fuzz needs nightly flags (-Zsanitizer, sancov), which
# RUSTC_BOOTSTRAP=1 unlocks. Builds once (release with debug assertions, so integer overflow
# panics too; AddressSanitizer), then runs the binaries directly, so a long run is not
# disturbed by edits to the sources (FUZZ_SKIP_BUILD=1 skips the build). Seeds in corpus/ and
# regressions/ are only read. Exits non-zero if any target crashes, times out or runs out of
# memory (each target is still run, so one red CI shows every failing target).
set -euo pipefail
cd "$(dirname "$0")"

all=(yaml_load json_load mime_load merge_how rules fe_cloud_init cloud_init_jinja fe_merge fe_heat fe_lookup fe_hiera fe_deckhand fe_ardana fe_ardana_write hiera_slice eyaml_enc)

# Executions for `ci`'s random part: about 25 seconds each on the project machine (2 cores
# shared with other builds, load average about 6, `nice -n 10`, AddressSanitizer), measured
# 2026-11-28 from each target's executions per second with this script; an idle machine runs
# them in about a third of that.
runs_of() {
  case "$1" in
    yaml_load) echo 11000 ;;
    json_load) echo 80000 ;;
    mime_load) echo 32000 ;;
    merge_how) echo 50000 ;;
    rules) echo 10000 ;;
    fe_cloud_init) echo 6000 ;;
    cloud_init_jinja) echo 6000 ;;
    fe_merge) echo 9000 ;;
    fe_heat) echo 6000 ;;
    fe_lookup) echo 4000 ;;
    fe_hiera) echo 4500 ;;
    fe_deckhand) echo 4500 ;;
    fe_ardana) echo 3500 ;;
    fe_ardana_write) echo 4000 ;;
    hiera_slice) echo 20000 ;;
    eyaml_enc) echo 3000 ;;
    *) echo 5000 ;;
  esac
}

mode=fuzz
secs=30
case "${1:-}" in
  ci | replay) mode="$1"; shift ;;
  '' | *[!0-9]*) ;;
  *) secs="$1"; shift ;;
esac
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi
seed="${FUZZ_SEED:-}"
if [ "$mode" = ci ] && [ -z "$seed" ]; then seed=1; fi
percent="${FUZZ_RUNS_PERCENT:-100}"

export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install --locked cargo-fuzz
fi
if [ "${FUZZ_SKIP_BUILD:-}" != 1 ]; then
  cargo fuzz build -O -a
fi
bin=target/x86_64-unknown-linux-gnu/release
limits=(-timeout=10 -rss_limit_mb=2048)

status=0
failed=0
summary=""
note() {
  echo "$1"
  summary+="$1"$'\n'
}

# Every saved input of a target, once, in file-name order: exit status of the replay.
replay() {
  local t="$1" log="target/work/$1.replay.log" files=()
  mkdir -p target/work "artifacts/$t"
  local dir f
  for dir in "corpus/$t" "regressions/$t"; do
    [ -d "$dir" ] || continue
    while IFS= read -r f; do files+=("$f"); done < <(find "$dir" -type f ! -name '.*' | LC_ALL=C sort)
  done
  if [ "${#files[@]}" -eq 0 ]; then
    note "$t: replay: no saved inputs"
    return 0
  fi
  set +e
  "$bin/$t" -artifact_prefix="artifacts/$t/" "${limits[@]}" "${files[@]}" >"$log" 2>&1
  local rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    note "$t: replay: ${#files[@]} saved inputs, no crash"
  else
    local last
    last=$(grep -Eo '^Running: .*' "$log" | tail -1 | sed 's/^Running: //')
    note "$t: replay FAILED (exit $rc) on ${last:-?}"
    grep -E 'panicked|ERROR|SUMMARY' "$log" | head -20 || true
    echo "fuzz: reproduce with: cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O -a $t ${last:-<file>}"
  fi
  return "$rc"
}

# Random fuzzing of one target: `ci` from a fresh scratch corpus for a fixed number of runs,
# else for `secs` seconds from the kept work corpus. Exit status of libFuzzer.
fuzz() {
  local t="$1" work log stop seedflag=()
  if [ "$mode" = ci ]; then
    work="target/ci/$t"
    rm -rf "$work"
    local runs
    runs=$(( $(runs_of "$t") * percent / 100 ))
    stop=(-runs="$runs")
  else
    work="target/work/$t"
    stop=(-max_total_time="$secs")
  fi
  [ -n "$seed" ] && seedflag=(-seed="$seed")
  log="$work.log"
  mkdir -p "$work" "artifacts/$t"
  local since="$work.started"
  : >"$since"
  local seeds=("corpus/$t")
  [ -d "regressions/$t" ] && seeds+=("regressions/$t")
  set +e
  # shellcheck disable=SC2086
  "$bin/$t" -artifact_prefix="artifacts/$t/" "${stop[@]}" "${seedflag[@]}" "${limits[@]}" \
    -print_final_stats=1 ${FUZZ_FLAGS:-} "$work" "${seeds[@]}" >"$log" 2>&1
  local rc=$?
  set -e
  local used runs cov
  used=$(grep -Eo '^INFO: Seed: [0-9]+' "$log" | grep -Eo '[0-9]+$' | head -1 || true)
  runs=$(grep -Eo '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1 || true)
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  if [ "$rc" -eq 0 ]; then
    note "$t: seed ${used:-?}, ${runs:-?} executions, ${cov:-cov: ?}, no crash"
  else
    note "$t: FAILED (exit $rc), seed ${used:-?}, after ${runs:-?} executions, ${cov:-cov: ?}"
    grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -20 || true
    if [ "$mode" = ci ]; then
      echo "fuzz: run it again (same seed and count): FUZZ_SEED=${used:-$seed} FUZZ_RUNS_PERCENT=$percent fuzz/run.sh ci $t"
    else
      echo "fuzz: this run again (same seed; the work corpus has grown since): FUZZ_SEED=${used:-?} fuzz/run.sh $secs $t"
    fi
    local crash
    crash=$(find "artifacts/$t" -type f -newer "$since" | LC_ALL=C sort | head -1)
    if [ -n "$crash" ]; then
      echo "fuzz: the crash input alone: cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O -a $t $crash"
      if [ "$(wc -c <"$crash")" -le 65536 ]; then
        # The input itself, so a run on another machine can be replayed byte for byte.
        echo "fuzz: $crash as base64 (decode with: base64 -d >FILE):"
        base64 -w 76 "$crash"
      fi
    fi
  fi
  return "$rc"
}

if [ "$mode" = ci ]; then
  echo "== fuzz: seed $seed, fixed executions per target (${percent}% of runs_of in fuzz/run.sh)"
fi
for t in "${targets[@]}"; do
  ok=1
  if [ "$mode" != fuzz ]; then
    echo "== fuzz $t: replay"
    replay "$t" || ok=0
  fi
  if [ "$mode" != replay ]; then
    if [ "$mode" = ci ]; then echo "== fuzz $t: seed $seed"; else echo "== fuzz $t (${secs}s)"; fi
    fuzz "$t" || ok=0
  fi
  if [ "$ok" -eq 0 ]; then
    failed=$((failed + 1))
    status=1
  fi
done
echo "== fuzz summary"
printf '%s' "$summary"
echo "fuzz: ${#targets[@]} targets, $failed failed"
exit "$status"
