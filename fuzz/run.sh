#!/usr/bin/env bash
# Runs the fuzz targets, one after the other, each for a bounded time on its seed corpus.
#
#   fuzz/run.sh [SECONDS] [TARGET...]     default: 30 seconds, every target
#
# Works on the stable toolchain: cargo-fuzz needs nightly flags (-Zsanitizer, sancov), which
# RUSTC_BOOTSTRAP=1 unlocks. Builds once (release with debug assertions, so integer overflow
# panics too; AddressSanitizer), then runs the binaries directly, so a long run is not
# disturbed by edits to the sources. New inputs go to a scratch
# corpus under fuzz/target/work/ (seeds in fuzz/corpus/ are only read); crashes land in
# fuzz/artifacts/<target>/. Exits non-zero on the first crash, timeout or out-of-memory.
# Extra libFuzzer flags: FUZZ_FLAGS="-jobs=2 -workers=2" fuzz/run.sh 3600 yaml_load
set -euo pipefail
cd "$(dirname "$0")"

secs="${1:-30}"
shift || true
all=(yaml_load json_load mime_load merge_how rules fe_cloud_init fe_merge fe_heat fe_lookup fe_hiera fe_deckhand fe_ardana fe_ardana_write hiera_slice)
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi

export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install --locked cargo-fuzz
fi
if [ "${FUZZ_SKIP_BUILD:-}" != 1 ]; then
  cargo fuzz build -O -a
fi
bin=target/x86_64-unknown-linux-gnu/release

status=0
passed=0
failed=0
summary=""
for t in "${targets[@]}"; do
  work="target/work/$t"
  log="target/work/$t.log"
  mkdir -p "$work" "artifacts/$t"
  echo "== fuzz $t (${secs}s)"
  set +e
  # shellcheck disable=SC2086
  "$bin/$t" -artifact_prefix="artifacts/$t/" -max_total_time="$secs" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 ${FUZZ_FLAGS:-} "$work" "corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -Eo '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1 || true)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 || true)
  if [ "$rc" -eq 0 ]; then
    line="$t: ${runs:-?} executions in ${secs}s, ${cov:-cov: ?}, no crash"
  else
    line="$t: FAILED (exit $rc) after ${runs:-?} executions, ${cov:-cov: ?}"
  fi
  echo "$line"
  summary+="$line"$'\n'
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    status=1
    grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -20 || true
    echo "fuzz: $t FAILED; reproduce with: RUSTC_BOOTSTRAP=1 cargo fuzz run -O $t fuzz/artifacts/$t/<file>"
  fi
done
echo "== fuzz summary"
printf '%s' "$summary"
echo "fuzz: $passed passed, $failed failed"
exit "$status"
