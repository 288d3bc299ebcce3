#!/usr/bin/env bash
# The long fuzz run: 100,000 mutated requests (default) against each server model as a real
# process (sockets, libuv and Kestrel beside them), each on its own connection ended by the
# client. Fails on a hang (no close within 5 s of the end of input), a crash, a server that
# stops serving a clean request, or growth past 100 MB; prints per server the time taken, memory
# before/after/peak and how the answers split by status.
#   eng/fuzz-servers.sh [cases] [servers]      e.g. eng/fuzz-servers.sh 200000 sockets,libuv
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCHMARKS_FUZZ_CASES="${1:-100000}" BENCHMARKS_FUZZ_SERVERS="${2:-sockets,libuv,kestrel}"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
dotnet build tests/Benchmarks.Tests -c Release -nologo -clp:ErrorsOnly >/dev/null
dotnet test tests/Benchmarks.Tests -c Release --no-build --filter "FullyQualifiedName~RawServerFuzzTests" \
  --logger "console;verbosity=detailed" 2>&1 | grep -E "mutated requests|Passed!|Failed|Error Message|did not close|exited|grew|Total tests|Test Run" || true
