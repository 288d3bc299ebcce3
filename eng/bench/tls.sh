#!/usr/bin/env bash
# What TLS and HTTP/2 cost the servers, in one sitting (server on CPU 0, load on CPU 1): plaintext
# over cleartext HTTP/1.1, HTTPS with keep-alive (record encryption only), HTTPS with a handshake
# per request (keep-alive off), h2c and h2 (HTTP/2, loaded by h2load with STREAMS streams per
# connection) — on kestrel and on sockets where it serves the wire — ROUNDS times in alternating
# order. Then the loads side by side on one HTTPS server: the built-in load against wrk. Prints,
# per cell, the median req/s with its spread, the server's user/kernel split and CPU per request,
# and for handshakes their rate and p99.
#
#   eng/bench/tls.sh   (DURATION=8s WARMUP=3s ROUNDS=3 STREAMS=10 OUT=/tmp/...)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
duration=${DURATION:-8s}
warmup=${WARMUP:-3s}
rounds=${ROUNDS:-3}
streams=${STREAMS:-10}
out=${OUT:-/tmp/benchmarks-tls}
bash "$root/eng/install-tools.sh" wrk h2load
rm -rf "$out" && mkdir -p "$out"

cells=(
  "kestrel http1"
  "kestrel https --tls"
  "kestrel handshakes --tls --keep-alive false -c 32"
  "kestrel h2c --protocol h2c -p $streams -c 64"
  "kestrel h2 --protocol h2 -p $streams -c 64"
  "sockets http1"
  "sockets https --tls"
  "sockets handshakes --tls --keep-alive false -c 32"
  "kestrel https-wrk --tls --generator wrk"
  "sockets https-wrk --tls --generator wrk"
)

for round in $(seq 1 "$rounds"); do
  # Odd rounds in the listed order, even ones backwards: a drift over the sitting does not favour one cell.
  indices=$(seq 0 $(( ${#cells[@]} - 1 )))
  if (( round % 2 == 0 )); then indices=$(echo "$indices" | tac); fi
  for i in $indices; do
    read -r server name rest <<< "${cells[$i]}"
    # shellcheck disable=SC2086
    "$exe" run plaintext --server "$server" --server-cpus 0 --load-cpus 1 -d "$duration" -w "$warmup" --no-verify \
      --json "$out/$server-$name-$round.json" --results "$out/results" $rest > "$out/$server-$name-$round.txt" 2>&1 || echo "  $server $name round $round failed: $(tail -1 "$out/$server-$name-$round.txt")"
  done
done

python3 - "$out" "${cells[@]}" <<'PY'
import glob, json, os, statistics, sys
out = sys.argv[1]
print(f"{'server':<8} {'wire':<11} {'req/s median':>13} {'spread':>8} {'user %':>7} {'kernel %':>8} {'us/req':>7} {'load us/req':>11} {'hs/s':>7} {'hs p99 ms':>9}")
for cell in sys.argv[2:]:
    server, name = cell.split()[:2]
    docs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(out, f"{server}-{name}-*.json")))]
    docs = [d for d in docs if d.get("status") == "succeeded"]
    if not docs:
        print(f"{server:<8} {name:<11} {'(no run succeeded)':>13}"); continue
    m = lambda key: statistics.median(d["measurements"].get(key, float("nan")) for d in docs)
    rates = [d["measurements"]["http/rps/mean"] for d in docs]
    spread = (max(rates) - min(rates)) / statistics.median(rates) * 100
    print(f"{server:<8} {name:<11} {statistics.median(rates):>13,.0f} {spread:>7.1f}% {m('benchmarks/cpu/user'):>7.1f} {m('benchmarks/cpu/kernel'):>8.1f} {m('benchmarks/cpu-per-request'):>7.1f} {m('load/cpu-per-request'):>11.1f} {m('http/tls/handshakes/rate'):>7.0f} {m('http/tls/handshake/99'):>9.2f}")
PY
