#!/usr/bin/env bash
# Refreshes the recordings of the real crank controller kept in tests/Fixtures/crank-transcripts
# from a folder of new recordings (default: ../shared/crank-transcripts beside the repository).
# The tests read only the copy in the repository: a clone is all they need.
#
#   eng/refresh-transcripts.sh [FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
source=${1:-../shared/crank-transcripts}
if [ ! -d "$source" ]; then
  echo "error: no recordings at $source" >&2
  exit 1
fi
target=tests/Fixtures/crank-transcripts
mkdir -p "$target"
cp -r "$source"/. "$target"/
echo "$(ls "$target" | wc -l) files in $target; review with 'git status $target' and commit them with the change that needs them."
