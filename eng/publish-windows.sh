#!/usr/bin/env bash
# Publishes the host for win-x64, self-contained, into artifacts/windows/publish: the build the
# Windows tier runs under Wine (docs/windows.md). Only the host's own project is compiled for
# win-x64; its libraries and the built-in plugins carry no runtime identifier, so the publish
# takes them as the solution's build left them (framework-dependent IL, the same on every OS)
# and adds the win-x64 runtime and the program's .exe.
#
#   bash eng/publish-windows.sh                 restores what it needs, then publishes
#   bash eng/publish-windows.sh --no-restore    after a build with -p:PublishForWindows=true
#
# The analyzers run on the host's win-x64 compile as on every build: a publish that skipped them
# would mark each library's build as made without them, and the next build would compile all of
# them again to run them.
set -euo pipefail
cd "$(dirname "$0")/.."
exec dotnet publish src/Host/Benchmarks.Host.csproj -c Release -r win-x64 --self-contained \
  -p:PublishForWindows=true -p:RunAnalyzers=true -o artifacts/windows/publish -nologo -clp:ErrorsOnly "$@"
