#!/usr/bin/env bash
# Installs external tools from Debian/Ubuntu packages when they are missing: install-tools.sh wrk nginx h2load ...
set -euo pipefail
# The package that carries a tool whose name is not its package's.
package() {
  case "$1" in
    h2load|nghttp|nghttpd) echo nghttp2-client ;;
    perf) echo linux-perf ;;
    *) echo "$1" ;;
  esac
}
missing=()
for tool in "$@"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$(package "$tool")")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: ${missing[*]} missing and this is not a Debian/Ubuntu machine; install them with your package manager." >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
