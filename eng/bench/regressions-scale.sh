#!/usr/bin/env bash
# `benchmarks regressions` over a large store: RUNS runs (default 100,000) in SERIES series
# (default 500), a tenth of them with a 5% step, in 3% noise, saved to a private PostgreSQL
# (port 25434) through `results push`, then detected: wall time and peak memory of the command,
# once for the headline alone (-m) and once for everything it follows by default.
#
#   bash eng/bench/regressions-scale.sh            100,000 runs
#   RUNS=20000 SERIES=100 bash eng/bench/regressions-scale.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${RUNS:-100000}
series=${SERIES:-500}
host=src/Host/bin/Release/net10.0/benchmarks
[ -x /usr/bin/time ] || { echo "error: needs GNU time for the peak memory (apt-get install time)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"; bash eng/postgres.sh stop 25434 >/dev/null 2>&1 || true' EXIT
dotnet build src/Host -c Release -nologo -clp:ErrorsOnly >/dev/null

base=$(bash eng/postgres.sh start 25434)
password=$(sed -n 's/.*Password=\([^;]*\).*/\1/p' <<<"$base")
PGPASSWORD=$password psql -h 127.0.0.1 -p 25434 -U postgres -qc "DROP DATABASE IF EXISTS regressions_scale" -c "CREATE DATABASE regressions_scale"
store="${base/Database=postgres/Database=regressions_scale}"

echo "== $runs runs in $series series, written as run documents"
python3 - "$work/results" "$runs" "$series" <<'PY'
import json, os, random, sys, uuid, datetime
folder, runs, series = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(folder)
random.seed(1)
per = runs // series
start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
for s in range(series):
    step = per * 2 // 3 if s % 10 == 0 else None
    for i in range(per):
        level = 100_000 * (0.95 if step is not None and i >= step else 1.0)
        rps = level * (1 + random.gauss(0, 0.03))
        at = start + datetime.timedelta(hours=12 * i, minutes=s)
        run = {
            "schema": 3, "id": uuid.uuid4().hex, "scenario": f"scenario{s % 50}", "server": f"server{s // 50}", "load": "http",
            "parameters": {"connections": "256", "pipeline": "1", "duration": "15s"},
            "labels": [], "startedAt": at.isoformat(), "durationSeconds": 20, "status": "Succeeded",
            "environment": {"os": "Linux", "osVersion": "Debian 12", "architecture": "X64", "cores": 2, "machineName": "lab-1",
                            "runtime": ".NET 10.0.12", "toolVersion": "0.1.0",
                            "dependencies": {"Microsoft.AspNetCore.App": "10.0.12" if step is None or i < step else "10.0.13", "Npgsql": "10.0.0"}},
            "measurements": {"http/rps/mean": rps, "http/latency/99": 2_000_000 / rps, "benchmarks/cpu-per-request": 10 * 100_000 / rps},
            "metadata": {}, "samples": [],
        }
        with open(os.path.join(folder, f"{at:%Y%m%d-%H%M%S}-{run['scenario']}-{run['server']}-{run['id'][:8]}.json"), "w") as f:
            json.dump(run, f)
PY

echo "== results push (one transaction a run)"
/usr/bin/time -f "push: %e s, peak %M KB" "$host" results push --results "$work/results" --store "$store" | tail -n 1

echo "== regressions -m http/rps/mean"
/usr/bin/time -f "regressions -m: %e s, peak %M KB" "$host" regressions --store "$store" -m http/rps/mean --json "$work/m.json" >/dev/null || true
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['series']), 'series,', len(d['changes']), 'changes,', d['open'], 'open')" "$work/m.json"

echo "== regressions (everything followed by default)"
/usr/bin/time -f "regressions: %e s, peak %M KB" "$host" regressions --store "$store" --json "$work/all.json" >/dev/null || true
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['series']), 'series,', len(d['changes']), 'changes,', d['open'], 'open')" "$work/all.json"
