#!/usr/bin/env bash
# A TCP protocol from a plugin against a real peer, side by side in one sitting: the sample
# plugin's resp-ping client (RESP's inline PING) under `benchmarks load --tcp` and Redis's own
# redis-benchmark (ping_inline), both against one redis-server, alternating, ROUNDS times each.
#
#   eng/bench/resp.sh          (ROUNDS=3 CONNECTIONS=50 PIPELINE=16 DURATION=5s)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
plugin=$root/tests/Plugins/SamplePlugin/bin/Release/net10.0
rounds=${ROUNDS:-3}
connections=${CONNECTIONS:-50}
pipeline=${PIPELINE:-16}
duration=${DURATION:-5s}
bash "$root/eng/install-tools.sh" redis-server  # brings redis-tools: redis-cli, redis-benchmark
[ -x "$exe" ] && [ -f "$plugin/Benchmarks.Samples.Plugin.dll" ] || { echo "error: build first: dotnet build Benchmarks.sln -c Release" >&2; exit 1; }

port=26379
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no > /dev/null 2>&1 &
redis=$!
trap 'kill "$redis" 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 100); do [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ] && break; sleep 0.1; done

# redis-benchmark runs a request count, not a duration: about as many as the built-in load's last round answered.
requests=3000000
for round in $(seq 1 "$rounds"); do
  ours=$("$exe" load --tcp --url "tcp://127.0.0.1:$port" --scenario resp-ping --plugins "$plugin" -c "$connections" --window "$pipeline" -d "$duration" -w 2s | awk '/^Speed:/ {print $2}')
  theirs=$(redis-benchmark -p "$port" -t ping_inline -c "$connections" -P "$pipeline" -n "$requests" -q 2>&1 | tr '\r' '\n' | awk '/PING_INLINE: .* requests per second/ {print $2}' | tail -1)
  echo "round $round: benchmarks load $ours PING/s, redis-benchmark $theirs PING/s"
done
