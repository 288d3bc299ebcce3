#!/usr/bin/env bash
# Installs external tools from Debian/Ubuntu packages when they are missing.
#
#   bash eng/install-tools.sh              every tool on eng/tools.list (what eng/test.sh runs)
#   bash eng/install-tools.sh wrk nginx    these tools: a name on the list installs its package,
#                                          any other name is taken as a package's
#
# Safe to run several times at once: one lock of its own around the package manager (the second
# run waits, then finds the tools there), and the package manager's own lock waited for, not failed
# on, when another program holds it.
set -euo pipefail
list="$(dirname "$0")/tools.list"

# The package that carries a tool: its line on the list, else the tool's own name.
package() {
  local found
  found=$(awk -v tool="$1" '$1 == tool { print $2; exit }' "$list")
  echo "${found:-$1}"
}

if [ $# -eq 0 ]; then
  mapfile -t tools < <(awk '!/^#/ && NF >= 2 { print $1 }' "$list")
else
  tools=("$@")
fi

missing() {
  local tool
  for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || package "$tool"
  done | sort -u
}

mapfile -t packages < <(missing)
[ ${#packages[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: ${packages[*]} missing and this is not a Debian/Ubuntu machine; install them with your package manager." >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi

lock="${TMPDIR:-/tmp}/benchmarks-install-tools.lock"
exec 9>>"$lock"
flock -w 900 9 || { echo "error: another eng/install-tools.sh held $lock for 15 minutes." >&2; exit 1; }
# Another run may have installed them while this one waited.
mapfile -t packages < <(missing)
[ ${#packages[@]} -eq 0 ] && exit 0
echo "installing ${packages[*]}" >&2
$sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${packages[@]}" >/dev/null
