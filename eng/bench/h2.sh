#!/usr/bin/env bash
# The built-in load beside its C peers, in one sitting, against a server that is not ours: nginx
# (one worker, on CPU 0) answering "Hello, World!" over h2c, over h2 (TLS, ALPN) beside h2load,
# and over HTTPS (HTTP/1.1 over TLS) beside wrk; each load on CPU 1 with one thread, as `run`
# starts it. Cells: 64 and 1,024 connections by 1 and 10 streams per connection (the pipeline's
# depth over HTTPS, wrk's through a script), each cell ROUNDS times with the two loads in
# alternating order. Both figures of a cell are read the same way for both loads over the same
# measured window (from 1 s after the warm-up to 1 s before the end): the rate is the requests
# nginx counted (stub_status), the CPU the load's user + kernel time from /proc/<pid>/stat, so
# CPU per request is the load's own time over the requests nginx answered it. Prints, per cell and
# load, the median req/s with its spread, the median load CPU (cores), µs per request, the
# errors the load counted, nginx's cores, and the ratios built-in / peer. SOCKETS=1 adds the
# built-in load on its portable engine (System.Net.Sockets, SslStream over TLS) to every cell.
#
#   eng/bench/h2.sh   (DURATION=8 WARMUP=2 ROUNDS=3 WIRES="h2c h2 https" CELLS="64x1 64x10 1024x1 1024x10"
#                      TLS_PROTOCOLS="TLSv1.2 TLSv1.3" SOCKETS=0 OUT=/tmp/...)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exe=$root/src/Host/bin/Release/net10.0/benchmarks
duration=${DURATION:-8}
warmup=${WARMUP:-2}
rounds=${ROUNDS:-3}
wires=${WIRES:-"h2c h2 https"}
cells=${CELLS:-"64x1 64x10 1024x1 1024x10"}
tls_protocols=${TLS_PROTOCOLS:-"TLSv1.2 TLSv1.3"}
out=${OUT:-/tmp/benchmarks-h2}
bash "$root/eng/install-tools.sh" nginx h2load wrk
rm -rf "$out" && mkdir -p "$out/nginx"
ulimit -n "$(ulimit -Hn)" 2> /dev/null || true

# nginx: one worker on CPU 0; h2c, h2 over TLS and HTTP/1.1 over TLS on three ports, its request
# count on a fourth; no request limit per connection.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
  -keyout "$out/nginx/key.pem" -out "$out/nginx/cert.pem" 2> /dev/null
h2c_port=$(( 20000 + RANDOM % 10000 )); h2_port=$(( h2c_port + 1 )); https_port=$(( h2c_port + 2 )); status_port=$(( h2c_port + 3 ))
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
  ssl_protocols $tls_protocols;
  client_body_temp_path $out/nginx; proxy_temp_path $out/nginx; fastcgi_temp_path $out/nginx; uwsgi_temp_path $out/nginx; scgi_temp_path $out/nginx;
  server {
    listen 127.0.0.1:$h2c_port http2 backlog=4096;
    listen 127.0.0.1:$h2_port ssl http2 backlog=4096;
    listen 127.0.0.1:$https_port ssl backlog=4096;
    ssl_certificate $out/nginx/cert.pem;
    ssl_certificate_key $out/nginx/key.pem;
    location / { default_type text/plain; return 200 "Hello, World!"; }
  }
  server { listen 127.0.0.1:$status_port; location / { stub_status; } }
}
CONF
taskset -c 0 nginx -c "$out/nginx/nginx.conf" -p "$out/nginx" &
nginx_pid=$!
trap 'kill $nginx_pid 2> /dev/null || true; wait $nginx_pid 2> /dev/null || true' EXIT
sleep 1
worker_pid=$(pgrep -P "$nginx_pid" | head -1)

# The CPU seconds (user + kernel) a process has used so far.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"; }

# The requests nginx has answered so far (its own status requests included: one per reading).
nginx_requests() { curl -s "http://127.0.0.1:$status_port/" | awk 'NR == 3 { print $3 }'; }

# Runs one load in the background and reads, over the measured window (1 s after the warm-up to
# 1 s before the end), its CPU, nginx's CPU and the requests nginx answered.
measure() { # name file command...
  local name=$1 file=$2; shift 2
  taskset -c 1 "$@" > "$file" 2>&1 &
  local pid=$!
  sleep $(( warmup + 1 ))
  local before server_before requests_before
  before=$(cpu_seconds "$pid"); server_before=$(cpu_seconds "$worker_pid"); requests_before=$(nginx_requests)
  sleep $(( duration - 2 ))
  local after server_after requests_after
  after=$(cpu_seconds "$pid"); server_after=$(cpu_seconds "$worker_pid"); requests_after=$(nginx_requests)
  wait "$pid" || echo "  $name failed: $(tail -1 "$file")"
  echo "$before $after $(( duration - 2 )) $server_before $server_after $(( requests_after - requests_before - 1 ))" > "$file.cpu"
}

export DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT=1 DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1 DOTNET_TieredCompilation=0
for round in $(seq 1 "$rounds"); do
  for wire in $wires; do
    case $wire in
      h2) url="https://127.0.0.1:$h2_port/" peer=h2load ;;
      https) url="https://127.0.0.1:$https_port/" peer=wrk ;;
      *) url="http://127.0.0.1:$h2c_port/" peer=h2load ;;
    esac
    for cell in $cells; do
      c=${cell%x*}; m=${cell#*x}
      # Odd rounds built-in first, even rounds the peer first.
      order="builtin $peer"; if (( round % 2 == 0 )); then order="$peer builtin"; fi
      if [[ ${SOCKETS:-0} == 1 ]]; then order="$order sockets"; fi
      for load in $order; do
        file="$out/$wire-$cell-$load-$round"
        case $load in
          builtin | sockets)
            if [[ $wire == https ]]; then shape=(--pipeline "$m"); else shape=(--protocol "$wire" --streams "$m"); fi
            engine=auto; if [[ $load == sockets ]]; then engine=sockets; fi
            measure "$wire $cell $load" "$file.txt" env BENCHMARKS_HTTP_ENGINE=$engine "$exe" load "${shape[@]}" --url "$url" -c "$c" -t 1 \
              -d "${duration}s" -w "${warmup}s" --json "$file.json" ;;
          h2load)
            measure "$wire $cell h2load" "$file.txt" h2load -c "$c" -m "$m" -t 1 -D "$duration" --warm-up-time "$warmup" "$url" ;;
          wrk)
            script=(); if (( m > 1 )); then script=(-s "$root/eng/bench/pipeline.lua"); fi
            measure "$wire $cell wrk" "$file.txt" wrk -t 1 -c "$c" -d "$(( warmup + duration ))s" "${script[@]}" "$url" -- "$m" ;;
        esac
      done
    done
  done
done

python3 - "$out" "$wires" "$cells" <<'PY'
import glob, json, os, re, statistics, sys
out, wires, cells = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
peers = {"h2c": "h2load", "h2": "h2load", "https": "wrk"}

def errors(path, load):
    """The errors the load itself counted over its run."""
    if load in ("builtin", "sockets"):
        d = json.load(open(path + ".json"))
        return d["errors"]["total"] + d["bad"] + d["lost"]
    text = open(path + ".txt").read()
    if load == "h2load":
        return int(re.search(r"(\d+) failed", text).group(1)) + int(re.search(r"(\d+) errored", text).group(1))
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return (sum(map(int, socket.groups())) if socket else 0) + (int(non2xx.group(1)) if non2xx else 0)

print(f"{'wire':<5} {'cell':<8} {'load':<8} {'req/s median':>13} {'spread':>7} {'cores':>6} {'us/req':>7} {'errors':>7} {'nginx':>6}")
for wire in wires:
    for cell in cells:
        medians = {}
        for load in ("builtin", peers[wire], "sockets"):
            rows = []
            for path in sorted(glob.glob(os.path.join(out, f"{wire}-{cell}-{load}-*.txt"))):
                path = path[:-4]
                try:
                    before, after, seconds, server_before, server_after, requests = map(float, open(path + ".txt.cpu").read().split())
                    failed = errors(path, load)
                except Exception:
                    continue
                rps = requests / seconds
                cores = (after - before) / seconds
                rows.append((rps, cores, cores * 1e6 / rps, failed, (server_after - server_before) / seconds))
            if not rows:
                if load != "sockets":
                    print(f"{wire:<5} {cell:<8} {load:<8} (no round succeeded)")
                continue
            rps = [r[0] for r in rows]
            med = (statistics.median(rps), statistics.median(r[1] for r in rows), statistics.median(r[2] for r in rows), statistics.median(r[4] for r in rows))
            medians[load] = med
            spread = (max(rps) - min(rps)) / med[0] * 100
            print(f"{wire:<5} {cell:<8} {load:<8} {med[0]:>13,.0f} {spread:>6.1f}% {med[1]:>6.2f} {med[2]:>7.2f} {sum(r[3] for r in rows):>7} {med[3]:>6.2f}")
        if "builtin" in medians and peers[wire] in medians:
            h = medians[peers[wire]]
            for load in ("builtin", "sockets"):
                if load in medians:
                    b = medians[load]
                    label = "ratio" if load == "builtin" else "sockets/"
                    print(f"{wire:<5} {cell:<8} {label:<8} {b[0] / h[0]:>12.2f}x {'':>7} {'':>6} {b[2] / h[2]:>6.2f}x")
rounds = len(glob.glob(os.path.join(out, f"{wires[0]}-{cells[0]}-builtin-*.txt")))
print(f"({rounds} rounds per cell; req/s = the requests nginx answered over the measured window; spread = (max - min) / median of the rounds' req/s; "
      "cores = the load's CPU over the same window; ratio = built-in / peer (h2load over h2c and h2, wrk over https); nginx = its worker's cores)")
PY
