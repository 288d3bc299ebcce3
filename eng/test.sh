#!/usr/bin/env bash
# The test command: on a fresh Debian/Ubuntu machine with the .NET SDK, installs what the
# tests need, builds the solution for Linux and the product for win-x64 (platform analyzer
# CA1416 is an error) and publishes the latter self-contained for the Windows tier (run under
# Wine: docs/windows.md), and runs every test: the parallel collections first, then the measuring
# ones alone (tests/Benchmarks.Tests/Support/Measuring.cs). Prints "N passed, N failed" last.
#
#   bash eng/test.sh          both tiers: what CI runs
#   bash eng/test.sh --fast   the fast tier alone (pure logic, parsers, statistics, the CLI in
#                             process over fixture documents; no process, socket, PostgreSQL or
#                             browser), in parallel: the inner loop, about a minute with its build
set -euo pipefail
cd "$(dirname "$0")/.."

# The builds share one C# compiler server of this script's own instead of a compiler per project
# (measured: the two builds below take 181 CPU-seconds instead of 294), and it is stopped once
# they are done or the script ends, so no server outlives the builds (machines that set
# UseSharedCompilation=false do so to keep the SDK's default one, idle for ten minutes, away).
compiler_server="benchmarks-test-$$"
build_flags=(-p:UseSharedCompilation=true "-p:SharedCompilationId=$compiler_server" -nodeReuse:false)
stop_compiler_server() {
  local version folder
  version=$(dotnet --version 2>/dev/null) || return 0
  folder=$(dotnet --list-sdks 2>/dev/null | sed -n "s/^$version \[\(.*\)\]\$/\1/p")
  if [ -f "$folder/$version/Roslyn/bincore/VBCSCompiler.dll" ]; then
    dotnet exec "$folder/$version/Roslyn/bincore/VBCSCompiler.dll" -shutdown "-pipename:$compiler_server" >/dev/null 2>&1 || true
  fi
}
trap stop_compiler_server EXIT
trap 'exit 130' INT TERM

if [ "${1:-}" = "--fast" ]; then
  export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
  dotnet build tests/Benchmarks.Tests -c Release -nologo -clp:ErrorsOnly "${build_flags[@]}"
  stop_compiler_server
  results="$(pwd)/artifacts/test-results-fast"
  rm -rf "$results"
  status=0
  dotnet test tests/Benchmarks.Tests -c Release --no-build --filter "Tier=Fast" --results-directory "$results" \
    --logger "trx;LogFileName=fast.trx" -- xUnit.ParallelizeTestCollections=true || status=$?
  counters=$(grep -o '<Counters [^>]*>' "$results/fast.trx" | head -n 1 || true)
  echo "$(sed -n 's/.* passed="\([0-9]*\)".*/\1/p' <<<"$counters") passed, $(sed -n 's/.* failed="\([0-9]*\)".*/\1/p' <<<"$counters") failed (fast tier)"
  exit $status
fi

if ! command -v dotnet >/dev/null 2>&1; then
  echo "error: the .NET SDK is not installed (see global.json for the version)." >&2
  exit 1
fi

# Every tool the tests start (eng/tools.list), installed when missing while the builds run, and
# waited for before the first test starts: a test never installs, it fails naming the list when
# its tool is not there.
# Each stage's header says when it began (m:ss since this script started), so a CI log shows where its minutes went.
stage() { echo "== [$((SECONDS / 60)):$(printf '%02d' $((SECONDS % 60)))] $*"; }
stage "tools (eng/tools.list), installed beside the builds"
tools_log=$(mktemp)
bash eng/install-tools.sh >"$tools_log" 2>&1 &
tools=$!
# The NuGet packs a NativeAOT server is compiled with (run --publish aot), fetched now as the tools are.
packs_log=$(mktemp)
bash eng/native-packs.sh >"$packs_log" 2>&1 &
packs=$!

export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

# Two builds: the solution for this machine, then the host for win-x64 (eng/publish-windows.sh),
# published self-contained for the Windows tier under Wine (docs/windows.md: Wine needs no .NET of
# its own). The platform analyzer (CA1416) is an error in both: it reads the target framework
# (net10.0, every platform), not the runtime identifier, so the Linux build already fails on an
# unguarded Windows-only call. The libraries and plugins carry no runtime identifier, so the
# win-x64 publish takes them as this build left them and compiles only the host's own project:
# measured on this 2-core machine, 8 s and 10 CPU-seconds, where compiling every project again
# for win-x64 took 45 s and some 60 CPU-seconds. The build readies the host for win-x64 too
# (-p:PublishForWindows=true: its runtime packs), so the publish needs no restore of its own.
stage "build for this machine, then publish for win-x64 (parity check, the Windows tier's build)"
linux_status=0
dotnet build Benchmarks.sln -c Release -nologo -clp:ErrorsOnly -p:PublishForWindows=true "${build_flags[@]}" || linux_status=$?
parity_log=$(mktemp)
parity_status=0
if [ $linux_status = 0 ]; then
  bash eng/publish-windows.sh --no-restore "${build_flags[@]}" >"$parity_log" 2>&1 &
  parity=$!
