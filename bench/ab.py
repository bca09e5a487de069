#!/usr/bin/env python3
"""A/B comparison of two xs12 builds on the benchmark's kernel mix (bench/mix.py).

  python3 bench/ab.py BUILD_A BUILD_B [--kernels NAME,...] [--modes functional,timing] [--repeat N] [--cpu N]
                      [--callgrind | --cache-sim | --cpu-time K]

For each kernel of the mix and each mode it runs BUILD_A/tools/xs12 and BUILD_B/tools/xs12 on the
command line bench/xs12_bench.py times (`xs12 run CO --functional|--timing --json --scratch-waves 1664
--threads 1 --repeat 2`: one host core, the warm second dispatch), A then B, N times (--repeat,
default 5), each pinned to one host CPU (--cpu N, else the one on which a short probe with A's
xs12 ran fastest: two CPUs of a shared host can differ widely, see mix.py's one_cpu), and prints
the best of the N host seconds of each (the JSON's host_seconds: the
dispatch, not the process start-up) and the ratio A/B: over 1x when B is faster.

--kernels picks kernels by name (vadd, private_spill, sgemm_tiled, ...) or by their row name in
xs12_bench.py's table ("scratch: private_spill -O0"); --modes functional, timing or both (default).

Both sides read the same input files (mix.py's make_inputs, written once) and each runs in its own
temporary directory. Every run is checked against A's first: the JSON's figures of the simulated
GPU (every field but host_seconds: cycles, wave_instructions, waves launched, wait_cycles, per-CU
busy cycles, counters when present) and the bytes of the output file (the out: argument's). A row
says SAME, or DIFFER and what differs (a run of A that differs from A's first is a
nondeterministic build). The exit status is 1 when any row DIFFERs, 0 when all are SAME, 2 on
an error (usage, a run that fails).

--callgrind: instead of host seconds, runs each side once under valgrind --tool=callgrind (with
xs12 run --repeat 1; XS12_HANG_HOST_MS raised so that valgrind's slowness does not trip the
host-time hang watchdog) and prints the total host instructions (Ir: the callgrind output's
"totals:" or "summary:" line) of A and B and the ratio A/B. The check is the same. valgrind cannot
run AVX-512: a build made with -march=native (the default) on an AVX-512 host fails under it; give
builds configured with -Dnative=false -Dc_args=-march=x86-64-v3, as docs/performance-log.md's
callgrind figures are.

--cpu-time K: instead of one dispatch's host seconds, each run makes K dispatches (xs12 run
--repeat K) and is measured by the process's CPU time (user + system, from getrusage of the
child: set-up included, time the host gave other processes not). On a shared VM whose neighbours
come and go, one dispatch's wall time can read 30 % apart between runs of one build where this
reads 1-2 % apart (docs/performance-log.md, 2026-12-07): use it for changes of a few per cent, with
K large enough that the dispatches outweigh the set-up (20-30 for the mix's kernels).

--cache-sim: as --callgrind, with valgrind's cache simulation (a 32 KiB 8-way L1 and a 1 MiB
16-way last level, 64-byte lines: this host's L1 and L2) over the dispatches only (callgrind's
--toggle-collect=xs_gpu_execute), and prints the reads that missed the last level (DLmr). A count
that repeats exactly, for a change meant to touch fewer cold lines: the timing model waits on its
records' lines more than it executes (docs/performance-log.md). The simulation has no hardware
prefetcher and ignores prefetch instructions, so it cannot judge a prefetch.

The "paired" column (with --repeat 3 or more, without --callgrind or --cache-sim): the median of
the N ratios of each A run to the B run right after it, and their interquartile range. Neighbours
that come and go slow both runs of a pair alike, so when the best-of-N figures of two batches
disagree this one often does not (docs/performance-log.md uses it for changes of a few per cent).
"""
import json, math, os, resource, shutil, statistics, subprocess, sys, tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mix import MIX, INPUTS, make_inputs, one_cpu, pinned, run_cmd, take_cpu_arg  # the kernel mix, shared with xs12_bench.py

MODES = ("functional", "timing")
HOST_FIELDS = {"host_seconds"}  # JSON fields measured on the host, not the simulated GPU: not compared
SHOWN = 4  # differing fields named per row; the rest are counted
CPU = 0  # the host CPU every run is pinned to (main: mix.py's one_cpu)


def fail(msg):
    """Ends the script on an error (a usage error, a failed run): exit 2, as 1 means a row DIFFERs."""
    print(f"ab.py: {msg}", file=sys.stderr)
    sys.exit(2)


