#!/usr/bin/env bash
# System calls per request, server and client, under one load: each server model (and nginx, one
# worker) pinned to CPU 0, loaded by each client on CPU 1 (the built-in load's epoll and sockets
# engines, wrk, h2load); the kernel's tracepoints count every call of both processes (perf stat,
# from Debian's linux-perf) over the client's whole run, divided by the requests it completed.
# Shows where a model's kernel time goes: reads that find nothing (EAGAIN), thread wake-ups
# (futex), epoll registrations.
#
#   eng/bench/syscalls.sh        # SERVERS="sockets libuv iouring kestrel nginx" CLIENTS="epoll sockets wrk h2load" DEPTH=1 CONNECTIONS=64
#   SERVERS="kestrel kestrel-iouring" CLIENTS=wrk eng/bench/syscalls.sh   # variants: eng/bench/server-variant.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
SERVERS=${SERVERS:-"sockets libuv iouring kestrel nginx"}
CLIENTS=${CLIENTS:-"epoll sockets wrk h2load"}
DURATION=${DURATION:-5}
CONNECTIONS=${CONNECTIONS:-64}
DEPTH=${DEPTH:-1}
PORT=${PORT:-5095}
command -v perf >/dev/null || bash eng/install-tools.sh linux-perf >/dev/null
command -v wrk >/dev/null || bash eng/install-tools.sh wrk >/dev/null
command -v h2load >/dev/null || bash eng/install-tools.sh nghttp2-client >/dev/null
command -v nginx >/dev/null || bash eng/install-tools.sh nginx >/dev/null
dotnet build src/Host -c Release -nologo -clp:ErrorsOnly >/dev/null
bin="$(pwd)/src/Host/bin/Release/net10.0/benchmarks"
work=$(mktemp -d)
server_pid=""
trap '[ -n "$server_pid" ] && kill $server_pid 2>/dev/null; rm -rf "$work"' EXIT
events=raw_syscalls:sys_enter
for call in read write writev sendmsg recvmsg sendto recvfrom epoll_wait epoll_pwait epoll_ctl futex io_uring_enter; do
  events+=",syscalls:sys_enter_$call"
done

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
  client_body_temp_path $work/nginx-body;
  server { listen 127.0.0.1:$PORT backlog=4096 reuseport; location = /plaintext { default_type text/plain; return 200 "Hello, World!"; } }
}
NGINX

url="http://127.0.0.1:$PORT/plaintext"
run_client() { # name: runs it on CPU 1 under perf (server and client counted), prints the requests it completed
  local count=(perf stat -x, -e "$events" -o "$work/client.perf" --)
  case $1 in
    epoll|sockets)
      BENCHMARKS_HTTP_ENGINE=$1 DOTNET_TieredCompilation=0 DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=1 \
        perf stat -x, -e "$events" -p "$server_pid" -o "$work/server.perf" -- "${count[@]}" taskset -c 1 "$bin" load --url "$url" -t 1 -c "$CONNECTIONS" -p "$DEPTH" -d "${DURATION}s" -w 0s --json "$work/load.json" >/dev/null 2>&1
      python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['requests'], r['requestsPerSecond'])" "$work/load.json" ;;
    wrk)
      perf stat -x, -e "$events" -p "$server_pid" -o "$work/server.perf" -- "${count[@]}" taskset -c 1 wrk -t1 -c "$CONNECTIONS" -d "${DURATION}s" -s eng/bench/pipeline.lua "$url" -- "$DEPTH" >"$work/out" 2>&1
      echo "$(awk '/requests in/ {print $1}' "$work/out") $(awk '/^Requests\/sec:/ {print $2}' "$work/out")" ;;
    h2load)
      perf stat -x, -e "$events" -p "$server_pid" -o "$work/server.perf" -- "${count[@]}" taskset -c 1 h2load --h1 -t1 -c "$CONNECTIONS" -m "$DEPTH" -D "$DURATION" "$url" >"$work/out" 2>&1
      echo "$(awk '/^requests:/ {print $8}' "$work/out") $(awk '/^finished in/ {gsub(",", "", $4); print $4}' "$work/out")" ;;
  esac
}

source eng/bench/server-variant.sh
for server in $SERVERS; do
  if [ "$server" = nginx ]; then
    taskset -c 0 nginx -c "$work/nginx.conf" & server_pid=$!
    sleep 0.5
  else
    server_variant "$server"
    taskset -c 0 "$bin" serve --scenario plaintext --server "$model" "${options[@]}" --urls "http://127.0.0.1:$PORT" >"$work/server.log" 2>&1 & server_pid=$!
    for _ in $(seq 100); do grep -q "Application started." "$work/server.log" && break; sleep 0.1; done
  fi
  taskset -c 1 wrk -t1 -c "$CONNECTIONS" -d 10s "$url" >/dev/null 2>&1  # warm the server
  for name in $CLIENTS; do
    read -r requests rps < <(run_client "$name")
    python3 - "$work/server.perf" "$work/client.perf" "$server" "$name" "$requests" "$rps" <<'PY'
import sys
def read(path):
    counts = {}
    for line in open(path):
        parts = line.strip().split(',')
        if len(parts) > 2 and ':' in parts[2] and parts[0].replace('.', '').isdigit():
            counts[parts[2].split(':')[1].replace('sys_enter_', '').replace('sys_enter', 'all')] = float(parts[0])
    return counts
server, client = read(sys.argv[1]), read(sys.argv[2])
name, load, requests, rps = sys.argv[3], sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
def per(counts):
    top = sorted(((k, v / requests) for k, v in counts.items() if k != 'all' and v / requests >= 0.01), key=lambda kv: -kv[1])
    return f"{counts.get('all', 0) / requests:5.2f} (" + ", ".join(f"{k} {v:.2f}" for k, v in top) + ")"
print(f"| {name} | {load} | {rps:,.0f} | {per(server)} | {per(client)} |")
PY
  done
  kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null || true; server_pid=""
done
