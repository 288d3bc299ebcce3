#!/usr/bin/env bash
# The built-in HTTP/2 load beside h2load, in one sitting, against a server that is not the limit:
# nginx (one worker, on CPU 0) answering "Hello, World!" over h2c and over h2 (TLS, ALPN); each load
# on CPU 1 with one thread, as `run` starts it. Cells: 64 and 1,024 connections by 1 and 10 streams
# per connection, each cell ROUNDS times with the two loads in alternating order. Each load's CPU is
# read the same way for both, from /proc/<pid>/stat over the measured window (after the warm-up,
# before the end), so CPU per request is the load's own user + kernel time over the requests it
# completed. Prints, per cell and load, the median req/s with its spread, the median load CPU
# (cores) and µs per request, and the ratios built-in / h2load.
#
#   eng/bench/h2.sh   (DURATION=8 WARMUP=2 ROUNDS=3 WIRES="h2c h2" CELLS="64x1 64x10 1024x1 1024x10" OUT=/tmp/...)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
duration=${DURATION:-8}
warmup=${WARMUP:-2}
rounds=${ROUNDS:-3}
wires=${WIRES:-"h2c h2"}
cells=${CELLS:-"64x1 64x10 1024x1 1024x10"}
out=${OUT:-/tmp/benchmarks-h2}
bash "$root/eng/install-tools.sh" nginx h2load
rm -rf "$out" && mkdir -p "$out/nginx"
ulimit -n "$(ulimit -Hn)" 2> /dev/null || true

# nginx: one worker on CPU 0, h2c on one port and h2 over TLS on another, no request limit per connection.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -keyout "$out/nginx/key.pem" -out "$out/nginx/cert.pem" 2> /dev/null
h2c_port=$(( 20000 + RANDOM % 10000 )); h2_port=$(( h2c_port + 1 ))
cat > "$out/nginx/nginx.conf" <<CONF
worker_processes 1;
worker_rlimit_nofile 16384;
daemon off;
pid $out/nginx/nginx.pid;
error_log $out/nginx/error.log;
events { worker_connections 8192; multi_accept on; }
http {
  access_log off;
  keepalive_requests 100000000;
  http2_max_concurrent_streams 256;
  client_body_temp_path $out/nginx; proxy_temp_path $out/nginx; fastcgi_temp_path $out/nginx; uwsgi_temp_path $out/nginx; scgi_temp_path $out/nginx;
  server {
    listen 127.0.0.1:$h2c_port http2 backlog=4096;
    listen 127.0.0.1:$h2_port ssl http2 backlog=4096;
    ssl_certificate $out/nginx/cert.pem;
    ssl_certificate_key $out/nginx/key.pem;
    location / { default_type text/plain; return 200 "Hello, World!"; }
  }
}
CONF
taskset -c 0 nginx -c "$out/nginx/nginx.conf" -p "$out/nginx" &
nginx_pid=$!
trap 'kill $nginx_pid 2> /dev/null || true; wait $nginx_pid 2> /dev/null || true' EXIT
sleep 1
worker_pid=$(pgrep -P "$nginx_pid" | head -1)

# The CPU seconds (user + kernel) a process has used so far.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"; }

# Runs one load in the background and reads its CPU over the measured window (1 s after the warm-up to 1 s before the end).
measure() { # name file command...
  local name=$1 file=$2; shift 2
  taskset -c 1 "$@" > "$file" 2>&1 &
  local pid=$!
  sleep $(( warmup + 1 ))
  local before; before=$(cpu_seconds "$pid")
  local server_before; server_before=$(cpu_seconds "$worker_pid")
  sleep $(( duration - 2 ))
  local after; after=$(cpu_seconds "$pid")
  local server_after; server_after=$(cpu_seconds "$worker_pid")
  wait "$pid" || echo "  $name failed: $(tail -1 "$file")"
  echo "$before $after $(( duration - 2 )) $server_before $server_after" > "$file.cpu"
}

export DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=1 DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 DOTNET_TieredCompilation=0
for round in $(seq 1 "$rounds"); do
  for wire in $wires; do
    if [[ $wire == h2 ]]; then url="https://127.0.0.1:$h2_port/"; else url="http://127.0.0.1:$h2c_port/"; fi
    for cell in $cells; do
      c=${cell%x*}; m=${cell#*x}
      # Odd rounds built-in first, even rounds h2load first.
      order="builtin h2load"; if (( round % 2 == 0 )); then order="h2load builtin"; fi
      for load in $order; do
        file="$out/$wire-$cell-$load-$round"
        if [[ $load == builtin ]]; then
          measure "$wire $cell built-in" "$file.txt" "$exe" load --protocol "$wire" --url "$url" -c "$c" --streams "$m" -t 1 \
            -d "${duration}s" -w "${warmup}s" --json "$file.json"
        else
          measure "$wire $cell h2load" "$file.txt" h2load -c "$c" -m "$m" -t 1 -D "$duration" --warm-up-time "$warmup" "$url"
        fi
      done
    done
  done
done

python3 - "$out" "$wires" "$cells" <<'PY'
import glob, json, os, re, statistics, sys
out, wires, cells = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()

def rate(path):
    if "-builtin-" in os.path.basename(path):
        d = json.load(open(path + ".json"))
        errors = d["errors"]["total"] + d["bad"] + d["lost"]
        return d["requestsPerSecond"], errors
    text = open(path + ".txt").read()
    rps = float(re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", text).group(1))
    failed = int(re.search(r"(\d+) failed", text).group(1)) + int(re.search(r"(\d+) errored", text).group(1))
    return rps, failed

print(f"{'wire':<4} {'cell':<8} {'load':<8} {'req/s median':>13} {'spread':>7} {'cores':>6} {'us/req':>7} {'errors':>7} {'nginx':>6}")
for wire in wires:
    for cell in cells:
        medians = {}
        for load in ("builtin", "h2load"):
            rows = []
            for path in sorted(glob.glob(os.path.join(out, f"{wire}-{cell}-{load}-*.txt"))):
                path = path[:-4]
                try:
                    rps, errors = rate(path)
                except Exception:
                    continue
                before, after, seconds, server_before, server_after = map(float, open(path + ".txt.cpu").read().split())
                cores = (after - before) / seconds
                rows.append((rps, cores, cores * 1e6 / rps, errors, (server_after - server_before) / seconds))
            if not rows:
                print(f"{wire:<4} {cell:<8} {load:<8} (no round succeeded)"); continue
            rps = [r[0] for r in rows]
            med = (statistics.median(rps), statistics.median(r[1] for r in rows), statistics.median(r[2] for r in rows), statistics.median(r[4] for r in rows))
            medians[load] = med
            spread = (max(rps) - min(rps)) / med[0] * 100
            print(f"{wire:<4} {cell:<8} {load:<8} {med[0]:>13,.0f} {spread:>6.1f}% {med[1]:>6.2f} {med[2]:>7.2f} {sum(r[3] for r in rows):>7} {med[3]:>6.2f}")
        if len(medians) == 2:
            b, h = medians["builtin"], medians["h2load"]
            print(f"{wire:<4} {cell:<8} {'ratio':<8} {b[0] / h[0]:>12.2f}x {'':>7} {'':>6} {b[2] / h[2]:>6.2f}x")
rounds = len(glob.glob(os.path.join(out, f"{wires[0]}-{cells[0]}-builtin-*.txt")))
print(f"({rounds} rounds per cell; spread = (max - min) / median of the rounds' req/s; cores = the load's CPU over the window; ratio = built-in / h2load; nginx = its worker's cores over the same window)")
PY