fi
# The host the tests start (every run, server, load and agent they launch: some 600 processes)
# is a copy of the build's with its assemblies and plugins precompiled (ReadyToRun, as an
# install of the tool is): each start JITs about a second of CPU less (a 1-second run: 3.0-3.4
# CPU-seconds before, 1.9-2.5 after), for some 30 CPU-seconds of crossgen2 beside the parity
# build. The in-process tests, and the tests run without this script, use the build itself.
host_log=$(mktemp)
host_status=0
if [ $linux_status = 0 ]; then
  bash eng/readytorun.sh src/Host/bin/Release/net10.0 artifacts/host >"$host_log" 2>&1 || host_status=$?
fi
if [ $linux_status = 0 ]; then
  wait $parity || parity_status=$?
fi
stop_compiler_server
if [ $parity_status != 0 ]; then
  echo "error: the win-x64 parity build failed:" >&2
  cat "$parity_log" >&2
fi
if [ $host_status != 0 ]; then
  echo "error: precompiling the host the tests start failed (eng/readytorun.sh):" >&2
  cat "$host_log" >&2
fi
rm -f "$parity_log" "$host_log"
export BENCHMARKS_TEST_HOST="$(pwd)/artifacts/host"
if [ $linux_status != 0 ] || [ $parity_status != 0 ] || [ $host_status != 0 ]; then
  echo "0 passed, 1 failed"
  exit 1
fi


stage "built; waiting for the tools"
# await_step PID LOG WHAT: a step started beside the builds, its output shown; its failure ends the script.
await_step() {
  local status=0
  wait "$1" || status=$?
  cat "$2"
  rm -f "$2"
  if [ $status != 0 ]; then
    echo "error: $3 (above)." >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
}
await_step $tools "$tools_log" "eng/install-tools.sh could not install the tools the tests need"
await_step $packs "$packs_log" "eng/native-packs.sh could not restore the NativeAOT packs the tests need"

stage "PostgreSQL for the store tests (port 25432)"
# Stopped when this script ends if it started it; a cluster that was already running is left as it was.
if ! bash eng/postgres.sh status 25432; then
  trap 'bash eng/postgres.sh stop 25432; stop_compiler_server' EXIT
fi
bash eng/postgres.sh start 25432 >/dev/null

stage "test"
export BENCHMARKS_TEST_SUITE="$$-$(date +%s%N)"
results="$(pwd)/artifacts/test-results"
rm -rf "$results"
status=0
dotnet test Benchmarks.sln -c Release --no-build --results-directory "$results" \
  --logger "trx;LogFileName=tests.trx" --logger "console;verbosity=normal" || status=$?

# Nothing a test started outlives the suite: every process the tests start inherits this run's own
# mark (BENCHMARKS_TEST_SUITE), and one that still carries it 10 s after the last test is named,
# stopped and counted as a failure. Only this run's processes carry it: another suite or a test run
# beside this one on the same machine is left alone.
suite_leftovers() {
  local environ pid
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}; pid=${pid%/environ}
    [ "$pid" = "$$" ] && continue
    # Kernel threads and processes gone since the list was made have no environment to read.
    if { tr '\0' '\n' < "$environ"; } 2>/dev/null | grep -qx "BENCHMARKS_TEST_SUITE=$BENCHMARKS_TEST_SUITE"; then
      local command; command=$({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null | cut -c1-300)
      # The SDK's own build nodes that dotnet test may leave idle are its, not a test's.
      case $command in *MSBuild.dll*nodemode*|*VBCSCompiler*) continue ;; esac
      echo "$pid $command"
    fi
  done
}
leftovers=""
for _ in 1 2 3 4 5 6 7 8 9 10; do
  leftovers=$(suite_leftovers)
  [ -z "$leftovers" ] && break
  sleep 1
done
if [ -n "$leftovers" ]; then
  echo "error: left running after the tests (stopped now):" >&2
  echo "$leftovers" | sed 's/^/    /' >&2
  kill -KILL $(echo "$leftovers" | cut -d' ' -f1) 2>/dev/null || true
  status=1
fi

trx="$results/tests.trx"
if [ -f "$trx" ]; then
  counters=$(grep -o '<Counters [^>]*>' "$trx" | head -n 1)
  passed=$(sed -n 's/.* passed="\([0-9]*\)".*/\1/p' <<<"$counters")
  failed=$(sed -n 's/.* failed="\([0-9]*\)".*/\1/p' <<<"$counters")
  # The failed tests by name, with the start of their message, where CI logs keep only the end.
  if [ "${failed:-0}" != 0 ] && ! command -v python3 >/dev/null 2>&1; then
    grep -o '<UnitTestResult [^>]*outcome="Failed"[^>]*>' "$trx" | sed 's/.* testName="\([^"]*\)".*/failed: \1/' || true
  elif [ "${failed:-0}" != 0 ]; then
    python3 - "$trx" <<'PY' || true
import sys, xml.etree.ElementTree as et
ns = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
for r in et.parse(sys.argv[1]).getroot().iterfind(".//t:UnitTestResult[@outcome='Failed']", ns):
    message = r.find(".//t:Message", ns)
    text = (message.text or "").strip().splitlines() if message is not None else []
    print(f"failed: {r.get('testName')}: {text[0][:400] if text else ''}")
    for line in text[1:25]:
        print(f"    {line[:300]}")
PY
  fi
  stage "done"
  [ -n "$leftovers" ] && failed=$(( ${failed:-0} + 1 ))
  echo "${passed:-0} passed, ${failed:-0} failed"
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
