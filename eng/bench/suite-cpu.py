#!/usr/bin/env python3
"""Where a command's CPU goes, by kind of process: by default the test command (eng/test.sh).

    python3 eng/bench/suite-cpu.py                 # bash eng/test.sh, split at its "test" stage
    python3 eng/bench/suite-cpu.py -- bash eng/test.sh --fast
    python3 eng/bench/suite-cpu.py --tsv cpu.tsv   # also every process seen: pid, ppid, CPU-s, first/last seen, command

Reads /proc every half second while the command runs and keeps, for every process seen (pid and
start time), its command line and the largest user + system time it reached. A process that lives
less than the interval can be missed, and each loses at most its last half second, so the figures
are a floor; kernel threads are left out. The command's own output passes through; its stage lines
("== [m:ss] test") split the account into the build and the tests. Prints, per stage, the wall
time, the CPU-seconds the machine had (wall x CPUs) and those seen, by kind of process.
"""
import argparse
import os
import re
import subprocess
import sys
import threading
import time

HZ = os.sysconf("SC_CLK_TCK")


def kind(command):
    if "testhost" in command or re.search(r"/Benchmarks\.Tests(?:\.dll)?(?: |$)", command):
        return "test process (in-process tests)"
    if ("VBCSCompiler" in command or "MSBuild.dll" in command or "crossgen" in command.lower()
            or re.search(r"dotnet (publish|build|pack)\b", command)):
        return "builds (publish, pack, MSBuild, compiler server, crossgen2)"
    host = re.search(r"/benchmarks(?:\.dll)? (\w+)", command)
    if host:
        return f"benchmarks {host.group(1)}" if host.group(1) in ("serve", "run", "load", "agent") else "benchmarks, other commands"
    for name, label in (("postgres", "PostgreSQL"), ("wine", "Wine"), (".exe", "Wine"), ("chrom", "Chromium"),
                        ("nginx", "peers (nginx, HAProxy, wrk, h2load)"), ("haproxy", "peers (nginx, HAProxy, wrk, h2load)"),
                        ("h2load", "peers (nginx, HAProxy, wrk, h2load)"), ("wrk", "peers (nginx, HAProxy, wrk, h2load)")):
        if name in command.lower():
            return label
    return "other"


def read_stat(entry):
    """A process's (pid, start time) and its (user + system CPU-seconds, parent pid); raises OSError when it is gone."""
    with open(f"/proc/{entry}/stat") as f:
        stat = f.read()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(entry), int(fields[19])), (int(fields[11]) + int(fields[12])) / HZ, int(fields[1])


def poll(seen, stop, me):
    while not stop.is_set():
        now = time.time()
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == me:
                continue
            try:
                key, cpu, ppid = read_stat(entry)
                if key not in seen:
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
                    seen[key] = [command, cpu, now, now, ppid]
                else:
                    seen[key][1] = max(seen[key][1], cpu)
                    seen[key][3] = now
            except (OSError, ValueError, IndexError):
                pass
        stop.wait(0.5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tsv", help="also write every process seen to this file")
    parser.add_argument("command", nargs="*", default=["bash", "eng/test.sh"])
    args = parser.parse_args()
    command = args.command or ["bash", "eng/test.sh"]

    seen, stop = {}, threading.Event()
    # Processes already running belong to something else: only those first seen after the start count.
    before = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                before.add(read_stat(entry)[0])
            except (OSError, ValueError, IndexError):
                pass
    poller = threading.Thread(target=poll, args=(seen, stop, os.getpid()), daemon=True)
    started = time.time()
    poller.start()
    stages = [("start", started)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    for line in child.stdout:
        sys.stdout.write(line)
        stage = re.match(r"== \[\d+:\d\d\] (\w+)", line)
        if stage and stage.group(1) == "test":
            stages.append(("test", time.time()))
    status = child.wait()
    ended = time.time()
    stop.set()
    poller.join()

    # Kernel threads have no command line.
    rows = [(pid, start, *values) for (pid, start), values in seen.items() if (pid, start) not in before and values[0]]
    if args.tsv:
        with open(args.tsv, "w") as f:
            for pid, _, command_line, cpu, first, last, ppid in rows:
                f.write(f"{pid}\t{ppid}\t{cpu:.2f}\t{first - started:.1f}\t{last - started:.1f}\t{command_line[:400]}\n")
    cpus = os.cpu_count() or 1
    bounds = [t for _, t in stages] + [ended]
    names = ["build" if len(stages) > 1 else "all"] + ["tests"] * (len(stages) - 1)
    print(f"\nCPU by kind of process ({cpus} CPUs; a floor: processes under 0.5 s can be missed)")
    for name, low, high in zip(names, bounds, bounds[1:]):
        totals, counts = {}, {}
        for _, _, command_line, cpu, first, _, _ in rows:
            if low <= first < high:
                k = kind(command_line)
                totals[k] = totals.get(k, 0.0) + cpu
                counts[k] = counts.get(k, 0) + 1
        wall = high - low
        print(f"{name}: {wall:.0f} s wall, {wall * cpus:.0f} CPU-s available, {sum(totals.values()):.0f} seen")
        for k, v in sorted(totals.items(), key=lambda item: -item[1]):
            print(f"  {v:8.1f} CPU-s  {counts[k]:5d} processes  {k}")
    return status


if __name__ == "__main__":
    sys.exit(main())
