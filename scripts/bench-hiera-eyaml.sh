#!/usr/bin/env bash
# One-key eyaml lookup against a plain one (issue 39: "within 2x of a plain one";
# docs/PERF.md, "Hiera eyaml"). The Hiera bench site (scripts/gen-hiera-bench.py, 6 levels ×
# 10 000 keys) with one more level on top, `lookup_key: eyaml_lookup_key` over
# secrets/%{trusted.certname}.eyaml, holding the fixtures' encrypted values
# (fixtures/hiera/eyaml, test keys). With the indexes a whole-document run kept, it times the
# mean of N back-to-back runs (default 50) of:
#   plain:  strata lookup --hiera H --facts F profile::m101::version  (site without the level)
#   plain+: the same key on the site with the eyaml level
#   eyaml:  secret::db_password on the site with the eyaml level (one RSA-2048 decryption)
#
#   scripts/bench-hiera-eyaml.sh     # BENCH_DIR (default /tmp/strata-bench), N (50),
#                                    # STRATA (default target/release/strata; build it first)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-/tmp/strata-bench}/hiera-eyaml
N=${N:-50}
STRATA=${STRATA:-$ROOT/target/release/strata}
FIX=$ROOT/fixtures/hiera/eyaml/site
[ -x "$STRATA" ] || { echo "bench-hiera-eyaml.sh: no binary $STRATA" >&2; exit 1; }

rm -rf "$WORK" && mkdir -p "$WORK"
python3 "$ROOT/scripts/gen-hiera-bench.py" "$WORK/plain" 6 10000
cp -r "$WORK/plain" "$WORK/eyaml"
mkdir -p "$WORK/eyaml/data/secrets"
cp -r "$FIX/keys" "$WORK/eyaml/keys"
certname=$(awk '/^clientcert:/ { print $2 }' "$WORK/eyaml/facts.yaml")
{
  echo "# Secrets of the bench node (fixtures/hiera/eyaml values, test keys)."
  sed -n 's/^db_password: /secret::db_password: /p; s/^number_text: /secret::number: /p' \
    "$FIX/data/secrets/common.eyaml"
  echo "secret::plain: not a secret"
} >"$WORK/eyaml/data/secrets/$certname.eyaml"
python3 - "$WORK/eyaml/hiera.yaml" "$WORK/eyaml/keys" <<'PY'
import sys
path, keys = sys.argv[1], sys.argv[2]
text = open(path).read()
level = (
    "hierarchy:\n"
    '  - name: "Secrets"\n'
    "    lookup_key: eyaml_lookup_key\n"
    '    path: "secrets/%{trusted.certname}.eyaml"\n'
    "    options:\n"
    f"      pkcs7_private_key: {keys}/private_key.pkcs7.pem\n"
    f"      pkcs7_public_key: {keys}/public_key.pkcs7.pem\n"
)
assert "hierarchy:\n" in text
open(path, "w").write(text.replace("hierarchy:\n", level, 1))
PY
export STRATA_CACHE_DIR=$WORK/cache
for site in plain eyaml; do # whole document once: keeps the indexes
  "$STRATA" lookup --hiera "$WORK/$site/hiera.yaml" --facts "$WORK/$site/facts.yaml" >/dev/null
done
sleep 3 # files settled: the indexes record their identity (docs/frontends/hiera.md)
mean() { # mean SITE KEY: mean wall time of N runs, in ms
  local start end
  "$STRATA" lookup --hiera "$WORK/$1/hiera.yaml" --facts "$WORK/$1/facts.yaml" "$2" >/dev/null
  start=$EPOCHREALTIME
  for _ in $(seq "$N"); do
    "$STRATA" lookup --hiera "$WORK/$1/hiera.yaml" --facts "$WORK/$1/facts.yaml" "$2" >/dev/null
  done
  end=$EPOCHREALTIME
  awk -v a="$start" -v b="$end" -v n="$N" 'BEGIN { printf "%.2f", (b - a) * 1000 / n }'
}
echo "value: $("$STRATA" lookup --hiera "$WORK/eyaml/hiera.yaml" --facts "$WORK/eyaml/facts.yaml" secret::db_password)"
for round in 1 2 3; do
  printf 'round %s: plain %s ms, plain+ %s ms, eyaml %s ms (mean of %s)\n' "$round" \
    "$(mean plain profile::m101::version)" "$(mean eyaml profile::m101::version)" \
    "$(mean eyaml secret::db_password)" "$N"
done
printf 'load: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
