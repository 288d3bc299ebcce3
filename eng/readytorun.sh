#!/usr/bin/env bash
# Copies a build's output folder with every managed assembly in it precompiled (ReadyToRun), as
# `dotnet publish -p:PublishReadyToRun=true` would, without compiling the sources again: the
# tests start the host from such a copy (eng/test.sh), and each of its processes then JITs
# about a second of CPU less.
#
#   bash eng/readytorun.sh FROM TO
#
# The compiler is the SDK's own crossgen2 pack (restored into the NuGet cache on first use, as a
# ReadyToRun publish restores it); the references are FROM's assemblies and the shared
# frameworks of the runtime the SDK targets. An assembly crossgen2 cannot compile (a
# reference-only or mixed one) is copied as it was: it runs JIT-compiled, as in the build.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 2 ] || { echo "usage: bash eng/readytorun.sh FROM TO" >&2; exit 2; }
from=${1%/} to=${2%/}
[ -d "$from" ] || { echo "error: no build output at '$from'" >&2; exit 2; }

rid=$(dotnet --info 2>/dev/null | sed -n 's/^ *RID: *//p' | head -n 1)
rid=${rid:-linux-x64}
os=${rid%-*} arch=${rid##*-}
# The runtime the host targets, from its own runtimeconfig (net10.0: 10).
major=$(sed -n 's/.*"version": *"\([0-9]*\)\..*/\1/p' "$from"/*.runtimeconfig.json | head -n 1)
[ -n "$major" ] || { echo "error: no runtimeconfig.json with a framework version in '$from'" >&2; exit 2; }
packages=$(dotnet nuget locals global-packages -l | sed 's/^global-packages: *//')

# The crossgen2 pack the SDK would use, restored by a throwaway project that asks for it.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
cat >"$probe/probe.csproj" <<EOF
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net$major.0</TargetFramework><RuntimeIdentifier>$rid</RuntimeIdentifier><PublishReadyToRun>true</PublishReadyToRun></PropertyGroup>
</Project>
EOF
dotnet restore "$probe/probe.csproj" -nologo -v:q >/dev/null
crossgen=$(ls -d "$packages"/microsoft.netcore.app.crossgen2."$rid"/*/tools/crossgen2 2>/dev/null | sort -V | tail -n 1)
[ -x "$crossgen" ] || { echo "error: no crossgen2 for $rid in $packages after the restore" >&2; exit 1; }

# The shared frameworks the host runs on: the newest installed patch of the SDK's runtime.
dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
runtime=$(ls -d "$dotnet_root"/shared/Microsoft.NETCore.App/"$major".* | sort -V | tail -n 1)
aspnet=$(ls -d "$dotnet_root"/shared/Microsoft.AspNetCore.App/"$major".* | sort -V | tail -n 1)

rm -rf "$to"
mkdir -p "$(dirname "$to")"
cp -a "$from" "$to"
compiled=0 kept=0
# precompile FOLDER: its assemblies, against its own, the host's and the shared frameworks'.
precompile() {
  local folder=$1 dll name
  for dll in "$from/$folder"*.dll; do
    [ -f "$dll" ] || continue
    name=${dll#"$from/"}
    if "$crossgen" "$dll" -o "$to/$name" -O --targetos:"$os" --targetarch:"$arch" \
        -r "$from/$folder*.dll" -r "$from/*.dll" -r "$runtime/*.dll" -r "$aspnet/*.dll" >/dev/null 2>&1; then
      compiled=$((compiled + 1))
    else
      cp -a "$dll" "$to/$name"
      kept=$((kept + 1))
    fi
  done
}
precompile ""
# The built-in plugins, each in its folder with what it carries (plugins/NAME/).
for plugin in "$from"/plugins/*/; do
  [ -d "$plugin" ] && precompile "plugins/$(basename "$plugin")/"
done
echo "ReadyToRun: $compiled assemblies precompiled, $kept kept as they were, in $to"
