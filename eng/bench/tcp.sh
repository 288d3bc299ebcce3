#!/usr/bin/env bash
# TCP echo and connection churn, measured in one sitting on this machine (server on CPU 0, load on
# CPU 1): the Go tcp_bencher's shape (2,000 persistent connections, 26-byte messages) and the
# Haskell bencher's (3,000 churn clients) against sockets, libuv and, as a reference runtime, a
# plain Node.js `net` echo server (libuv underneath); then HTTP plaintext with and without
# keep-alive on kestrel and sockets through `benchmarks run`.
#
#   eng/bench/tcp.sh          (DURATION=10s OUT=/tmp/benchmarks-tcp-bench)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
out=${OUT:-/tmp/benchmarks-tcp-bench}
duration=${DURATION:-10s}
rm -rf "$out" && mkdir -p "$out"

ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }

start_server() { # name port -> pid
  case "$1" in
    node) taskset -c 0 node -e "require('net').createServer(s => { s.on('error', () => {}); s.pipe(s); }).listen($2, '127.0.0.1', () => console.log('Application started.'))" > "$out/server-$1.log" 2>&1 & ;;
    *) taskset -c 0 "$exe" serve --scenario tcp-echo --server "$1" --urls "tcp://127.0.0.1:$2" > "$out/server-$1.log" 2>&1 & ;;
  esac
  local pid=$!
  for _ in $(seq 1 100); do grep -q "Application started." "$out/server-$1.log" && break; sleep 0.1; done
  echo "$pid"
}

port=20100  # below the ephemeral range (churn clients hold many of those ports)
for server in sockets libuv node; do
  for mode in persistent churn; do
    port=$((port + 1))
    pid=$(start_server "$server" "$port")
    connections=2000; [ "$mode" = churn ] && connections=3000
    taskset -c 1 "$exe" load --tcp --url "tcp://127.0.0.1:$port" --tcp-mode "$mode" -c "$connections" -d 5s -w 0s > /dev/null 2>&1 || true  # warm-up run
    before=$(ticks "$pid"); t0=$(date +%s.%N)
    taskset -c 1 "$exe" load --tcp --url "tcp://127.0.0.1:$port" --tcp-mode "$mode" -c "$connections" -d "$duration" -w 2s --json "$out/$server-$mode.json" > "$out/$server-$mode.txt" 2>&1 || true
    after=$(ticks "$pid"); t1=$(date +%s.%N)
    echo "$before $after $t0 $t1 $(getconf CLK_TCK)" > "$out/$server-$mode.cpu"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    echo "== $server $mode"; grep -E "^(Speed|Requests|Responses)|failed" "$out/$server-$mode.txt" || true
  done
done

for server in kestrel sockets; do
  for keepalive in true false; do
    echo "== plaintext on $server, keep-alive $keepalive"
    "$exe" run plaintext --server "$server" --keep-alive "$keepalive" -c 256 -d "$duration" --json "$out/http-$server-$keepalive.json" --results "$out/results" > "$out/http-$server-$keepalive.txt" 2>&1 || true
    grep -E "^(warm-up|window|bound|error):" "$out/http-$server-$keepalive.txt" || true
  done
done

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
print()
print("| server | mode | req/s | resp/s | server user / kernel (% of one CPU) | load user / kernel (% of one CPU) | failed | rtt p50 / p99 ms | connect p50 ms | vs node |")
print("|---|---|---|---|---|---|---|---|---|---|")
rates = {}
rows = []
for server in ("sockets", "libuv", "node"):
    for mode in ("persistent", "churn"):
        path = os.path.join(out, f"{server}-{mode}.json")
        if not os.path.exists(path):
            rows.append(f"| {server} | {mode} | failed | | | | | | | |"); continue
        r = json.load(open(path))
        b0, k0, b1, k1, t0, t1, hz = open(os.path.join(out, f"{server}-{mode}.cpu")).read().split()
        seconds = float(t1) - float(t0)
        su = (int(b1) - int(b0)) / int(hz) / seconds * 100; sk = (int(k1) - int(k0)) / int(hz) / seconds * 100
        lu = r["cpuUserSeconds"] / r["cpuWindowSeconds"] * 100 if r["cpuWindowSeconds"] else 0
        lk = r["cpuKernelSeconds"] / r["cpuWindowSeconds"] * 100 if r["cpuWindowSeconds"] else 0
        rate = r["echoed"] / r["elapsedSeconds"]
        rates[(server, mode)] = rate
        failed = sum(r["failed"].values()) + sum(r["connectFailed"].values())
        rows.append((server, mode, f"| {server} | {mode} | {r['sent'] / r['elapsedSeconds']:,.0f} | {rate:,.0f} | {su:.0f} / {sk:.0f} | {lu:.0f} / {lk:.0f} | {failed} | {r['roundTrip']['p50']:.2f} / {r['roundTrip']['p99']:.2f} | {r['connect']['p50']:.2f} |"))
for row in rows:
    if isinstance(row, str):
        print(row); continue
    server, mode, text = row
    node = rates.get(("node", mode))
    print(text + (f" {rates[(server, mode)] / node:.2f}x |" if node else " |"))
print()
print("| plaintext | keep-alive | req/s | warm-up | window | server user / kernel % | load user / kernel % | connect p50 ms | ttfb p50 ms | bound |")
print("|---|---|---|---|---|---|---|---|---|---|")
for server in ("kestrel", "sockets"):
    for keepalive in ("true", "false"):
        path = os.path.join(out, f"http-{server}-{keepalive}.json")
        if not os.path.exists(path):
            print(f"| {server} | {keepalive} | failed | | | | | | | |"); continue
        d = json.load(open(path)); m = d["measurements"]
        print(f"| {server} | {keepalive} | {m.get('http/rps/mean', 0):,.0f} | {m.get('load/warmup', 0):.0f} s | {(d.get('window') or {}).get('verdict', '')} | {m.get('benchmarks/cpu/user', 0):.1f} / {m.get('benchmarks/cpu/kernel', 0):.1f} | {m.get('load/cpu/user', 0):.1f} / {m.get('load/cpu/kernel', 0):.1f} | {m.get('http/connect/50', float('nan')):.2f} | {m.get('http/ttfb/50', float('nan')):.2f} | {(d.get('bottleneck') or '')[:60]} |")
PY
