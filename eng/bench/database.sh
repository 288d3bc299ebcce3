#!/usr/bin/env bash
# The database scenarios measured in one sitting against one PostgreSQL cluster (started by
# `benchmarks database`, as the crank db job does): db and fortunes on kestrel and sockets at 256
# connections, each with its adaptive warm-up, the server's and the database's CPU split; then
# pgbench -S (select-only: one primary-key row per transaction, like a World read) on the same
# cluster as the physical limit for single-row reads on this machine.
#
#   eng/bench/database.sh                 (DURATION=15s CONNECTIONS=256 PORT=55610 OUT=/tmp/...)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
port=${PORT:-55610}
out=${OUT:-/tmp/benchmarks-database-bench}
duration=${DURATION:-15s}
connections=${CONNECTIONS:-256}
rm -rf "$out" && mkdir -p "$out"

"$exe" database --listen 127.0.0.1 --port "$port" --advertise 127.0.0.1 > "$out/database.log" 2>&1 &
db=$!
trap 'kill -TERM $db 2>/dev/null; wait $db 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do grep -q "ready to accept connections" "$out/database.log" && break; sleep 0.5; done
grep -q "ready to accept connections" "$out/database.log" || { cat "$out/database.log"; exit 1; }
conn="Host=127.0.0.1;Port=$port;Username=postgres;Database=hello_world"

for scenario in db fortunes; do
  for server in kestrel sockets; do
    echo "== $scenario on $server"
    "$exe" run "$scenario" --server "$server" -c "$connections" -d "$duration" --database "$conn" \
      --json "$out/$scenario-$server.json" --results "$out/results" > "$out/$scenario-$server.txt" 2>&1 || true
    grep -E "^(warm-up|window|bound|error):" "$out/$scenario-$server.txt" || true
  done
done

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
"$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -c "CREATE DATABASE pgbench" > /dev/null
"$bin/pgbench" -i -s 10 -q -h 127.0.0.1 -p "$port" -U postgres pgbench > "$out/pgbench-init.txt" 2>&1
for mode in simple prepared; do
  echo "== pgbench -S -c 64 -j 2 -M $mode"
  "$bin/pgbench" -S -c 64 -j 2 -T 15 -M "$mode" -h 127.0.0.1 -p "$port" -U postgres pgbench > "$out/pgbench-$mode.txt" 2>&1
  grep -E "^tps" "$out/pgbench-$mode.txt"
done

python3 - "$out" <<'PY'
import json, re, sys, glob, os
out = sys.argv[1]
tps = {}
for mode in ("simple", "prepared"):
    m = re.search(r"tps = ([0-9.]+)", open(os.path.join(out, f"pgbench-{mode}.txt")).read())
    tps[mode] = float(m.group(1)) if m else float("nan")
print()
print("| scenario | server | req/s | warm-up | window | server user/kernel % | db user/kernel % | machine idle % | db req/s ÷ pgbench -S TPS |")
print("|---|---|---|---|---|---|---|---|---|")
for scenario in ("db", "fortunes"):
    for server in ("kestrel", "sockets"):
        path = os.path.join(out, f"{scenario}-{server}.json")
        if not os.path.exists(path):
            print(f"| {scenario} | {server} | failed | | | | | | |"); continue
        d = json.load(open(path)); m = d["measurements"]
        rps = m.get("http/rps/mean", float("nan"))
        ratio = f"{rps / tps['simple']:.2f} (prepared: {rps / tps['prepared']:.2f})" if scenario == "db" else ""
        window = (d.get("window") or {}).get("verdict", "")
        print(f"| {scenario} | {server} | {rps:,.0f} | {m.get('load/warmup', 0):.0f} s | {window} | {m.get('benchmarks/cpu/user', 0):.1f} / {m.get('benchmarks/cpu/kernel', 0):.1f} | {m.get('db/cpu/user', 0):.1f} / {m.get('db/cpu/kernel', 0):.1f} | {m.get('machine/cpu/idle', 0):.1f} | {ratio} |")
print()
print(f"pgbench -S -c 64 -j 2 -T 15: {tps['simple']:,.0f} TPS (simple protocol), {tps['prepared']:,.0f} TPS (-M prepared)")
PY
