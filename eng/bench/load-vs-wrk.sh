#!/usr/bin/env bash
# The built-in HTTP/1.1 load generator against wrk, on the same Kestrel plaintext server, with
# the server and the client pinned to separate cores, runs alternating. Prints req/s and client
# CPU time per request for both, and their ratios (medians over the rounds).
#
#   eng/bench/load-vs-wrk.sh                 # 3 rounds of 10 s, 256 connections
#   ROUNDS=5 DURATION=15 CONNECTIONS=128 eng/bench/load-vs-wrk.sh
#
# Target: built-in req/s >= 0.9x wrk's, client CPU per request <= 1.2x wrk's.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-256}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
PORT=${PORT:-5099}

bash eng/install-tools.sh wrk taskset >/dev/null 2>&1 || bash eng/install-tools.sh wrk
command -v taskset >/dev/null || bash eng/install-tools.sh util-linux
dotnet build src/Host -c Release -nologo -clp:ErrorsOnly >/dev/null
bin="src/Host/bin/Release/net10.0/benchmarks"
url="http://127.0.0.1:$PORT/plaintext"
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT

taskset -c "$SERVER_CPU" "$bin" serve --scenario plaintext --urls "http://127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q "Application started." "$work/server.log" && break; sleep 0.1; done
grep -q "Application started." "$work/server.log" || { cat "$work/server.log"; exit 1; }

cat >"$work/pipeline.lua" <<'LUA'
init = function(args)
  local depth = tonumber(args[1]) or 1
  local r = {}
  for i = 1, depth do r[i] = wrk.format() end
  req = table.concat(r)
end
request = function() return req end
LUA

# Each run appends: mode tool round rps cpu_seconds requests
TIMEFORMAT='%U %S'
run_wrk() { # depth
  local args=(-t1 -c "$CONNECTIONS" -d "${DURATION}s" --latency -H 'Connection: keep-alive')
  [ "$1" -gt 1 ] && args+=(-s "$work/pipeline.lua")
  { time taskset -c "$CLIENT_CPU" wrk "${args[@]}" "$url" -- "$1" >"$work/out" 2>&1; } 2>"$work/time"
  local rps requests
  rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/out")
  requests=$(awk '/requests in/ {print $1}' "$work/out")
  echo "$rps $(awk '{print $1 + $2}' "$work/time") $requests"
}
run_builtin() { # depth
  # Started as 'benchmarks run' starts its load job: tiered compilation off, so no re-JIT under load.
  { time DOTNET_TieredCompilation=0 taskset -c "$CLIENT_CPU" "$bin" load --url "$url" --scenario plaintext -t 1 -c "$CONNECTIONS" -p "$1" -d "${DURATION}s" --json "$work/load.json" >"$work/out" 2>&1; } 2>"$work/time"
  local rps requests
  rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/out")
  requests=$(awk '/requests in/ {print $1}' "$work/out")
  echo "$rps $(awk '{print $1 + $2}' "$work/time") $requests"
}

# Prime the server (tiered JIT, dynamic PGO, pools) on both paths before anything is measured.
taskset -c "$CLIENT_CPU" wrk -t1 -c "$CONNECTIONS" -d 5s "$url" >/dev/null 2>&1
taskset -c "$CLIENT_CPU" wrk -t1 -c "$CONNECTIONS" -d 10s -s "$work/pipeline.lua" "$url" -- 16 >/dev/null 2>&1

results="$work/results"
for depth in 1 16; do
  for round in $(seq "$ROUNDS"); do
    # Alternate which tool goes first so that drift in the machine hits both alike.
    if [ $((round % 2)) -eq 1 ]; then order="wrk builtin"; else order="builtin wrk"; fi
    for tool in $order; do
      line=$("run_$tool" "$depth")
      echo "depth=$depth $tool $round $line" | tee -a "$results" >&2
    done
  done
done

echo
printf '%-10s %-8s %14s %14s %12s\n' "pipeline" "tool" "req/s" "cpu us/req" "cpu s"
awk '
  function median(arr, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (arr[j] < arr[i]) { t = arr[i]; arr[i] = arr[j]; arr[j] = t }
    return (n % 2) ? arr[(n + 1) / 2] : (arr[n / 2] + arr[n / 2 + 1]) / 2 }
  { key = $1 " " $2; n[key]++; rps[key, n[key]] = $4; cpu[key, n[key]] = $5; per[key, n[key]] = $5 / $6 * 1e6 }
  END {
    split("depth=1 depth=16", depths, " ")
    for (d = 1; d <= 2; d++) {
      for (t = 1; t <= 2; t++) {
        tool = (t == 1) ? "wrk" : "builtin"; key = depths[d] " " tool; m = n[key]
        for (i = 1; i <= m; i++) { a[i] = rps[key, i]; b[i] = per[key, i]; c[i] = cpu[key, i] }
        r[tool] = median(a, m); p[tool] = median(b, m); cs[tool] = median(c, m)
        printf "%-10s %-8s %14.0f %14.3f %12.2f\n", depths[d], tool, r[tool], p[tool], cs[tool]
      }
      printf "%-10s %-8s %13.2fx %13.2fx   (built-in / wrk; target >= 0.90x req/s, <= 1.20x cpu)\n", depths[d], "ratio", r["builtin"] / r["wrk"], p["builtin"] / p["wrk"]
    }
  }' "$results"
