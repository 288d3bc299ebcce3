#!/usr/bin/env bash
# io_uring through its system calls (src/IoUring, what the project uses) against liburing through
# P/Invoke: one NOP submitted and reaped a turn, a million turns a round, the two ways alternating,
# five rounds; nanoseconds a turn (median and range). liburing's hot path (get an SQE, prep, mark a
# CQE seen) is inline C in its header, so P/Invoke reaches it only through a shim of our own: the
# script compiles one (liburing-dev, gcc) that does the whole turn in one exported call, the best
# case for liburing. The ring setup is the same both ways (single issuer, deferred task work).
#
#   bash eng/bench/iouring-submit.sh [TURNS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
# The project's installer (its lock around the package manager); liburing-dev is a library, no command to look for.
bash eng/install-tools.sh gcc
dpkg -s liburing-dev >/dev/null 2>&1 || bash eng/install-tools.sh liburing-dev
project=eng/bench/iouring-submit
dotnet build "$project" -c Release -nologo -clp:ErrorsOnly >/dev/null
out="$project/bin/Release/net10.0"
gcc -O2 -shared -fPIC -o "$out/libiouring-shim.so" "$project/shim.c" -luring
taskset -c "${CPU:-1}" "$out/iouring-submit" "${1:-1000000}" "${2:-5}"
