#!/usr/bin/env bash
# A benchmark lab on one machine: boxes as network namespaces, each joined to one bridge by a veth
# link with its own address, optionally its link shaped (a rate, a delay) and its own agent. It is
# the rehearsal of a lab of separate machines, the network the tests use for one, and what the
# crank profile lab-local points at. Needs root and iproute2 (eng/tools.list).
#
#   eng/lab.sh up     [options]   makes the lab (a lab of that name left by a crash is removed first)
#   eng/lab.sh down   [--name N]  removes it: agents and every process in its boxes, namespaces,
#                                 links, the bridge and its folder; also after a crash or a killed up
#   eng/lab.sh status [--name N]  one line per box: name, address, link, agent; exit 3 when there is no lab
#
# Options of up:
#   --name N        the lab's name, 1 to 8 lower-case letters and digits (default: lab); it prefixes
#                   every namespace (N-box1 …), link (Nh1 …) and the bridge (Nbr)
#   --boxes K       how many boxes (default 3: application, load, database, as crank's lab profiles)
#   --subnet A.B.C  the lab's /24 (default 10.77.0): the bridge is A.B.C.1, box i is A.B.C.(10+i)
#   --rate R        shape every box's outgoing link to R (tc tbf: 200mbit, 1gbit)
#   --delay D       add D of delay to every box's outgoing link (tc netem: 1ms)
#   --agents        start `benchmarks agent` in each box on port 5010, allowing the lab's subnet,
#                   its jobs in the lab's folder; waits until each answers. The boxes' agents
#                   share one build cache (the lab's folder), as agents on one machine can: the
#                   sources crank sends are published once for every box, and loads on several
#                   boxes start together instead of after each box's own build
#   --cpus LIST     with --agents: each box's CPUs, one set per box separated by '/' (0/1/0-1)
#   --benchmarks P  the benchmarks executable for --agents (default: on PATH, else this
#                   repository's Release build)
#
# up prints one line per box, `box NAME ADDRESS LINK`, where LINK is the box's link as the machine
# sees it (the veth end on the bridge): the tests read them.
set -Eeuo pipefail

action=${1:-}
[ $# -gt 0 ] && shift
name=lab boxes=3 subnet=10.77.0 rate="" delay="" agents=0 cpus="" benchmarks=""
while [ $# -gt 0 ]; do
  case "$1" in
    --name) name=$2; shift 2 ;;
    --boxes) boxes=$2; shift 2 ;;
    --subnet) subnet=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --delay) delay=$2; shift 2 ;;
    --agents) agents=1; shift ;;
    --cpus) cpus=$2; shift 2 ;;
    --benchmarks) benchmarks=$2; shift 2 ;;
    *) echo "error: unknown option '$1' (see the top of eng/lab.sh)" >&2; exit 2 ;;
  esac
done

