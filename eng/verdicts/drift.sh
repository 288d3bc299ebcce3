#!/usr/bin/env bash
# Runs whose window's rate moves for a known reason, for the drift rule (Host/Verdicts/DriftRule,
# docs/methodology.md "The measured window"): the README's main job as written (warmed up until
# steady, 15 s measured), and a busy process started on a CPU at the window's seventh second, so
# that its last third carries it.
#
#   bash eng/verdicts/drift.sh [--host PATH] [--reps N] [--out DIR]
#
# Cells: server-cpu (a busy loop pinned on the server's CPU 0), load-cpu (two on the load's CPU 1),
# none (the same run alone). Prints each run's window and bound lines; the documents stay in
# DIR/CELL (tests/Fixtures/runs holds some, trimmed). Every busy loop it starts ends with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
host=src/Host/bin/Release/net10.0/benchmarks reps=2 out=$(mktemp -d)
while [ $# -gt 0 ]; do
  case $1 in
    --host) host=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: bash eng/verdicts/drift.sh [--host PATH] [--reps N] [--out DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
[ -x "$host" ] || { echo "error: no host at '$host' (dotnet build src/Host -c Release)" >&2; exit 2; }
busy=()
stop_busy() { [ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null || true; busy=(); }
trap 'stop_busy' EXIT
trap 'exit 130' INT TERM
spin() { taskset -c "$1" python3 -c 'while True: pass' >/dev/null 2>&1 & busy+=($!); }

for rep in $(seq "$reps"); do
  for cell in none server-cpu load-cpu; do
    "$host" run pipelined --results "$out/$cell" >"$out/$cell-$rep.txt" 2>&1 &
    run=$!
    # The window's progress lines read "[  7.0s] ..."; the warm-up lasts 5 to 60 s.
    for _ in $(seq 900); do
      grep -qE '^ +\[ +7\.0s\]' "$out/$cell-$rep.txt" 2>/dev/null && break
      kill -0 $run 2>/dev/null || break
      sleep 0.1
    done
    case $cell in
      server-cpu) spin 0 ;;
      load-cpu) spin 1; spin 1 ;;
    esac
    status=0
    wait $run || status=$?
    stop_busy
    echo "== $cell $rep (exit $status)"
    grep -E '^(window|bound):' "$out/$cell-$rep.txt" || tail -n 3 "$out/$cell-$rep.txt"
  done
done
echo "documents: $out"
