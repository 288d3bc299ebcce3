#!/usr/bin/env python3
"""Measures the verdict against the corpus of runs whose answer is known (corpus.json).

Each cell is run --reps times with the host given; every run document's causes are read
(or, for documents stored before causes were kept, the kinds are read off the bound: line),
and the script prints, for the runtime's causes and for the machine's, a confusion matrix
(expected x named), precision and recall per cause, the false alarms on healthy cells, and
the cells whose verdict flipped between repetitions. A cell is right when every repetition
names its runtime cause (or none), a machine cause in its list first (its 'also' causes anywhere), or says its machine cause is
unclear (an abstention, counted apart: past a quarter of the machine stolen the verdict says so).

  eng/verdicts/measure.py --host src/Host/bin/Release/net10.0/benchmarks --reps 3 [--cells NAME,...] [--out DIR]
  eng/verdicts/measure.py --read DIR        # the matrix of runs already made
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLUGINS = os.path.join(ROOT, "tests", "Plugins", "SamplePlugin", "bin", "Release", "net10.0")
# Faults written apart from the test plugin, against Benchmarks.Abstractions alone (outside/).
OUTSIDE = os.path.join(HERE, "outside", "bin", "Release", "net10.0")

RUNTIME_KINDS = ["gc", "thread-pool-starvation", "lock-contention", "exceptions"]

# Documents stored before causes were kept: the kind read off the line's clauses.
LINE_KINDS = [
    (r"^short of the requested rate", "rate-not-met"),
    (r"^the wire", "wire"), (r"^the database", "database"), (r"^the proxy", "proxy"),
    (r"^load-bound", "load"), (r"^the CPU quota", "cpu-quota"), (r"^the stack", "server-cpu"),
    (r"^the kernel", "kernel"), (r"^the machine", "machine-busy"), (r"^nothing saturated", "nothing-saturated"),
    (r"^the memory limit", "memory-limit"), (r"^noisy", "noisy"),
]


def kinds_of(document):
    """(runtime kinds, machine kinds in order, unclear runtime kinds) a run document names."""
    causes = document.get("causes") or []
    if causes:
        runtime = {c["kind"] for c in causes if c["kind"] in RUNTIME_KINDS and c.get("certainty", "sure") == "sure"}
        unclear = {c["kind"] for c in causes if c["kind"] in RUNTIME_KINDS and c.get("certainty") == "unclear"}
        # A machine cause said as unclear (past a quarter of the machine stolen, or figures that conflict)
        # abstains: it is counted as "unclear", neither right nor a wrong cause.
        machine = [c["kind"] if c.get("certainty", "sure") == "sure" else "unclear"
                   for c in causes if c["kind"] not in RUNTIME_KINDS and c["kind"] not in ("tls", "rate-not-met")]
        return runtime, machine, unclear
    line = document.get("bottleneck") or ""
    runtime, machine = set(), []
    outside, _, inside = line.partition("inside the runtime: ")
    for clause in inside.split("; "):
        for prefix, kind in (("the GC", "gc"), ("thread-pool starvation", "thread-pool-starvation"), ("lock contention", "lock-contention")):
            if clause.startswith(prefix):
                runtime.add(kind)
    for clause in (outside + "; " + inside).split("; "):
        for pattern, kind in LINE_KINDS:
            if re.match(pattern, clause.strip()) and kind not in ("rate-not-met", "memory-limit", "noisy"):
                machine.append(kind)
                break
    return runtime, machine, set()


def large_grpc_request(out):
    """A gRPC SimpleRequest { response_size: 10, payload: { body: 16,000 bytes } }: a 16 KB request body the answer does not echo."""
    path = os.path.join(out, "grpc-request-16k.bin")
    if not os.path.exists(path):
        os.makedirs(out, exist_ok=True)
        with open(path, "wb") as f:
            f.write(bytes([0x10, 0x0A, 0x1A, 0x83, 0x7D, 0x12, 0x80, 0x7D]) + bytes(16_000))
    return path


def run_cell(host, cell, rep, out):
    folder = os.path.join(out, f"{cell['name']}-{rep}")
    os.makedirs(folder, exist_ok=True)
    args = [a.replace("$PLUGINS", PLUGINS).replace("$OUTSIDE", OUTSIDE).replace("$LARGE_GRPC_REQUEST", large_grpc_request(out)) for a in cell["args"]]
    command = host.split() + ["run", *args, "--results", folder, "--label", f"corpus:{cell['name']}"]
    busy = None
    if cell.get("busy"):
        busy = subprocess.Popen(["taskset", "-c", cell["busy"], "sh", "-c", "while :; do :; done"])
    shaped = None
    if cell.get("shape"):
        # A link that is the limit: loopback shaped by a token bucket for the length of the run (root).
        shaped = cell["shape"]["dev"]
        subprocess.run(["tc", "qdisc", "replace", "dev", shaped, "root", "tbf", "rate", cell["shape"]["rate"], "burst", "256kbit", "latency", "50ms"], check=True)
    started = time.time()
    try:
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        if busy:
            busy.kill()
            busy.wait()
        if shaped:
            subprocess.run(["tc", "qdisc", "del", "dev", shaped, "root"], check=False)
    lines = [l for l in result.stdout.splitlines() if l.startswith(("bound:", "window:"))]
    print(f"{cell['name']} #{rep} ({time.time() - started:.0f} s, exit {result.returncode}): " + " | ".join(l[:160] for l in lines), flush=True)
    if result.returncode != 0:
        print("  " + (result.stderr.strip().splitlines() or ["(no error output)"])[-1], flush=True)


def documents(folder):
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        if path.endswith("index.json"):
            continue
        with open(path) as f:
            yield json.load(f)


def matrix(title, rows, expected_of, named_of, kinds):
    print(f"\n{title}: expected (rows) x named (columns), runs")
    columns = kinds + ["none"]
    counts = collections.Counter((expected_of(r), named_of(r)) for r in rows)
    width = max(len(k) for k in columns) + 2
    print(" " * width + "".join(c[:14].rjust(16) for c in columns))
    for e in columns:
        if not any(exp == e for exp, _ in counts):
            continue
        print(e.ljust(width) + "".join(str(counts.get((e, n), 0)).rjust(16) for n in columns))
    for k in kinds:
        tp = counts.get((k, k), 0)
        named = sum(v for (e, n), v in counts.items() if n == k)
        expected = sum(v for (e, n), v in counts.items() if e == k)
        if named or expected:
            precision = f"{tp / named * 100:.0f}%" if named else "-"
            recall = f"{tp / expected * 100:.0f}%" if expected else "-"
            print(f"  {k}: precision {precision} ({tp}/{named}), recall {recall} ({tp}/{expected})")


def report(out, cells):
    rows = []
    for cell in cells:
        for folder in sorted(glob.glob(os.path.join(out, f"{cell['name']}-*"))):
            if not re.fullmatch(re.escape(cell["name"]) + r"-\d+", os.path.basename(folder)):
                continue
            for document in documents(folder):
                if re.search(r"interrupted|terminated \(SIGTERM\)", document.get("error") or ""):
                    continue
                runtime, machine, unclear = kinds_of(document)
                window = (document.get("window") or {}).get("verdict")
                warm = document.get("measurements", {}).get("load/warmup/steady")
                rows.append({"cell": cell, "runtime": runtime, "machine": machine[0] if machine else "none", "all_machine": set(machine), "unclear": unclear, "status": document.get("status"),
                             "window": window, "warm": warm, "jit": (document.get("window") or {}).get("jitMilliseconds")})
    if not rows:
        print("no runs found under " + out)
        return 1

    def runtime_named(r):
        named = sorted(r["runtime"])
        expected = r["cell"]["runtime"]
        return expected if expected in named else (named[0] if named else "none")

    matrix("Inside the runtime", rows, lambda r: r["cell"]["runtime"], runtime_named, RUNTIME_KINDS)
    machine_kinds = sorted({k for c in cells for k in c["machine"]} | {r["machine"] for r in rows} - {"none", "unclear"}) + ["unclear"]
    matrix("The machine (first machine-level cause; expected: the cell's first)", rows,
           lambda r: r["machine"] if r["machine"] in r["cell"]["machine"] else r["cell"]["machine"][0], lambda r: r["machine"], machine_kinds)

    print("\nPer cell (right: every repetition names the runtime cause expected, or none, a machine cause in the cell's list first, and its 'also' causes anywhere):")
    wrong_cells, flipped, false_alarms, healthy_runs = 0, 0, 0, 0
    for cell in cells:
        mine = [r for r in rows if r["cell"] is cell]
        if not mine:
            continue
        verdicts = {(tuple(sorted(r["runtime"])), r["machine"]) for r in mine}
        right = all((cell["runtime"] in r["runtime"] if cell["runtime"] != "none" else not r["runtime"]) and r["machine"] in cell["machine"] + ["unclear"]
                    and set(cell.get("also", [])) <= r["all_machine"] for r in mine)
        abstained = sum(1 for r in mine if r["machine"] == "unclear")
        if cell["group"] == "healthy":
            healthy_runs += len(mine)
            false_alarms += sum(1 for r in mine if r["runtime"] - {cell["runtime"]})
        flips = len(verdicts) > 1
        flipped += flips
        wrong_cells += not right
        unclear = sum(1 for r in mine if r["unclear"])
        print(f"  {'ok   ' if right else 'WRONG'} {cell['name']:<28} {len(mine)} runs; named: " + "; ".join(f"{'+'.join(rt) or 'none'} / {m}" for rt, m in sorted(verdicts))
              + (" (flips)" if flips else "") + (f" ({unclear} unclear)" if unclear else "") + (f" ({abstained} machine cause unclear)" if abstained else ""))
    judged = [r for r in rows if r["warm"] == 1 and r["window"] not in (None, "empty", "too short")]
    unsteady = [r for r in judged if r["window"] != "steady"]
    print(f"\nwindows after a warm-up that ended steady: {len(judged)}; not steady: {len(unsteady)}"
          + ("" if not unsteady else " (" + ", ".join(f"{r['cell']['name']}: {r['window']}" + (f", JIT {r['jit']:.0f} ms in its first 5 s" if r["jit"] else "") for r in unsteady) + ")"))
    print(f"\nhealthy runs naming a runtime cause that is not the cell's (false alarms): {false_alarms} of {healthy_runs}; cells wrong: {wrong_cells}; cells that flip: {flipped}")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default=os.path.join(ROOT, "src", "Host", "bin", "Release", "net10.0", "benchmarks"))
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--cells", default="")
    parser.add_argument("--out", default=os.path.join(ROOT, "artifacts", "verdicts"))
    parser.add_argument("--read", default="")
    a = parser.parse_args()
    with open(os.path.join(HERE, "corpus.json")) as f:
        cells = json.load(f)["cells"]
    if a.cells:
        wanted = set(a.cells.split(","))
        unknown = wanted - {c["name"] for c in cells}
        if unknown:
            print("unknown cell(s): " + ", ".join(sorted(unknown)), file=sys.stderr)
            return 2
        cells = [c for c in cells if c["name"] in wanted]
    if a.read:
        return report(a.read, cells)
    if any("$PLUGINS" in " ".join(c["args"]) for c in cells) and not os.path.isdir(PLUGINS):
        subprocess.run(["dotnet", "build", os.path.join(ROOT, "tests", "Plugins", "SamplePlugin"), "-c", "Release", "-nologo", "-clp:ErrorsOnly"], check=True)
    if any("$OUTSIDE" in " ".join(c["args"]) for c in cells) and not os.path.isdir(OUTSIDE):
        subprocess.run(["dotnet", "build", os.path.join(HERE, "outside"), "-c", "Release", "-nologo", "-clp:ErrorsOnly"], check=True)
    for rep in range(1, a.reps + 1):
        for cell in cells:
            run_cell(a.host, cell, rep, a.out)
    return report(a.out, cells)


if __name__ == "__main__":
    sys.exit(main())
