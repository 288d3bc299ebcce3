#!/usr/bin/env bash
# WebSocket benchmarks on Kestrel and the sockets server, server pinned to one core and the load
# to another: echo sync and async at 16/64/128 connections (msgs/s, RTT p95, server CPU split),
# memory per connection at 10,000 idle connections (load generator and server), and
# websocket-shootout broadcast stepping to the RTT limit.
#
#   eng/bench/websockets.sh
#   DURATION=5 SERVERS=sockets eng/bench/websockets.sh
#
# Targets: <= 16 KB per idle connection in the load generator; async echo >= 5x sync at 64 connections.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${DURATION:-8}
SERVERS=${SERVERS:-"kestrel sockets"}
WINDOW=${WINDOW:-100}
IDLE=${IDLE:-10000}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
PORT=${PORT:-5088}

bash eng/install-tools.sh bc taskset 2>/dev/null || bash eng/install-tools.sh bc
dotnet build src/Host -c Release -nologo -clp:ErrorsOnly >/dev/null
bin="$(pwd)/src/Host/bin/Release/net10.0/benchmarks"
work=$(mktemp -d)
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT

start_server() { # server scenario
  taskset -c "$SERVER_CPU" "$bin" serve --scenario "$2" --server "$1" --urls "http://127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do grep -q "Application started." "$work/server.log" && return; sleep 0.1; done
  cat "$work/server.log" >&2; exit 1
}
ticks() { awk '{print $14 " " $15}' "/proc/$server_pid/stat"; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$server_pid/status"; }
load() { taskset -c "$CLIENT_CPU" "$bin" load --ws "$@"; }
hz=$(getconf CLK_TCK)
results="$work/results"

for server in $SERVERS; do
  start_server "$server" ws-echo
  load --url "ws://127.0.0.1:$PORT/json" -c 64 -d 3s >/dev/null   # prime
  for connections in 16 64 128; do
    for mode in echo-sync echo-async; do
      read -r u0 s0 < <(ticks); t0=$(date +%s.%N)
      out=$(load --ws-mode "$mode" --window "$WINDOW" --url "ws://127.0.0.1:$PORT/json" -c "$connections" -d "${DURATION}s" || true)
      t1=$(date +%s.%N); read -r u1 s1 < <(ticks)
      rate=$(sed -n 's/.*ws_msgs_received[. ]*: [0-9]* (\([0-9.]*\)\/s).*/\1/p' <<<"$out")
      p95=$(sed -n 's/.*p95=\([0-9.]*\)ms.*/\1/p' <<<"$out")
      cpu=$(awk -v u="$((u1 - u0))" -v s="$((s1 - s0))" -v hz="$hz" -v d="$(echo "$t1 - $t0" | bc)" 'BEGIN { printf "%.1f %.1f", u / hz / d * 100, s / hz / d * 100 }')
      echo "echo $server $mode $connections ${rate:-0} ${p95:-0} $cpu" | tee -a "$results" >&2
    done
  done
  # Memory per idle connection: the load reports its own; the server's is its resident growth.
  r0=$(rss_kb)
  load --ws-mode idle --url "ws://127.0.0.1:$PORT/plain" -c "$IDLE" -d 6s --local-address 127.0.0.1 --local-address 127.0.0.2 >"$work/idle.txt" &
  idle_pid=$!
  sleep 5
  r1=$(rss_kb)
  wait "$idle_pid" || true
  load_kb=$(sed -n 's/.*, \([0-9.]*\) KB resident.*/\1/p' "$work/idle.txt")
  server_kb=$(awk -v a="$r0" -v b="$r1" -v n="$IDLE" 'BEGIN { printf "%.1f", (b - a) / n }')
  echo "idle $server $IDLE ${load_kb:-0} $server_kb" | tee -a "$results" >&2
  stop_server

  start_server "$server" ws-broadcast
  load --ws-mode broadcast --url "ws://127.0.0.1:$PORT/ws" --initial-clients 500 --step-size 500 --sample-size 100 --concurrent 10 --total-steps "${BROADCAST_STEPS:-8}" | tee "$work/broadcast.txt" >&2 || true
  best=$(sed -n 's/^Largest client count under .*: \([0-9]*\)$/\1/p' "$work/broadcast.txt")
  counts=$(sed -n 's/^Broadcasts received: \(.*\)$/\1/p' "$work/broadcast.txt")
  echo "broadcast $server ${best:-0} ${counts// /_}" | tee -a "$results" >&2
  stop_server
done

echo
python3 - "$results" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
print(f"{'server':<8} {'mode':<11} {'conns':>5} {'msgs/s':>10} {'rtt p95 ms':>10} {'srv user%':>9} {'srv kern%':>9}")
echo = {}
for r in rows:
    if r[0] == "echo":
        _, server, mode, conns, rate, p95, user, kernel = r
        echo[(server, mode, conns)] = float(rate)
        print(f"{server:<8} {mode:<11} {conns:>5} {float(rate):>10,.0f} {float(p95):>10.3f} {float(user):>9.1f} {float(kernel):>9.1f}")
print()
for (server, mode, conns), rate in sorted(echo.items()):
    if mode == "echo-async" and (server, "echo-sync", conns) in echo:
        print(f"{server:<8} async/sync at {conns:>3} connections: {rate / echo[(server, 'echo-sync', conns)]:.2f}x")
print()
for r in rows:
    if r[0] == "idle":
        print(f"{r[1]:<8} {r[2]} idle connections: load generator {r[3]} KB/connection, server {r[4]} KB/connection")
    if r[0] == "broadcast":
        print(f"{r[1]:<8} broadcast: largest client count under p95 500 ms: {r[2]} (broadcasts received: {r[3].replace('_', ' ')})")
PY