fail() { echo "error: $*" >&2; exit 2; }
[[ "$name" =~ ^[a-z][a-z0-9]{0,7}$ ]] || fail "--name '$name' must be 1 to 8 lower-case letters and digits, starting with a letter (link names are 15 characters at most)"
[[ "$boxes" =~ ^[1-9][0-9]?$ ]] || fail "--boxes '$boxes' must be 1 to 99"
[[ "$subnet" =~ ^[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$ ]] || fail "--subnet '$subnet' must be the first three parts of an IPv4 /24, such as 10.77.0"
# The token bucket holds 5 ms of the rate (at least 16 KB): a bucket smaller than what the link
# sends between two timer ticks (rate / HZ) cannot keep the link full once the kernel's timers run
# late on a busy machine, and the link then carries less than its rate without saying so.
burst=""
if [ -n "$rate" ]; then
  [[ "$rate" =~ ^([0-9]+(\.[0-9]+)?)(kbit|mbit|gbit)$ ]] || fail "--rate '$rate' must be a number and kbit, mbit or gbit, such as 200mbit"
  burst=$(awk -v n="${BASH_REMATCH[1]}" -v u="${BASH_REMATCH[3]}" 'BEGIN { m = (u == "kbit") ? 1e3 : (u == "mbit") ? 1e6 : 1e9; b = n * m / 8 * 0.005; if (b < 16384) b = 16384; printf "%d", b }')
fi
state=${BENCHMARKS_LAB_STATE:-/run/benchmarks-lab}/$name
bridge="${name}br"

# One change at a time per lab name: two `up`s, or an `up` and a `down`, do not interleave.
mkdir -p "$(dirname "$state")"
exec 9>"$(dirname "$state")/.$name.lock"
flock -w 60 9 || fail "another eng/lab.sh is changing lab '$name' for over a minute"

namespaces() { ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${name}-box[0-9]+$" || true; }

down() {
  local ns pid link
  # The agents first, so none starts another job while its box goes; then anything left in a box.
  for pid in "$state"/box*/agent.pid; do
    [ -f "$pid" ] && kill -TERM "$(cat "$pid")" 2>/dev/null || true
  done
  for ns in $(namespaces); do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -TERM "$pid" 2>/dev/null || true; done
  done
  for _ in $(seq 1 50); do
    local left=0
    for ns in $(namespaces); do [ -n "$(ip netns pids "$ns" 2>/dev/null)" ] && left=1; done
    [ $left = 0 ] && break
    sleep 0.1
  done
  for ns in $(namespaces); do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
  done
  for ns in $(namespaces); do ip netns del "$ns" 2>/dev/null || true; done
  # A veth goes with its namespace's end; one left on the bridge by a killed up goes here.
  for link in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E "^${name}h[0-9]+$" || true); do
    ip link del "$link" 2>/dev/null || true
  done
  ip link del "$bridge" 2>/dev/null || true
  rm -rf "$state"
  rm -f "$(dirname "$state")/.$name.lock"
  rmdir "$(dirname "$state")" 2>/dev/null || true
}

status() {
  local found=0 ns i address agent
  for ns in $(namespaces); do
    found=1
    i=${ns##*-box}
    address=$(ip netns exec "$ns" ip -4 -o addr show dev eth0 2>/dev/null | awk '{print $4}' | cut -d/ -f1)
    agent="no agent"
    if [ -f "$state/box$i/agent.pid" ] && kill -0 "$(cat "$state/box$i/agent.pid")" 2>/dev/null; then
      agent="agent $(cat "$state/box$i/agent.pid") http://$address:5010"
    elif [ -f "$state/box$i/agent.pid" ]; then
      agent="agent gone (its log: $state/box$i/agent.log)"
    fi
    echo "box $ns ${address:-?} ${name}h$i $agent; qdisc: $(ip netns exec "$ns" tc qdisc show dev eth0 2>/dev/null | head -n 1)"
  done
  [ $found = 1 ] || { echo "no lab '$name'"; return 3; }
}

up() {
  [ "$(id -u)" = 0 ] || fail "a lab's namespaces and links need root"
  command -v ip >/dev/null || fail "ip (iproute2) is not installed: bash eng/install-tools.sh"
  if [ -n "$rate$delay" ]; then command -v tc >/dev/null || fail "tc (iproute2) is not installed: bash eng/install-tools.sh"; fi
  local exe=""
  if [ $agents = 1 ]; then
    exe=${benchmarks:-$(command -v benchmarks || true)}
    [ -n "$exe" ] || exe="$(cd "$(dirname "$0")/.." && pwd)/src/Host/bin/Release/net10.0/benchmarks"
    [ -x "$exe" ] || fail "no benchmarks executable at '$exe': build it (dotnet build src/Host -c Release) or give --benchmarks"
  fi
  down
  mkdir -p "$state"
  # A failed or interrupted up leaves nothing half made.
  trap 'down; exit 1' ERR INT TERM
  ip link add "$bridge" type bridge
  ip addr add "$subnet.1/24" dev "$bridge"
  ip link set "$bridge" up
  local i ns host address
  for i in $(seq 1 "$boxes"); do
    ns="${name}-box$i" host="${name}h$i" address="$subnet.$((10 + i))"
    ip netns add "$ns"
    ip link add "$host" type veth peer name "${name}v$i"
    ip link set "${name}v$i" netns "$ns"
    ip netns exec "$ns" ip link set "${name}v$i" name eth0
    ip link set "$host" master "$bridge"
    ip link set "$host" up
    ip netns exec "$ns" ip addr add "$address/24" dev eth0
    ip netns exec "$ns" ip link set eth0 up
    ip netns exec "$ns" ip link set lo up
    if [ -n "$delay" ]; then
      ip netns exec "$ns" tc qdisc add dev eth0 root handle 1: netem delay "$delay" 2>/dev/null \
        || { echo "error: --delay $delay: this kernel has no netem queueing discipline (sch_netem), so a link cannot be delayed here" >&2; down; exit 1; }
      if [ -n "$rate" ]; then
        ip netns exec "$ns" tc qdisc add dev eth0 parent 1: handle 2: tbf rate "$rate" burst "$burst" latency 50ms
      fi
    elif [ -n "$rate" ]; then
      ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "$rate" burst "$burst" latency 50ms
    fi
    mkdir -p "$state/box$i"
    if [ $agents = 1 ]; then
      local set
      set=$(echo "$cpus" | cut -d/ -f"$i")
      # Started as a lab box starts it: the agent's own command line, in the box, in a session of its own.
      ip netns exec "$ns" setsid ${set:+taskset -c "$set"} "$exe" agent --url "http://$address:5010" --allow "$subnet.0/24" \
        --jobs-dir "$state/box$i/jobs" --build-cache "$state/builds" >"$state/box$i/agent.log" 2>&1 </dev/null &
      echo $! >"$state/box$i/agent.pid"
    fi
    echo "box $ns $address $host"
  done
  if [ $agents = 1 ]; then
    for i in $(seq 1 "$boxes"); do
      address="$subnet.$((10 + i))"
      local ready=0
      for _ in $(seq 1 300); do
        if curl -s -o /dev/null --max-time 1 "http://$address:5010/jobs"; then ready=1; break; fi
        kill -0 "$(cat "$state/box$i/agent.pid")" 2>/dev/null || break
        sleep 0.1
      done
      [ $ready = 1 ] || { echo "error: the agent of ${name}-box$i did not answer on http://$address:5010: $(tail -n 3 "$state/box$i/agent.log" | tr '\n' ' ')" >&2; down; exit 1; }
    done
  fi
  trap - ERR INT TERM
}

case "$action" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) fail "eng/lab.sh up|down|status [options] (see the top of eng/lab.sh)" ;;
esac
