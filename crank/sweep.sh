#!/usr/bin/env bash
# A sweep driven by crank: crank runs one scenario per call, so the sweep is one crank call per
# cell, each writing --json, all imported into the store under one label (sweep:ID). The result
# is the same set of runs a local `benchmarks run` sweep stores: `results list --sweep ID`,
# `report --sweep ID --html FILE | --markdown -` and `compare label:sweep:A label:sweep:B --by-cell`
# read it.
#
#   cd crank && ./sweep.sh --config plaintext.yml --scenario plaintext --profile lab \
#       --variable serverModel=kestrel,sockets,libuv --variable connections=16,64,256
#
# Every --variable whose value has commas is an axis; everything else is passed to each crank
# call as it is. Each cell also gets --property NAME=VALUE, so the import knows its cell.
# Environment: CRANK (default: crank), BENCHMARKS (default: benchmarks), RESULTS (default: the
# store's default folder; a --store connection string may be given in BENCHMARKS_STORE_ARGS).
set -uo pipefail

crank=${CRANK:-crank}
benchmarks=${BENCHMARKS:-benchmarks}
fixed=()
names=()
lists=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--variable" ] && [ $# -ge 2 ] && [[ "$2" == *=*,* ]]; then
    names+=("${2%%=*}")
    lists+=("${2#*=}")
    shift 2
  else
    fixed+=("$1")
    shift
  fi
done

if [ ${#names[@]} -eq 0 ]; then
  echo "error: no axis: give at least one --variable NAME=a,b,c" >&2
  exit 2
fi

# The cells: every combination of the axes' values, the first axis varying slowest.
cells=("")
for i in "${!names[@]}"; do
  IFS=',' read -r -a values <<< "${lists[$i]}"
  next=()
  for cell in "${cells[@]}"; do
    for value in "${values[@]}"; do
      next+=("${cell}${cell:+ }${names[$i]}=${value}")
    done
  done
  cells=("${next[@]}")
done

id="$(date -u +%Y%m%d-%H%M%S)-crank$$"
folder=$(mktemp -d "${TMPDIR:-/tmp}/benchmarks-crank-sweep-XXXXXX")
trap 'rm -rf "$folder"' EXIT
results=()
[ -n "${RESULTS:-}" ] && results=(--results "$RESULTS")
failed=0
for k in "${!cells[@]}"; do
  echo "== sweep $id: cell $((k + 1)) of ${#cells[@]}: ${cells[$k]}"
  args=()
  for pair in ${cells[$k]}; do
    args+=(--variable "$pair" --property "$pair")
  done
  if ! "$crank" "${fixed[@]}" "${args[@]}" --json "$folder/cell-$((k + 1)).json"; then
    failed=$((failed + 1))
    echo "cell $((k + 1)) failed (crank's exit code $?)"
  fi
done

files=("$folder"/cell-*.json)
if [ ! -e "${files[0]}" ]; then
  echo "error: no cell wrote a result: nothing to import" >&2
  exit 1
fi

# shellcheck disable=SC2086
"$benchmarks" results import "${files[@]}" --label "sweep:$id" "${results[@]}" ${BENCHMARKS_STORE_ARGS:-} || exit 1
echo
echo "Sweep $id: ${#cells[@]} cells, $failed failed"
# shellcheck disable=SC2086
"$benchmarks" report --sweep "$id" --markdown - "${results[@]}" ${BENCHMARKS_STORE_ARGS:-}
[ "$failed" -eq 0 ]
