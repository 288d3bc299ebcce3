#!/usr/bin/env bash
# The built-in HTTP/1.1 load generator against wrk and h2load, in one sitting, on a server that is
# not the limit: the libuv plaintext server (SERVER=sockets|libuv|iouring|kestrel) warmed first, pinned to
# its own core, each client pinned to the other. Runs alternate between the clients, round by
# round. For every client: req/s and client CPU per request (user + kernel, from the kernel's
# account of the process: `time` for wrk and h2load; the built-in load's own window account and
# its whole process, start-up and JIT included, both shown), best and median over the rounds.
# The built-in load runs with each of its engines: epoll (Linux, the default for a closed loop with
# keep-alive), iouring (Linux, BENCHMARKS_HTTP_ENGINE=iouring) and sockets (System.Net.Sockets, the
# portable engine).
#
#   eng/bench/load-vs-wrk.sh                       # 3 rounds of 6 s, 64 connections, pipeline 1 and 16
#   ROUNDS=5 DURATION=10 CONNECTIONS=256 THREADS=1 SERVER=sockets eng/bench/load-vs-wrk.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-6}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-1}
DEPTHS=${DEPTHS:-1 16}
SERVER=${SERVER:-libuv}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
PORT=${PORT:-5099}
CLIENTS=${CLIENTS:-wrk h2load epoll iouring sockets}

bash eng/install-tools.sh wrk >/dev/null
command -v h2load >/dev/null || bash eng/install-tools.sh nghttp2-client >/dev/null
command -v taskset >/dev/null || bash eng/install-tools.sh util-linux >/dev/null
dotnet build src/Host -c Release -nologo -clp:ErrorsOnly >/dev/null
bin="src/Host/bin/Release/net10.0/benchmarks"
url="http://127.0.0.1:$PORT/plaintext"
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT

taskset -c "$SERVER_CPU" "$bin" serve --scenario plaintext --server "$SERVER" --urls "http://127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q "Application started." "$work/server.log" && break; sleep 0.1; done
grep -q "Application started." "$work/server.log" || { cat "$work/server.log"; exit 1; }


# Each run prints: rps cpu_seconds requests [window_cpu_seconds]
TIMEFORMAT='%U %S'
run_wrk() { # depth
  local args=(-t"$THREADS" -c "$CONNECTIONS" -d "${DURATION}s")
  [ "$1" -gt 1 ] && args+=(-s eng/bench/pipeline.lua)
  { time taskset -c "$CLIENT_CPU" wrk "${args[@]}" "$url" -- "$1" >"$work/out" 2>&1; } 2>"$work/time"
  echo "$(awk '/^Requests\/sec:/ {print $2}' "$work/out") $(awk '{print $1 + $2}' "$work/time") $(awk '/requests in/ {print $1}' "$work/out")"
}
run_h2load() { # depth (HTTP/1.1; -m is the pipeline depth there)
  { time taskset -c "$CLIENT_CPU" h2load --h1 -t "$THREADS" -c "$CONNECTIONS" -m "$1" -D "$DURATION" "$url" >"$work/out" 2>&1; } 2>"$work/time"
  local rps done
  rps=$(awk '/^finished in/ {gsub(",", "", $4); print $4}' "$work/out")
  done=$(awk '/^requests:/ {print $8}' "$work/out")
  echo "$rps $(awk '{print $1 + $2}' "$work/time") $done"
}
run_builtin() { # engine depth; started as 'benchmarks run' starts its load job
  { time BENCHMARKS_HTTP_ENGINE=$1 DOTNET_TieredCompilation=0 DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=$THREADS \
      taskset -c "$CLIENT_CPU" "$bin" load --url "$url" --scenario plaintext -t "$THREADS" -c "$CONNECTIONS" -p "$2" -d "${DURATION}s" -w 1s --json "$work/load.json" >"$work/out" 2>&1; } 2>"$work/time"
  python3 - "$work/load.json" "$(awk '{print $1 + $2}' "$work/time")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{r['requestsPerSecond']:.0f} {sys.argv[2]} {r['requests']} {r['cpuUserSeconds'] + r['cpuKernelSeconds']:.3f}")
PY
}
run_epoll() { run_builtin epoll "$1"; }
run_sockets() { run_builtin sockets "$1"; }
run_iouring() { run_builtin iouring "$1"; }

# Prime the server (JIT, pools) on both paths before anything is measured.
taskset -c "$CLIENT_CPU" wrk -t1 -c "$CONNECTIONS" -d 5s "$url" >/dev/null 2>&1
taskset -c "$CLIENT_CPU" wrk -t1 -c "$CONNECTIONS" -d 5s -s eng/bench/pipeline.lua "$url" -- 16 >/dev/null 2>&1

results="$work/results"
read -r -a clients <<<"$CLIENTS"
for depth in $DEPTHS; do
  for round in $(seq "$ROUNDS"); do
    # Rotate the order so that drift in the machine hits every client alike.
    order=("${clients[@]:$((round % ${#clients[@]}))}" "${clients[@]:0:$((round % ${#clients[@]}))}")
    for tool in "${order[@]}"; do
      line=$("run_$tool" "$depth")
      echo "$depth $tool $round $line" | tee -a "$results" >&2
    done
  done
done

echo
echo "server: $SERVER on CPU $SERVER_CPU; clients on CPU $CLIENT_CPU, $THREADS thread(s), $CONNECTIONS connections, ${DURATION} s per run, $ROUNDS rounds"
python3 - "$results" <<'PY'
import sys, statistics
rows, failed = {}, {}
for line in open(sys.argv[1]):
    parts = line.split()
    depth, tool = int(parts[0]), parts[1]
    if len(parts) < 6 or float(parts[5] or 0) <= 0:
        # A run that completed no request (wrk out of ports at 16,384 connections, a client that failed):
        # counted apart, not a rate of 0 nor a CPU per request.
        failed[(depth, tool)] = failed.get((depth, tool), 0) + 1
        continue
    rps, cpu, requests = float(parts[3]), float(parts[4]), float(parts[5])
    window = float(parts[6]) if len(parts) > 6 else None
    rows.setdefault((depth, tool), []).append((rps, cpu / requests * 1e6, (window / requests * 1e6) if window else None))
print("| pipeline | client | req/s best | req/s median | CPU us/req (window) | CPU us/req (whole process) | req/s vs best peer | CPU/req vs best peer | runs with no request |")
print("|---|---|---|---|---|---|---|---|---|")
for depth, tool in sorted(set(failed) - set(rows)):
    print(f"| {depth} | {tool} | | | | | | | {failed[(depth, tool)]} |")
for depth in sorted({d for d, _ in rows}):
    peers = [(t, r) for (d, t), r in rows.items() if d == depth and t in ("wrk", "h2load")]
    best_rps = max((max(x[0] for x in r) for _, r in peers), default=None)
    best_cpu = min((statistics.median(x[1] for x in r) for _, r in peers), default=None)
    for (d, tool), r in sorted(rows.items()):
        if d != depth:
            continue
        rps = [x[0] for x in r]
        whole = statistics.median(x[1] for x in r)
        window = statistics.median(x[2] for x in r) if r[0][2] is not None else whole
        ratio_rps = f"{max(rps) / best_rps:.2f}x" if best_rps else ""
        ratio_cpu = f"{window / best_cpu:.2f}x" if best_cpu else ""
        print(f"| {depth} | {tool} | {max(rps):,.0f} | {statistics.median(rps):,.0f} | {window:.2f} | {whole:.2f} | {ratio_rps} | {ratio_cpu} | {failed.get((depth, tool), 0)} |")
PY
