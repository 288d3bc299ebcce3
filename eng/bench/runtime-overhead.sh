#!/usr/bin/env bash
# What reading a server's runtime counters (and tracing it) costs, measured side by side in one
# sitting: the same scenario and server with the counters on (the default) and off
# (--no-counters), in A B B A order ROUNDS times, each run with a fixed warm-up; then one run with
# --trace over its whole window. Prints each run's req/s and server CPU per request, the mean of
# each side, and the ratio. First, with less noise than any A/B under load: the CPU an idle
# server pinned to one CPU spends over 30 s with no counter session, and with one reading it
# (`benchmarks counters`) at a run's 0.25 s and at crank's 1 s, twice each.
#
#   eng/bench/runtime-overhead.sh   (SCENARIO=plaintext SERVER=kestrel DURATION=10s WARMUP=5s ROUNDS=2 OUT=/tmp/...)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
scenario=${SCENARIO:-plaintext}
server=${SERVER:-kestrel}
duration=${DURATION:-10s}
warmup=${WARMUP:-5s}
rounds=${ROUNDS:-2}
out=${OUT:-/tmp/benchmarks-runtime-overhead}
rm -rf "$out" && mkdir -p "$out"

echo "== idle server's CPU over 30 s (ticks of 10 ms)"
taskset -c 0 "$exe" serve --scenario "$scenario" --server "$server" --urls http://127.0.0.1:55620 > "$out/idle-serve.txt" 2>&1 &
idle=$!
trap 'kill $idle 2>/dev/null || true' EXIT
sleep 5
ticks() { awk '{print $14 + $15}' "/proc/$idle/stat"; }
for mode in none 0.25 1 none 0.25 1; do
  before=$(ticks)
  if [ "$mode" = none ]; then sleep 30; else "$exe" counters "$idle" -d 30s --interval "$mode" > "$out/idle-counters-$mode.txt"; fi
  echo "  counters $mode: $(( $(ticks) - before )) ticks"
done
kill $idle; wait $idle 2>/dev/null || true

run() { # name, extra options...
  local name=$1; shift
  "$exe" run "$scenario" --server "$server" -d "$duration" -w "$warmup" --no-verify --json "$out/$name.json" --results "$out/results" "$@" > "$out/$name.txt" 2>&1
  python3 - "$out/$name.json" "$name" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); m = d["measurements"]
rate = next(v for k, v in m.items() if k.endswith("/rps/mean"))
print(f"{sys.argv[2]:<14} {rate:>12,.0f} req/s   server cpu {m['benchmarks/cpu/mean']:5.1f}%   {m.get('benchmarks/cpu-per-request', float('nan')):6.2f} us/request   window {d.get('window', {}).get('verdict', '?')}")
PY
}

for round in $(seq 1 "$rounds"); do
  run "on-$round-a"
  run "off-$round-a" --no-counters
  run "off-$round-b" --no-counters
  run "on-$round-b"
done
run "traced" --trace-seconds "$duration"

python3 - "$out" <<'PY'
import glob, json, os, statistics, sys
def rates(prefix):
    values = []
    for path in sorted(glob.glob(os.path.join(sys.argv[1], prefix + "-*.json"))):
        m = json.load(open(path))["measurements"]
        values.append(next(v for k, v in m.items() if k.endswith("/rps/mean")))
    return values
on, off = rates("on"), rates("off")
print(f"counters on : mean {statistics.mean(on):,.0f} req/s over {len(on)} runs (sd {statistics.stdev(on):,.0f})")
print(f"counters off: mean {statistics.mean(off):,.0f} req/s over {len(off)} runs (sd {statistics.stdev(off):,.0f})")
print(f"on / off    : {statistics.mean(on) / statistics.mean(off):.3f}")
PY
