#!/usr/bin/env bash
# Developer check (not CI; needs ruby): for every recorded Hiera case in
# fixtures/hiera/puppet/cases, the YAML that `strata lookup --hiera` renders for the whole
# document (with and without --no-comments), read by Ruby's Psych `YAML.safe_load` as Puppet
# reads data, must give the same data as strata's JSON for that lookup. Cases whose
# whole-document lookup strata refuses are skipped (counted).
#
#   scripts/hiera-psych-readback.sh [STRATA]      (default: target/debug/strata)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
strata=$(realpath "${1:-$root/target/debug/strata}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
agree=0 differ=0 skipped=0
for d in "$root"/fixtures/hiera/puppet/cases/*/; do
  args=(lookup --hiera hiera.yaml --facts facts.yaml)
  if ! (cd "$d" && "$strata" "${args[@]}" --output json >"$tmp/want.json" 2>/dev/null); then
    skipped=$((skipped + 1))
    continue
  fi
  for mode in "" --no-comments; do
    (cd "$d" && "$strata" "${args[@]}" $mode >"$tmp/out.yaml" 2>/dev/null)
    if ruby -ryaml -rjson -e '
      got = YAML.safe_load(File.read(ARGV[0]), permitted_classes: [Symbol])
      exit(JSON.generate(got) == JSON.generate(JSON.parse(File.read(ARGV[1]))) ? 0 : 1)
    ' "$tmp/out.yaml" "$tmp/want.json" 2>/dev/null; then
      agree=$((agree + 1))
    else
      differ=$((differ + 1))
      echo "differs: $d ${mode:-(kept spellings)}"
    fi
  done
done
echo "$agree agree, $differ differ, $skipped cases skipped (strata refuses the whole-document lookup)"
[ "$differ" -eq 0 ]
