#!/usr/bin/env bash
# Does the default warm-up find the steady state? The README's main job (`run pipelined`:
# Kestrel, adaptive warm-up) against the same Kestrel server warmed by hand for a fixed time and
# measured with the same load (256 connections, pipeline 16, one load thread, 15 s; server on
# CPU 0, load on CPU 1), rounds alternating. Prints each figure, the warm-up the run took, and
# the ratio run / hand-warmed per round and as the median.
#
#   eng/bench/steady-state.sh                  # 2 rounds, hand warm-up 60 s
#   ROUNDS=3 HAND_WARMUP=90 SERVER=sockets eng/bench/steady-state.sh
#
# Target: the ratio within 0.9-1.1.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-2}
HAND_WARMUP=${HAND_WARMUP:-60}
SERVER=${SERVER:-kestrel}
PORT=${PORT:-5098}

command -v taskset >/dev/null || bash eng/install-tools.sh util-linux
dotnet build src/Host -c Release -nologo -clp:ErrorsOnly >/dev/null
bin="src/Host/bin/Release/net10.0/benchmarks"
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill $server 2>/dev/null; rm -rf "$work"' EXIT

ratios=()
for round in $(seq "$ROUNDS"); do
  # 1. The default: run decides when the server is warm.
  "$bin" run pipelined --server "$SERVER" --results "$work/results" --json "$work/run.json" >"$work/run.log" 2>&1
  run_rps=$(grep -oP '"http/rps/mean": \K[0-9.]+' "$work/run.json" | head -1)
  warmup=$(grep -oP '"load/warmup": \K[0-9.]+' "$work/run.json" | head -1)
  window=$(grep -oP '^window: \K.*' "$work/run.log" || true)

  # 2. By hand: a fresh server, a fixed long warm-up, the same load.
  taskset -c 0 "$bin" serve --scenario pipelined --server "$SERVER" --urls "http://127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do grep -q "Application started." "$work/server.log" && break; sleep 0.1; done
  taskset -c 1 env DOTNET_TieredCompilation=0 "$bin" load --url "http://127.0.0.1:$PORT/plaintext" -c 256 -t 1 -p 16 \
    -w "${HAND_WARMUP}s" -d 15s --json "$work/hand.json" >"$work/hand.log" 2>&1
  kill $server; wait $server 2>/dev/null || true; server=""
  hand_rps=$(grep -oP '"requestsPerSecond": \K[0-9.]+' "$work/hand.json" | head -1)
  ratio=$(awk -v a="$run_rps" -v b="$hand_rps" 'BEGIN { printf "%.3f", a / b }')
  ratios+=("$ratio")
  printf 'round %d: run %.0f req/s (warm-up %.0f s; %s) | hand-warmed %d s: %.0f req/s | ratio %s\n' \
    "$round" "$run_rps" "$warmup" "$window" "$HAND_WARMUP" "$hand_rps" "$ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END { m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2; printf "median ratio run / hand-warmed: %.3f over %d rounds\n", m, NR }'
