#!/usr/bin/env bash
# Server models side by side: kestrel, sockets, libuv, iouring and nginx (one worker, the reference) on
# pipelined plaintext (depth 16), plaintext one request at a time and JSON, under wrk and under the built-in generator, with the
# server pinned to one core and the client to another, rounds alternating. Prints req/s, the
# server's CPU split into user and kernel mode (% of its core), its CPU per request, and the
# ratios to nginx and to sockets.
#
#   eng/bench/servers.sh                        # 3 rounds of 10 s, 256 connections
#   ROUNDS=1 DURATION=5 SERVERS="sockets nginx" eng/bench/servers.sh
#
# Besides the models, the variants in eng/bench/server-variant.sh (kestrel-inline: the TechEmpower
# entry's scheduling; kestrel-iouring and kestrel-iouring-inline: Kestrel on its io_uring transport):
#   SERVERS="kestrel kestrel-inline kestrel-iouring kestrel-iouring-inline" SCENARIOS="pipelined plaintext" eng/bench/servers.sh
#
# Targets: sockets >= 1.0x nginx on pipelined plaintext; kestrel >= 0.8x nginx; libuv >= 0.9x sockets;
# iouring >= 1.2x nginx at <= 0.8x its CPU per request one request per read, >= 1.1x sockets pipelined.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-256}
SERVERS=${SERVERS:-"kestrel sockets libuv iouring nginx"}
SCENARIOS=${SCENARIOS:-"pipelined plaintext json"}
LOADERS=${LOADERS:-"wrk builtin"}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
PORT=${PORT:-5094}
PRIME=${PRIME:-10}

source eng/bench/server-variant.sh
bash eng/install-tools.sh wrk nginx
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


cat >"$work/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
master_process off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; multi_accept on; use epoll; }
http {
  access_log off;
  keepalive_requests 1000000000;
  keepalive_timeout 120s;
  client_body_temp_path $work/nginx-body;
  server {
    listen 127.0.0.1:$PORT backlog=4096 reuseport;
    location = /plaintext { default_type text/plain; return 200 "Hello, World!"; }
    location = /json { default_type application/json; return 200 '{"message":"Hello, World!"}'; }
  }
}
NGINX

start_server() { # server scenario
  if [ "$1" = nginx ]; then
    taskset -c "$SERVER_CPU" nginx -c "$work/nginx.conf" -e "$work/nginx-error.log" &
    server_pid=$!
    for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/plaintext" && return; sleep 0.1; done
  else
    local scenario=$2; [ "$scenario" = pipelined ] && scenario=plaintext
    server_variant "$1"
    taskset -c "$SERVER_CPU" "$bin" serve --scenario "$scenario" --server "$model" "${options[@]}" --urls "http://127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do grep -q "Application started." "$work/server.log" && return; sleep 0.1; done
  fi
  echo "server $1 did not start" >&2; cat "$work/server.log" >&2 || true; exit 1
}

cpu_ticks() { awk '{print $14 " " $15}' "/proc/$server_pid/stat"; }

run_load() { # loader scenario -> "rps"
  local path=/plaintext depth=16
  [ "$2" = json ] && path=/json && depth=1
  [ "$2" = plaintext ] && depth=1
  local url="http://127.0.0.1:$PORT$path"
  if [ "$1" = wrk ]; then
    local args=(-t1 -c "$CONNECTIONS" -d "${DURATION}s" -H 'Connection: keep-alive')
    [ "$depth" -gt 1 ] && args+=(-s eng/bench/pipeline.lua)
    taskset -c "$CLIENT_CPU" wrk "${args[@]}" "$url" -- "$depth" | awk '/^Requests\/sec:/ {print $2}'
  else
    DOTNET_TieredCompilation=0 taskset -c "$CLIENT_CPU" "$bin" load --url "$url" -t 1 -c "$CONNECTIONS" -p "$depth" -d "${DURATION}s" \
      | awk '/^Requests\/sec:/ {print $2}'
  fi
}

hz=$(getconf CLK_TCK)
results="$work/results"
for scenario in $SCENARIOS; do
  for server in $SERVERS; do
    start_server "$server" "$scenario"
    # Prime: JIT tiers and dynamic PGO of the .NET servers, pools, caches.
    DURATION=$PRIME run_load wrk "$scenario" >/dev/null 2>&1 || true
    for round in $(seq "$ROUNDS"); do
      order="$LOADERS"; [ $((round % 2)) -eq 0 ] && order=$(echo "$LOADERS" | awk '{for (i = NF; i > 0; i--) printf "%s ", $i}')
      for loader in $order; do
        read -r u0 s0 < <(cpu_ticks)
        t0=$(date +%s.%N)
        rps=$(run_load "$loader" "$scenario")
        t1=$(date +%s.%N)
        read -r u1 s1 < <(cpu_ticks)
        line=$(awk -v u="$((u1 - u0))" -v s="$((s1 - s0))" -v hz="$hz" -v t0="$t0" -v t1="$t1" \
          'BEGIN { d = t1 - t0; printf "%.1f %.1f", u / hz / d * 100, s / hz / d * 100 }')
        echo "$scenario $server $loader $round ${rps:-0} $line" | tee -a "$results" >&2
      done
    done
    stop_server
  done
done

echo
python3 - "$results" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
data = {}
for scenario, server, loader, _round, rps, user, kernel in rows:
    data.setdefault((scenario, server, loader), []).append((float(rps), float(user), float(kernel)))
print(f"{'scenario':<10} {'server':<14} {'load':<8} {'req/s':>12} {'spread':>7} {'user%':>7} {'kernel%':>8} {'us/req':>7} {'vs nginx':>9} {'cpu/req vs nginx':>17} {'vs sockets':>11}")
def cpu_per_request(values):
    return st.median((v[1] + v[2]) / 100 / v[0] * 1e6 for v in values if v[0] > 0)
for (scenario, server, loader), values in sorted(data.items()):
    rps = st.median(v[0] for v in values); user = st.median(v[1] for v in values); kernel = st.median(v[2] for v in values)
    def ratio(ref):
        r = data.get((scenario, ref, loader))
        return f"{rps / st.median(v[0] for v in r):.2f}x" if r else "-"
    spread = (max(v[0] for v in values) - min(v[0] for v in values)) / rps * 100 if rps else 0
    reference = data.get((scenario, "nginx", loader))
    cpu_ratio = f"{cpu_per_request(values) / cpu_per_request(reference):.2f}x" if reference else "-"
    print(f"{scenario:<10} {server:<14} {loader:<8} {rps:>12,.0f} {spread:>6.1f}% {user:>7.1f} {kernel:>8.1f} {cpu_per_request(values):>7.2f} {ratio('nginx'):>9} {cpu_ratio:>17} {ratio('sockets'):>11}")
PY
