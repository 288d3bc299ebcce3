#!/usr/bin/env bash
# The two published shapes, as sweeps in one sitting, each ending with its table and an HTML matrix:
#   the k6 WebSocket comparison: ws-echo at 16, 64, 128 connections on kestrel and sockets;
#   the Channels study: plaintext directly, behind nginx and behind HAProxy at 1, 15, 100, 400 connections.
#
#   eng/bench/sweeps.sh        (DURATION=5s WARMUP=5s OUT=/tmp/benchmarks-sweeps)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
out=${OUT:-/tmp/benchmarks-sweeps}
duration=${DURATION:-5s}
warmup=${WARMUP:-5s}
rm -rf "$out" && mkdir -p "$out"
bash "$root/eng/install-tools.sh" nginx haproxy

"$exe" run ws-echo --server kestrel,sockets -c 16,64,128 -d "$duration" -w "$warmup" --results "$out/results" > "$out/ws.txt" 2>&1 || true
"$exe" run plaintext --server kestrel --proxy none,nginx,haproxy -c 1,15,100,400 -d "$duration" -w "$warmup" --results "$out/results" > "$out/proxy.txt" 2>&1 || true
for file in ws proxy; do
  id=$(grep -o "^Sweep [0-9a-f-]*" "$out/$file.txt" | cut -d' ' -f2)
  sed -n "/^Sweep $id/,\$p" "$out/$file.txt"
  "$exe" report --results "$out/results" --sweep "$id" --html "$out/$file.html" | tail -1
done
