#!/usr/bin/env bash
# gRPC unary loads side by side, in one sitting, against one server: the gRPC scenario
# (Grpc.AspNetCore on Kestrel, h2c) on CPU 0, each load on CPU 1 — the built-in gRPC load (epoll
# engine, one thread), h2load posting the same framed message with gRPC's headers (one thread),
# and Grpc.Net.Client, the load a .NET user would write (eng/bench/grpc-client). Every cell is
# CONNECTIONS x CALLS in flight per connection, ROUNDS times with the loads in rotating order.
# The rate is each load's count of calls completed in its measured window; the CPU is the load
# process's user + kernel time from /proc/<pid>/stat over the window's inner part (1 s after the
# warm-up to 1 s before the end), so CPU per call is its own time over the calls it made then.
# Prints per cell and load the median calls/s with its spread, the median µs of load CPU per
# call, and the ratios of the built-in load to each peer. CALL=ping-pong measures gRPC streaming
# instead (StreamingCall kept open, a message answered before the next goes, round trips counted)
# with the built-in load and Grpc.Net.Client: h2load cannot hold a stream open. CALL=server-streaming
# counts the messages of StreamingFromServer streams, each sending for as long as the load lasts.
# CALL=client-streaming calls StreamingFromClient with 10 request messages a call, the built-in load
# (--grpc-messages 10) against h2load posting the same 10 framed messages as one body.
# WIRE=h2 serves and loads over TLS (h2 by ALPN; the server's own self-signed certificate, which
# every load accepts): the built-in load through OpenSSL, h2load through its own, Grpc.Net.Client
# through SslStream.
#
#   eng/bench/grpc.sh   (DURATION=8 WARMUP=3 ROUNDS=3 CELLS="16x4 64x1 64x16" CALL=unary WIRE=h2c OUT=/tmp/...)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
client=$root/eng/bench/grpc-client/bin/Release/net10.0/grpc-client-load
duration=${DURATION:-8}
warmup=${WARMUP:-3}
rounds=${ROUNDS:-3}
cells=${CELLS:-"16x4 64x1 64x16"}
call=${CALL:-unary}
wire=${WIRE:-h2c}
case $wire in
  h2c) scheme=http ;;
  h2) scheme=https ;;
  *) echo "error: WIRE is h2c or h2, not '$wire'" >&2; exit 2 ;;
esac
out=${OUT:-/tmp/benchmarks-grpc}
case $call in
  ping-pong) loads="builtin dotnet"; method_name=StreamingCall ;;
  server-streaming) loads="builtin dotnet"; method_name=StreamingFromServer ;;
  client-streaming) loads="builtin h2load"; method_name=StreamingFromClient ;;
  *) loads="builtin h2load dotnet"; method_name=UnaryCall ;;
esac
bash "$root/eng/install-tools.sh" h2load
dotnet build "$root/src/Host" -c Release -nologo -clp:ErrorsOnly > /dev/null
dotnet build "$root/eng/bench/grpc-client" -c Release -nologo -clp:ErrorsOnly > /dev/null
rm -rf "$out" && mkdir -p "$out"

port=$(( 20000 + RANDOM % 10000 ))
method="$scheme://127.0.0.1:$port/grpc.testing.BenchmarkService/$method_name"
taskset -c 0 "$exe" serve --scenario grpc-unary --server kestrel --protocol "$wire" --urls "$scheme://127.0.0.1:$port" > "$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2> /dev/null || true; wait $server 2> /dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "Application started" "$out/server.log" && break; sleep 0.1; done
# SimpleRequest { response_size: 10 }, framed for h2load (a client stream: 10 of them, one body).
messages=1 more=""
if [ "$call" = client-streaming ]; then messages=10 more="--grpc-messages 10"; fi
: > "$out/request.bin"
for _ in $(seq 1 $messages); do printf '\x00\x00\x00\x00\x02\x10\x0a' >> "$out/request.bin"; done
# The server warms up (JIT, tiering) under a load that is not measured: the first cell's first load would carry it.
taskset -c 1 "$exe" load --url "$method" --protocol "$wire" --grpc-message hex:100a --grpc-call "$call" $more -c 16 --streams 4 -t 1 -w 0s -d 8s > "$out/server-warmup.txt" 2>&1

cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"; }

measure() { # name connections calls round
  local name=$1 c=$2 m=$3 round=$4 file="$out/$1-$2x$3-$4.txt"
  case $name in
    builtin) taskset -c 1 "$exe" load --url "$method" --protocol "$wire" --grpc-message hex:100a --grpc-call "$call" $more -c "$c" --streams "$m" -t 1 -w "${warmup}s" -d "${duration}s" --json "$file.json" > "$file" 2>&1 & ;;
    h2load) taskset -c 1 h2load -c "$c" -m "$m" -t 1 --warm-up-time "$warmup" -D "$duration" -d "$out/request.bin" -H 'content-type: application/grpc' -H 'te: trailers' "$method" > "$file" 2>&1 & ;;
    dotnet) taskset -c 1 "$client" "$scheme://127.0.0.1:$port" "$c" "$m" "$warmup" "$duration" ${call/unary/} > "$file" 2>&1 & ;;
  esac
  local pid=$!
  sleep $(( warmup + 1 ))
  local before; before=$(cpu_seconds "$pid")
  sleep $(( duration - 2 ))
  local after; after=$(cpu_seconds "$pid")
  wait "$pid" || true
  local rate
  case $name in
    builtin) rate=$(awk '/^Requests\/sec:/ { print $2 }' "$file") ;;
    h2load) rate=$(awk '/^finished in/ { print $4 }' "$file") ;;
    dotnet) rate=$(awk '/^calls/ { print $4 }' "$file") ;;
  esac
  echo "$name $c $m $rate $(awk -v a="$after" -v b="$before" -v r="$rate" -v d="$duration" 'BEGIN { printf "%.3f", (a - b) / ((d - 2) * r) * 1e6 }')" >> "$out/cells.txt"
}

for cell in $cells; do
  c=${cell%x*}; m=${cell#*x}
  for round in $(seq 1 "$rounds"); do
    # The loads in rotating order: each goes first in one round.
    order=$(echo $loads | awk -v r="$round" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + r - 1) % NF + 1) }')
    for name in $order; do measure "$name" "$c" "$m" "$round"; done
  done
done

python3 - "$out/cells.txt" <<'PY'
import sys, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, c, m, rate, cpu = line.split()
    rows[(c, m, name)].append((float(rate), float(cpu)))
cells = sorted({(c, m) for c, m, _ in rows}, key=lambda k: (int(k[0]), int(k[1])))
print(f"{'cell':>10} {'load':>8} {'calls/s':>10} {'spread':>16} {'us/call':>8}")
for c, m in cells:
    med = {}
    for name in ("builtin", "h2load", "dotnet"):
        values = rows[(c, m, name)]
        if not values:
            continue
        rate = statistics.median(v[0] for v in values); cpu = statistics.median(v[1] for v in values)
        med[name] = (rate, cpu)
        print(f"{c + 'x' + m:>10} {name:>8} {rate:>10,.0f} {min(v[0] for v in values):>7,.0f}-{max(v[0] for v in values):<8,.0f} {cpu:>8.2f}")
    for peer in [p for p in ("h2load", "dotnet") if p in med]:
        print(f"{'':>10} builtin/{peer}: rate {med['builtin'][0] / med[peer][0]:.2f}x, CPU per call {med['builtin'][1] / med[peer][1]:.2f}x")
PY
