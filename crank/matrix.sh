#!/usr/bin/env bash
# Every crank configuration's scenarios, one crank call each, on one profile: the check that the
# lab's boxes serve all of them, and what each measured. Prints one Markdown row per scenario (its
# crank exit code, the load's headline figure and latency as crank's table printed them, how long
# the call took) and imports each --json into the store under one label (matrix:ID).
#
#   cd crank && ./matrix.sh --profile lab-local               # after: sudo bash ../eng/lab.sh up --agents
#   cd crank && ./matrix.sh --profile local plaintext.yml:pipelined json.yml:json
#
# Arguments: --profile P (default lab-local), then CONFIG:SCENARIO pairs (default: every scenario
# of every configuration here but benchmarks.yml and profiles.yml). Every call gets
# --variable duration=DURATION --variable warmup=WARMUP (defaults 5s and 2s).
# Environment: CRANK (default: crank), BENCHMARKS (default: benchmarks), DURATION, WARMUP,
# RESULTS (the store's folder; default: the store's default).
set -uo pipefail
cd "$(dirname "$0")"

crank=${CRANK:-crank}
benchmarks=${BENCHMARKS:-benchmarks}
profile=lab-local
if [ "${1:-}" = "--profile" ] && [ $# -ge 2 ]; then
  profile=$2
  shift 2
fi

cells=("$@")
if [ ${#cells[@]} = 0 ]; then
  for config in *.yml; do
    case $config in benchmarks.yml|profiles.yml) continue ;; esac
    # The scenario names: the keys under the top-level 'scenarios:' block, two spaces in.
    while read -r scenario; do
      cells+=("$config:$scenario")
    done < <(awk '/^scenarios:/ {in_block = 1; next} /^[^ #]/ {in_block = 0} in_block && /^  [A-Za-z0-9_-]+:/ {sub(/^  /, ""); sub(/:.*/, ""); print}' "$config")
  done
fi

label="matrix:$(date -u +%Y%m%d-%H%M%S)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failed=0
echo "| configuration | scenario | crank exit | headline | p99 | seconds |"
echo "|---|---|---|---|---|---|"
for cell in "${cells[@]}"; do
  config=${cell%%:*} scenario=${cell#*:}
  log="$out/$config-$scenario.log"
  json="$out/$config-$scenario.json"
  start=$SECONDS
  "$crank" --config "$config" --scenario "$scenario" --profile "$profile" \
    --variable "duration=${DURATION:-5s}" --variable "warmup=${WARMUP:-2s}" --json "$json" >"$log" 2>&1
  status=$?
  [ $status = 0 ] || failed=$((failed + 1))
  # The load's headline rate and its first 99th percentile, as crank's table printed them.
  headline=""
  for row in 'Requests/sec' 'TCP answers received complete and as expected per second' 'WebSocket echo replies per second' 'Messages per second' \
      'handshakes completed per second' 'Largest client count' 'per second'; do
    headline=$(grep -m1 "^| [^|]*$row" "$log" | awk -F'|' '{gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3); print $2 ": " $3}')
    [ -n "$headline" ] && break
  done
  p99=$(grep -m1 -E '99th percentile' "$log" | awk -F'|' '{gsub(/^ +| +$/, "", $3); print $3}')
  [ $status = 0 ] || headline=$(grep -m1 -iE 'failed|error|could not' "$log" | cut -c1-120 | tr '|' '/')
  echo "| $config | $scenario | $status | ${headline:--} | ${p99:--} | $((SECONDS - start)) |"
  if [ $status = 0 ] && [ -f "$json" ]; then
    "$benchmarks" results import "$json" --label "$label" ${RESULTS:+--results "$RESULTS"} >/dev/null 2>&1 || true
  fi
done
echo
echo "$label: ${#cells[@]} scenarios, $failed failed"
[ $failed = 0 ]
