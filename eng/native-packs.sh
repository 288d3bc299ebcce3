#!/usr/bin/env bash
# Restores what `run --publish aot` compiles a NativeAOT server with into the NuGet cache: the SDK's
# ILCompiler packs and this machine's runtime packs (.NET's and ASP.NET Core's), the versions the
# SDK picks, as the first NativeAOT publish would fetch them. eng/test.sh runs it beside the builds,
# so that no test fetches a package.
#
#   bash eng/native-packs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rid=$(dotnet --info 2>/dev/null | sed -n 's/^ *RID: *//p' | head -n 1)
rid=${rid:-linux-x64}
major=$(dotnet --version | cut -d. -f1)
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
cat >"$probe/probe.csproj" <<PROJECT
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net$major.0</TargetFramework><RuntimeIdentifier>$rid</RuntimeIdentifier><PublishAot>true</PublishAot></PropertyGroup>
  <ItemGroup><FrameworkReference Include="Microsoft.AspNetCore.App" /></ItemGroup>
</Project>
PROJECT
dotnet restore "$probe/probe.csproj" -nologo -v:q >/dev/null
echo "NativeAOT packs for $rid restored"