def usage(msg):
    fail(f"{msg}\n" + "\n".join(__doc__.strip().splitlines()[2:4]).strip())


def parse_args(argv):
    """The command line as {"builds": [A, B], "kernels": [...] or None, "modes": [...], "repeat": N,
    "callgrind": bool, "cache_sim": bool (callgrind too), "cpu_time": K or None}."""
    opt = {"builds": [], "kernels": None, "modes": list(MODES), "repeat": 5, "callgrind": False, "cache_sim": False,
           "cpu_time": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--callgrind":
            opt["callgrind"] = True
        elif a == "--cache-sim":
            opt["callgrind"] = opt["cache_sim"] = True
        elif a in ("--kernels", "--modes", "--repeat", "--cpu-time"):
            if i + 1 >= len(argv):
                usage(f"{a} needs a value")
            v = argv[i + 1]
            i += 1
            if a == "--kernels":
                opt["kernels"] = [k.strip() for k in v.split(",") if k.strip()]
            elif a == "--modes":
                opt["modes"] = [m.strip() for m in v.split(",") if m.strip()]
                bad = [m for m in opt["modes"] if m not in MODES]
                if bad or not opt["modes"]:
                    usage(f"--modes: {', '.join(bad) or 'none given'}: not functional or timing")
            else:
                if not v.isdigit() or int(v) < 1:
                    usage(f"{a} {v}: not a count of 1 or more")
                opt["repeat" if a == "--repeat" else "cpu_time"] = int(v)
        elif a.startswith("-"):
            usage(f"unknown option {a}")
        else:
            opt["builds"].append(os.path.abspath(a))
        i += 1
    if len(opt["builds"]) != 2:
        usage("give two build directories, A and B")
    if opt["callgrind"] and opt["cpu_time"]:
        usage(f"{'--cache-sim' if opt['cache_sim'] else '--callgrind'} and --cpu-time: one measure at a time")
    for b in opt["builds"]:
        if not os.path.exists(os.path.join(b, "tools", "xs12")):
            fail(f"no {os.path.join(b, 'tools', 'xs12')}: build first, or give the build directory")
    return opt


def pick_kernels(names):
    """MIX's rows named by names (a kernel, its row name, or the row name after "kind: "), in MIX's order."""
    if names is None:
        return list(MIX)
    rows = []
    for n in names:
        hit = [r for r in MIX if n in (r[0], r[0].split(": ", 1)[-1], r[3])]
        if not hit:
            fail(f"no kernel {n!r} in the mix; it has: " + ", ".join(r[3] for r in MIX))
        rows += [r for r in hit if r not in rows]
    return [r for r in MIX if r in rows]


def out_file(args):
    """The output file an `xs12 run --arg` list writes: out:FILE:BYTES or inout:FILE:OUTFILE."""
    for a in args:
        parts = a.split(":")
        if parts[0] == "out":
            return parts[1]
        if parts[0] == "inout":
            return parts[2]
    return None


# valgrind's options for --cache-sim: this host's L1 and L2 (32 KiB 8-way, 1 MiB 16-way, 64-byte lines),
# the dispatches alone counted
CACHE_SIM = ["--cache-sim=yes", "--D1=32768,8,64", "--LL=1048576,16,64", "--toggle-collect=xs_gpu_execute"]


def run(build, tmp, row, mode, callgrind_file=None, repeat=2, cache_sim=False):
    """One `xs12 run` of row in tmp, repeat dispatches (one under callgrind): (its JSON, the output file's
    bytes, under callgrind the total Ir or with cache_sim the last level's read misses, else the
    process's CPU seconds, user + system)."""
    name, co, src, kern, groups, block, args = row
    cmd = run_cmd(os.path.join(build, "tools", "xs12"), os.path.join(build, "kernels", co), groups, block, args,
                  mode, repeat=1 if callgrind_file else repeat)
    env = None
    if callgrind_file:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + callgrind_file] + \
              (CACHE_SIM if cache_sim else []) + cmd
        env = dict(os.environ, XS12_HANG_HOST_MS=os.environ.get("XS12_HANG_HOST_MS", "3600000"))
    out = out_file(args)
    if out and os.path.exists(os.path.join(tmp, out)):
        os.remove(os.path.join(tmp, out))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, env=env, preexec_fn=pinned(CPU))
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode and callgrind_file and "Unrecognised instruction" in p.stderr:
        fail(f"valgrind cannot run {cmd[3]}: it has instructions valgrind does not know (AVX-512, "
                 "from -march=native). For --callgrind, compare builds configured with -Dnative=false "
                 "-Dc_args=-march=x86-64-v3 (docs/performance.md).")
    if p.returncode:
        fail(f"{name} ({mode}) failed in {build} (exit {p.returncode}):\n{p.stderr.strip()}")
    try:
        js = json.loads(p.stdout)
    except ValueError:
        fail(f"{name} ({mode}) in {build}: no JSON on stdout:\n{p.stdout[:500]}")
    data = open(os.path.join(tmp, out), "rb").read() if out else b""
    return js, data, callgrind_total(callgrind_file, "DLmr" if cache_sim else None) if callgrind_file else cpu


