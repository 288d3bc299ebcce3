#!/usr/bin/env bash
# The open model measured in one sitting (server on CPU 0, load on CPU 1, 256 connections):
# per server, the closed-loop maximum of a warmed server, then --rate at 50%, 90% and 110% of it
# (achieved against requested, corrected against uncorrected p99, the load's CPU per request
# against the closed loop's); then run --find-max --slo 'p99<10ms' twice per server (each step
# the median of three 5 s windows), to see how well the answer repeats.
#
#   eng/bench/open-model.sh          (OUT=/tmp/benchmarks-open-model SLO='p99<10ms' FIND_MAX=1
#                                     SERVERS="kestrel sockets"; FIND_MAX=0 skips the searches,
#                                     about 20 minutes of the run)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
out=${OUT:-/tmp/benchmarks-open-model}
slo=${SLO:-p99<10ms}
rm -rf "$out" && mkdir -p "$out"
export DOTNET_TieredCompilation=0  # the load, as run starts it

servers=${SERVERS:-kestrel sockets}
port=20300
for server in $servers; do
  port=$((port + 1))
  DOTNET_TieredCompilation=1 taskset -c 0 "$exe" serve --scenario plaintext --server "$server" --urls "http://127.0.0.1:$port" > "$out/server-$server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q "Application started." "$out/server-$server.log" && break; sleep 0.1; done
  url="http://127.0.0.1:$port/plaintext"
  taskset -c 1 "$exe" load --url "$url" -c 256 -d 30s -w 0s > /dev/null 2>&1  # the server's JIT settles
  taskset -c 1 "$exe" load --url "$url" -c 256 -d 10s -w 2s --json "$out/$server-closed.json" > "$out/$server-closed.txt" 2>&1
  max=$(python3 -c "import json,sys; print(int(json.load(open(sys.argv[1]))['requestsPerSecond']))" "$out/$server-closed.json")
  for pct in 50 90 110; do
    rate=$((max * pct / 100))
    taskset -c 1 "$exe" load --url "$url" -c 256 -d 10s -w 2s --rate "$rate" --json "$out/$server-$pct.json" > "$out/$server-$pct.txt" 2>&1 || true
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
done

python3 - "$out" $servers <<'PYEOF'
import json, sys
out = sys.argv[1]
print("| server | load | requested req/s | achieved req/s | achieved / requested | p99 from due ms | p99 from send ms | late | of which a connection was free | backlog | load CPU µs/req |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for server in sys.argv[2:]:
    for name in ["closed", "50", "90", "110"]:
        r = json.load(open(f"{out}/{server}-{name}.json"))
        cpu = (r["cpuUserSeconds"] + r["cpuKernelSeconds"]) / max(1, r["requests"]) * 1e6
        requested = r.get("requestedRate")
        unc = r.get("uncorrected") or {}
        achieved = r["requestsPerSecond"]
        ratio = "" if requested is None else f"{achieved / requested:.3f}"
        req = "" if requested is None else f"{requested:,.0f}"
        load = "closed loop" if name == "closed" else name + "% of max"
        print(f"| {server} | {load} | {req} | {achieved:,.0f} | {ratio} | {r['latency']['p99']:.2f} | {unc.get('p99', r['latency']['p99']):.2f} | {r.get('late', 0):,} | {r.get('lateByLoad', 0):,} | {r.get('backlog', 0):,} | {cpu:.2f} |")
PYEOF

[ "${FIND_MAX:-1}" = 1 ] || exit 0
for server in $servers; do
  for attempt in 1 2; do
    "$exe" run plaintext --server "$server" --server-cpus 0 --load-cpus 1 -c 256 -d 5s -w 5s --warmup-max 60s -i 3 --find-max --slo "$slo" --rate 10k \
      --results "$out/results" > "$out/findmax-$server-$attempt.txt" 2>&1 || true
    echo "== find-max $server #$attempt: $(grep -E '^find-max .*highest|^find-max .*no rate' "$out/findmax-$server-$attempt.txt")"
    grep -E '^step ' "$out/findmax-$server-$attempt.txt" | sed 's/^/   /'
  done
done
