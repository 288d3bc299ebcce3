#!/usr/bin/env bash
# What TLS and HTTP/2 cost the servers, in one sitting (server on CPU 0, load on CPU 1): plaintext
# over cleartext HTTP/1.1, HTTPS with keep-alive (record encryption only), HTTPS with a handshake
# per request (keep-alive off), h2c and h2 (HTTP/2, loaded by h2load with STREAMS streams per
# connection) — on kestrel and on sockets where it serves the wire — ROUNDS times in alternating
# order; the HTTPS cells also with wrk and h2load as the load, beside the built-in one. Prints,
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
  "kestrel h2c --protocol h2c --streams $streams -c 64 --generator h2load"
  "kestrel h2 --protocol h2 --streams $streams -c 64 --generator h2load"
  "sockets http1"
  "sockets https --tls"
  "sockets handshakes --tls --keep-alive false -c 32"
  "kestrel https-wrk --tls --generator wrk"
  "sockets https-wrk --tls --generator wrk"
  "sockets https-h2load --tls --generator h2load"
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
import glob, json, math, os, statistics, sys
out = sys.argv[1]

def load_us(d):
    # The built-in load reports its own CPU; for wrk and h2load it is the outside samples' mean over the window.
    m = d["measurements"]
    if "load/cpu-per-request" in m:
        return m["load/cpu-per-request"]
    seconds = [s["values"] for s in d["samples"] if "load/cpu/user" in s["values"]]
    cores = d.get("environment", {}).get("cores") or os.cpu_count()
    if not seconds or not m.get("http/rps/mean"):
        return math.nan
    busy = statistics.mean(v["load/cpu/user"] + v.get("load/cpu/kernel", 0) for v in seconds) / 100 * cores
    return busy * 1e6 / m["http/rps/mean"]

print(f"{'server':<8} {'wire':<11} {'req/s median':>13} {'spread':>8} {'user %':>7} {'kernel %':>8} {'us/req':>7} {'load us/req':>11} {'hs/s':>7} {'hs p99 ms':>9}")
for cell in sys.argv[2:]:
    server, name = cell.split()[:2]
    docs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(out, f"{server}-{name}-*.json")))]
    docs = [d for d in docs if str(d.get("status", "")).lower() == "succeeded"]
    if not docs:
        print(f"{server:<8} {name:<11} {'(no run succeeded)':>13}"); continue
    def m(key):
        values = [d["measurements"][key] for d in docs if key in d["measurements"]]
        return statistics.median(values) if values else math.nan
    rates = [d["measurements"]["http/rps/mean"] for d in docs]
    spread = (max(rates) - min(rates)) / statistics.median(rates) * 100
    print(f"{server:<8} {name:<11} {statistics.median(rates):>13,.0f} {spread:>7.1f}% {m('benchmarks/cpu/user'):>7.1f} {m('benchmarks/cpu/kernel'):>8.1f} {m('benchmarks/cpu-per-request'):>7.1f} {statistics.median(load_us(d) for d in docs):>11.1f} {m('http/tls/handshakes/rate'):>7.0f} {m('http/tls/handshake/99'):>9.2f}")
print(f"({len(docs)} rounds per cell; spread = (max - min) / median of the rounds' req/s)")
PY