def callgrind_total(path, event=None):
    """An event's total in a callgrind output file (its "totals:" line, else "summary:"): the named event's
    (its place in the "events:" line), or the first's (Ir) when event is None."""
    found, names = {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                names = line.split()[1:]
            for key in ("totals:", "summary:"):
                if line.startswith(key):
                    found[key] = line.split()[1:]
    if not found:
        fail(f"no totals: or summary: line in {path}")
    i = 0
    if event is not None:
        if event not in names:
            fail(f"no {event} event in {path} (events: {' '.join(names) or 'none'})")
        i = names.index(event)
    vals = found.get("totals:", found.get("summary:"))
    if event is not None and not int(vals[0]):
        fail(f"{path}: no instruction counted: the binary has no xs_gpu_execute symbol for --toggle-collect")
    return int(vals[i]) if i < len(vals) else 0  # (callgrind leaves trailing zeroes out)


def flatten(js, prefix=""):
    """A run's JSON as {path: value}, nested objects and lists opened (wait_cycles.vgpr, cu_busy_cycles[3])."""
    flat = {}
    if isinstance(js, dict):
        for k, v in js.items():
            if not prefix and k in HOST_FIELDS:
                continue
            flat.update(flatten(v, f"{prefix}.{k}" if prefix else k))
    elif isinstance(js, list):
        for i, v in enumerate(js):
            flat.update(flatten(v, f"{prefix}[{i}]"))
    else:
        flat[prefix] = js
    return flat


def compare(ref, other, who, diffs, notes):
    """Adds to diffs ({what: text}, the first occurrence of each) where other (a run: JSON, bytes) is not
    ref's (A's first run); to notes the fields only one side's JSON has (a field added: not a DIFFER)."""
    fa, fb = flatten(ref[0]), flatten(other[0])
    for k in (k for k in fa if k in fb):  # in the JSON's order: instructions and cycles first
        if fa[k] != fb[k] and k not in diffs:
            diffs[k] = f"{k} {fa[k]!r} vs {fb[k]!r} ({who})"
    for k in sorted(fa.keys() ^ fb.keys()):
        notes.add(f"{k} only in {'A' if k in fa else who.split()[0]}")
    a, b = ref[1], other[1]
    if a != b and "output" not in diffs:
        if len(a) != len(b):
            diffs["output"] = f"output {len(a)} vs {len(b)} bytes ({who})"
        else:
            first = next(i for i in range(len(a)) if a[i] != b[i])
            n = sum(1 for x, y in zip(a, b) if x != y)
            diffs["output"] = f"output bytes: {n} of {len(a)} differ, first at 0x{first:x} ({who})"


def pair_ratios(runs, cpu_time):
    """A's measure over B's for each run i of A and the run of B made right after it."""
    def measure(r):
        return r[2] if cpu_time else r[0]["host_seconds"]
    return [measure(a) / measure(b) if measure(b) else float("inf") for a, b in zip(runs["A"], runs["B"])]


def verdict(diffs):
    """SAME, or DIFFER: the outputs' difference first, then the first SHOWN fields, the rest counted."""
    if not diffs:
        return "SAME"
    keys = (["output"] if "output" in diffs else []) + [k for k in diffs if k != "output"]
    text = "; ".join(diffs[k] for k in keys[:SHOWN])
    if len(keys) > SHOWN:
        text += f"; and {len(keys) - SHOWN} more fields"
    return "DIFFER: " + text


def main():
    if any(a in ("-h", "--help") for a in sys.argv[1:]):
        print(__doc__.strip())
        return 0
    global CPU
    argv = sys.argv[1:]
    try:
        cpu = take_cpu_arg(argv)
    except ValueError as e:
        usage(str(e))
    opt = parse_args(argv)
    try:
        CPU, how = one_cpu(cpu, os.path.join(opt["builds"][0], "tools", "xs12"))
    except RuntimeError as e:
        fail(str(e))
    build_a, build_b = opt["builds"]
    rows = pick_kernels(opt["kernels"])
    cg, cs = opt["callgrind"], opt["cache_sim"]
    if cg and not shutil.which("valgrind"):
        fail(f"{'--cache-sim' if cs else '--callgrind'} needs valgrind")
    n = 1 if cg else opt["repeat"]
    ct = opt["cpu_time"]
    print(f"A: {build_a}\nB: {build_b}\n{how}")
    print("callgrind --cache-sim: the dispatch's reads that missed a 1 MiB last-level cache (DLmr), one run each "
          "(xs12 run --repeat 1)" if cs else
          "callgrind: total host instructions (Ir) of one run each (xs12 run --repeat 1)" if cg else
          f"best of {n} CPU seconds of a process making {ct} dispatches (xs12 run --repeat {ct}; set-up "
          "included), A and B run alternately" if ct else
          f"best of {n} host seconds (xs12 run --repeat 2, the second dispatch), A and B run alternately")
    unit = (("A LL rd miss", "B LL rd miss") if cs else ("A Ir", "B Ir") if cg else
            ("A CPU s", "B CPU s") if ct else ("A s", "B s"))
    paired = not cg and n >= 3
    print(f"{'kernel':28} {'mode':10} {unit[0]:>14} {unit[1]:>14} {'A/B':>7}" +
          (f"  {'paired (IQR)':>19}" if paired else "") + "  check", flush=True)
    ratios, differ = [], 0
    with tempfile.TemporaryDirectory(prefix="xs12_ab_") as tmp:
        inputs = os.path.join(tmp, "inputs")
        os.mkdir(inputs)
        make_inputs(inputs)  # once, so that both sides read the same bytes (in32m.bin is random)
        side = {}
        for s in ("A", "B"):
            side[s] = os.path.join(tmp, s)
            os.mkdir(side[s])
            for f in INPUTS:
                os.symlink(os.path.join(inputs, f), os.path.join(side[s], f))
        for row in rows:
            name, co = row[0], row[1]
            notes = set()
            if open(os.path.join(build_a, "kernels", co), "rb").read() != \
                    open(os.path.join(build_b, "kernels", co), "rb").read():
                notes.add(f"{co} differs between the builds")
            for mode in opt["modes"]:
                runs = {"A": [], "B": []}
                for i in range(n):
                    for s, build in (("A", build_a), ("B", build_b)):
                        cgf = os.path.join(tmp, f"callgrind.{s}.out") if cg else None
                        runs[s].append(run(build, side[s], row, mode, cgf, ct or 2, cs))
                diffs = {}
                ref = runs["A"][0]
                for s in ("A", "B"):
                    for i, r in enumerate(runs[s]):
                        if (s, i) != ("A", 0):
                            compare(ref, r, f"{s} run {i + 1}" if n > 1 else s, diffs, notes)
                if cg:
                    va, vb = runs["A"][0][2], runs["B"][0][2]
                    shown = (f"{va:>14,}", f"{vb:>14,}")
                elif ct:
                    va, vb = min(r[2] for r in runs["A"]), min(r[2] for r in runs["B"])
                    shown = (f"{va:>14.3f}", f"{vb:>14.3f}")
                else:
                    va = min(r[0]["host_seconds"] for r in runs["A"])
                    vb = min(r[0]["host_seconds"] for r in runs["B"])
                    shown = (f"{va:>14.4f}", f"{vb:>14.4f}")
                ratio = va / vb if vb else float("inf")
                ratios.append(ratio)
                differ += bool(diffs)
                pair = ""
                if paired:
                    pr = sorted(pair_ratios(runs, ct))
                    pair = f"  {statistics.median(pr):>6.3f}x ({pr[len(pr) // 4]:.3f}-{pr[(3 * len(pr)) // 4]:.3f})"
                print(f"{name:28} {mode:10} {shown[0]} {shown[1]} {ratio:>6.2f}x{pair}  {verdict(diffs)}", flush=True)
            for note in sorted(notes):
                print(f"  note ({name}): {note}")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if all(0 < r < float("inf") for r in ratios) \
        else float("nan")
    print(f"\n{len(ratios)} rows: A/B {geo:.2f}x geometric mean; "
          + ("all SAME" if not differ else f"{differ} DIFFER"))
    return 1 if differ else 0


sys.exit(main())
