#!/usr/bin/env python3
"""xs12 benchmark: a fixed kernel mix run in xs12 and on PoCL in the same run.

  python3 bench/xs12_bench.py BUILD_DIR [--json FILE] [--cpu N] [--runs N]
                              [--mix-only | --calls-only | --bvh-only | --soak-only | --rays-only]
  python3 bench/xs12_bench.py --gather FILE...      (saved --json outputs, judged run after run)

For each kernel (compute-bound, memory-bound, scratch-heavy, a small
streaming one, and an LDS-bound tiled SGEMM whose result must match PoCL's) it runs `xs12 run --functional` and `xs12 run --timing` on one
host core, and the same OpenCL C source on PoCL restricted to one thread
(POCL_MAX_PTHREAD_COUNT=1, second launch timed so that PoCL's per-size
compilation is not counted). It prints wave instructions per second (host),
lane operations per second (wave instructions x wave size), and the ratio of
xs12's functional time to PoCL's time. Every figure is the best of REPEAT
runs (the host is shared), each of the one-core runs, xs12's and PoCL's, pinned
to one host CPU: --cpu N, else the one on which a short probe ran fastest (mix.py's
one_cpu). Both sides are timed warm, on the same protocol:
PoCL's second launch, xs12's second dispatch on the same buffers (`xs12 run
--repeat 2`); the "cold ms" column is xs12's first dispatch, which also
first-touches the output buffers' host pages. Targets (ISA and
GPU-model issues): >= 100 M wave instructions/s functional, >= 10 M timing,
<= 10x PoCL's time. For a kernel xs12 runs as built at -O0 it also prints,
for reference and not as a target, its time against PoCL compiling the same
source with -cl-opt-disable; and what a wave costs beyond its instructions
(launch, set-up, pick, retire): host ns per wave of an empty kernel
(kernels/model/empty.cl) launched as stream_copy's 65,536 waves, both modes.

It also runs bench/d3d12_calls (the D3D12 layer's recording calls, ns per
call with the debug layer off and on; target: under 50 ns off, issue 9)
and prints its lines, a miss marked MISS. --calls-only runs just that.

Then bench/bvh_build (the acceleration-structure builder: SAH cost, box
nodes, depth and host build time per mesh, against a 4-wide median split);
--bvh-only runs just that.

Then bench/soak (issue 12: 20,000 small submissions on one device, with the
debug layer off, on, and on with a scratch ring change in every list): submissions per second and the resident memory
after the first and the last 1,000; it fails when that grows 5 % or more,
and so does this script. --soak-only runs just that.

Last, examples/rays_scene (the ray-tracing scene on the simulated GPU,
docs/rays.md): rays per host second and per simulated second of
DispatchRays and of DispatchRaysX on rings of 1-64 waves, 320x180 in timing
mode (the small scene when the model is missing); --rays-only runs just that.

--mix-only runs the kernel mix and the host-thread line, and stops there.

--runs N runs the kernel table N times in a row (each with its MET / MISS lines and
a time stamp), then says for each target in how many of the N runs it was met and,
for the kernels that missed it, the range of their figures: the issue's "met run
after run" as one command (the references after the table come from the last run).

--gather FILE... makes that run-after-run summary from saved --json outputs instead (each
one table, or the N tables of a --runs N): runs made at different hours, or on different
days, judged together. It needs no build and runs nothing.
"""
import json, math, os, re, struct, subprocess, sys, tempfile, time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mix import MIX, CHECKED, SGEMM_TOL, make_inputs, one_cpu, pinned, run_cmd, take_cpu_arg  # the kernel mix (bench/mix.py), shared with ab.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if any(a in ("-h", "--help") for a in sys.argv[1:]):
    print(__doc__.strip())
    sys.exit(0)
try:
    CPU_ARG = take_cpu_arg(sys.argv)
except ValueError as e:
    sys.exit(f"xs12_bench: {e}")
GATHER = "--gather" in sys.argv  # (saved --json files only: main() needs no build then)
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-")
                        else os.path.join(ROOT, "build"))
if not GATHER and not os.path.exists(os.path.join(BUILD, "tools", "xs12")):
    sys.exit(f"xs12_bench: no {os.path.join(BUILD, 'tools', 'xs12')}: build first (make all), "
             "or give the build directory as the first argument")
XS12 = os.path.join(BUILD, "tools", "xs12")
POCL = os.path.join(BUILD, "tests", "e2e", "pocl_run")
CALLS = os.path.join(BUILD, "bench", "d3d12_calls")
BVH = os.path.join(BUILD, "bench", "bvh_build")
SOAK = os.path.join(BUILD, "bench", "soak")
RAYS = os.path.join(BUILD, "examples", "rays_scene")
RAYS_MODEL = "/usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"
K = os.path.join(BUILD, "kernels")

REPEAT = 3
CPU = 0  # the host CPU of the one-core runs (main: one_cpu)


def best(run):
    """The run (a dict with host_seconds, or seconds) that took least of REPEAT."""
    runs = [run() for _ in range(REPEAT)]
    return min(runs, key=lambda r: r["host_seconds"] if isinstance(r, dict) else r)


def xs12(tmp, co, groups, block, args, mode, threads=1, repeat=2, timing_threads=1):
    """One xs12 run's JSON: by default the second of two dispatches on the same buffers (--repeat 2),
    as PoCL's timed launch is its second; repeat=1 is the cold first dispatch."""
    cmd = run_cmd(XS12, os.path.join(K, co), groups, block, args, mode, threads, repeat, timing_threads)
    one_core = threads == 1 and timing_threads == 1
    p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, preexec_fn=pinned(CPU) if one_core else None)
    if p.returncode:
        raise SystemExit(f"xs12 failed: {p.stderr}")
    return json.loads(p.stdout)


def pocl(tmp, src, kernel, groups, block, args, build_opts=None):
    cmd = [POCL, os.path.join(ROOT, src), "--kernel", kernel, "--groups", str(groups), "--block", str(block), "--time"]
    for a in args:
        cmd += ["--arg", a]
    if build_opts:
        cmd += ["--build-opts", build_opts]
    env = dict(os.environ, POCL_MAX_PTHREAD_COUNT="1")
    p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, env=env, preexec_fn=pinned(CPU))
    if p.returncode:
        raise SystemExit(f"pocl_run failed: {p.stderr}")
    return float(p.stdout.split("kernel_seconds")[1].split()[0])


def check_against_pocl(name, mine, theirs):
    """xs12's output (timing mode, the last run) against PoCL's: bytes equal, else floats within SGEMM_TOL."""
    if mine == theirs:
        print(f"{name}: output bytes equal to PoCL's")
        return
    if len(mine) != len(theirs):
        raise SystemExit(f"{name}: output is {len(mine)} bytes, PoCL's {len(theirs)}")
    n = len(mine) // 4
    a, b = struct.unpack(f"<{n}f", mine), struct.unpack(f"<{n}f", theirs)
    bad = [i for i in range(n) if not abs(a[i] - b[i]) <= SGEMM_TOL * max(1.0, abs(b[i]))]
    if bad:
        i = bad[0]
        raise SystemExit(f"{name}: {len(bad)} of {n} results differ from PoCL's, first [{i}]: {a[i]!r} vs {b[i]!r}")
    print(f"{name}: output within {SGEMM_TOL} of PoCL's (not bytes equal)")


def d3d12_calls():
    """bench/d3d12_calls's table: {call: {"off": ns, "on": ns}}, and whether every debug-off cost met
    the target. Its lines are printed as they are (a miss says MISS), then a summary line."""
    p = subprocess.run([CALLS, os.path.join(K, "vadd.O2.w32.hsaco")], capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(f"d3d12_calls failed: {p.stderr}")
    calls, met = {}, True
    for line in p.stdout.splitlines():
        print(line)
        if " off: " in line and " on: " in line:
            name = line.split(" off: ")[0].strip()
            off = float(line.split(" off: ")[1].split()[0])
            on = float(line.split(" on: ")[1].split()[0])
            judged = "not judged" not in line  # the memory-bound 100,000-dispatch list
            calls[name] = {"off_ns": off, "on_ns": on, "judged": judged}
            met &= off < 50.0 or not judged
    missed = [f"{n} {v['off_ns']:.0f} ns" for n, v in calls.items() if v["off_ns"] >= 50.0 and v["judged"]]
    print("D3D12 recording calls: " + ("every debug-off cost under 50 ns" if met else
                                       "MISS: over 50 ns with the debug layer off: " + ", ".join(missed)))
    return calls, met


def bvh_build():
    """bench/bvh_build's table, printed, as {mesh: {column: value}}."""
    p = subprocess.run([BVH], capture_output=True, text=True)
    if p.returncode:
        raise SystemExit(f"bvh_build failed: {p.stderr}")
    lines = p.stdout.splitlines()
    print("\n".join(lines))
    cols = ["triangles", "box_nodes", "depth", "sah", "median_sah", "sah_over_median", "build_s", "mtri_per_s"]
    rows = {}
    for line in lines[1:]:
        name, vals = line[:22].strip(), line[22:].split()
        rows[name] = dict(zip(cols, map(float, vals)))
    return rows


def soak():
    """bench/soak with the debug layer off, on, and on with a scratch ring change per list, printed, as
    {variant: figures}; a resident-memory growth of 5 % or more (soak's exit 1) fails the benchmark."""
    res = {}
    for layer in ("off", "on", "on, scratch rings"):
        args = [SOAK, os.path.join(K, "vadd.O2.w32.hsaco"), "20000", "1000", "--json"]
        if layer != "off":
            args.append("--debug")
        if "scratch" in layer:  # a SetShaderScratchSpaceX ring change in every list
            args += ["--scratch", os.path.join(K, "private_spill.O2.w32.hsaco")]
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode not in (0, 1) or not p.stdout.strip():
            raise SystemExit(f"soak failed ({p.returncode}): {p.stderr}")
        r = res[layer] = json.loads(p.stdout)
        print(f"soak, debug layer {layer}: {r['submissions']} submissions, {r['submissions_per_second']:.0f}/s; "
              f"VmRSS {r['rss_first_kb']} KB after the first {r['window']}, {r['rss_last_kb']} KB after the last "
              f"({r['rss_growth_percent']:+.2f} %)" + ("" if p.returncode == 0 else " MISS: " + p.stderr.strip()))
        if p.returncode:
            raise SystemExit(f"soak: {p.stderr.strip()}")
    return res


def rays_scene():
    """examples/rays_scene's frames, printed, as {dispatch: {rays, sim_rays_per_s, host_rays_per_s, ...}}."""
    if not os.path.exists(RAYS):
        print("rays_scene: not built (needs hipcc)")
        return {}
    args = [RAYS, RAYS + ".hip.co", os.path.join(BUILD, "bench_rays_scene.png"), "320", "180"]
    if os.path.exists(RAYS_MODEL):
        args.append(RAYS_MODEL)
    p = subprocess.run(args, capture_output=True, text=True)
    print(p.stdout, end="")
    if p.returncode:
        raise SystemExit(f"rays_scene failed ({p.returncode}): {p.stderr}")
    rows = {}
    pat = re.compile(r"(DispatchRays\S*(?: ring \d+)?)\s+(\d+) rays\s+(\S+) rays/simulated s\s+(\S+) rays/host s"
                     r".*peak\s+(\d+) waves in flight\s+(\d+) scratch slots")
    for line in p.stdout.splitlines():
        m = pat.match(line)
        if m:
            rows[m[1]] = {"rays": int(m[2]), "sim_rays_per_s": float(m[3]) if m[3] != "n/a" else None,
                          "host_rays_per_s": float(m[4]), "peak_waves_in_flight": int(m[5]),
                          "scratch_slots": int(m[6])}
    return rows


class Target:
    """One of issue 13's speed targets: a figure (key of a table row, or of its summary for the mix)
    that must be at least (at_least) or at most its bound. Its verdict and how a figure is printed in
    one, so that the two cannot disagree."""

    def __init__(self, name, key, bound, at_least, scale, unit):
        self.name, self.key, self.bound, self.at_least, self.scale, self.unit = name, key, bound, at_least, scale, unit

    def figure(self, r):
        return r[self.key]

    def met(self, r):
        return r[self.key] >= self.bound if self.at_least else r[self.key] <= self.bound

    def show(self, r):
        """The figure to one decimal, rounded away from the bound's side it must stay on: a figure that
        misses never reads as the bound itself (9.99 M/s of a 10 M/s target shows 9.9, a 10.01x ratio
        of a 10x one 10.1)."""
        v = r[self.key] / self.scale * 10
        return f"{(math.floor(v) if self.at_least else math.ceil(v)) / 10:.1f}{self.unit}"


# Issue 13's speed targets, one host core: on every kernel's row, then on the mix (a table's summary).
TARGETS = [
    Target("functional >= 100 M wave instructions/s on every kernel", "functional_wave_inst_per_s", 100e6, True, 1e6,
           " M/s"),
    Target("timing >= 10 M wave instructions/s on every kernel", "timing_wave_inst_per_s", 10e6, True, 1e6, " M/s"),
    Target("xs12 <= 10x PoCL's time on every kernel", "ratio", 10, False, 1, "x"),
]
MIX_TARGET = Target("xs12 <= 5x PoCL's time on the mix", "ratio_total", 5, False, 1, "x")


def targets(rows, summary):
    """Prints MET or MISS per target, naming the kernels that miss it; returns {target: met}."""
    met = {}
    print()
    for t in TARGETS:
        miss = [f"{r['kernel'].split(': ')[-1]} {t.show(r)}" for r in rows if not t.met(r)]
        met[t.name] = not miss
        print(f"{'MET ' if not miss else 'MISS'} {t.name}" + (f": {', '.join(miss)}" if miss else ""))
    met[MIX_TARGET.name] = MIX_TARGET.met(summary)
    print(f"{'MET ' if met[MIX_TARGET.name] else 'MISS'} {MIX_TARGET.name}: {MIX_TARGET.show(summary)}")
    return met


def mix_table(tmp):
    """The kernel table (inputs made in tmp): prints it and the mix line, returns its rows."""
    rows = []
    print(f"{'kernel':28} {'wave insts':>11} {'func M/s':>9} {'lane G/s':>9} {'timing M/s':>10} "
          f"{'xs12 ms':>8} {'cold ms':>8} {'PoCL ms':>8} {'ratio':>6}")
    for name, co, src, kern, groups, block, args in MIX:
        f = best(lambda: xs12(tmp, co, groups, block, args, "functional"))
        cold = best(lambda: xs12(tmp, co, groups, block, args, "functional", repeat=1))
        t = best(lambda: xs12(tmp, co, groups, block, args, "timing"))
        mine = open(os.path.join(tmp, "o.bin"), "rb").read()
        ps = best(lambda: pocl(tmp, src, kern, groups, block, args))
        if name in CHECKED:
            check_against_pocl(name, mine, open(os.path.join(tmp, "o.bin"), "rb").read())
        wi = f["wave_instructions"]
        row = {"kernel": name, "wave_instructions": wi,
               "functional_wave_inst_per_s": wi / f["host_seconds"],
               "lane_ops_per_s": wi * 32 / f["host_seconds"],
               "timing_wave_inst_per_s": t["wave_instructions"] / t["host_seconds"],
               "xs12_seconds": f["host_seconds"], "xs12_cold_seconds": cold["host_seconds"], "pocl_seconds": ps,
               "ratio": f["host_seconds"] / ps, "simulated_cycles": t["cycles"], "timing_seconds": t["host_seconds"]}
        rows.append(row)
        print(f"{name:28} {wi:>11} {row['functional_wave_inst_per_s'] / 1e6:>9.1f} "
              f"{row['lane_ops_per_s'] / 1e9:>9.2f} {row['timing_wave_inst_per_s'] / 1e6:>10.1f} "
              f"{row['xs12_seconds'] * 1e3:>8.2f} {row['xs12_cold_seconds'] * 1e3:>8.2f} {ps * 1e3:>8.2f} "
              f"{row['ratio']:>6.1f}")
    return rows


def mix_summary(rows):
    """The mix line's figures of a table's rows, printed; then its MET / MISS lines (summary["targets"])."""
    tot_wi = sum(r["wave_instructions"] for r in rows)
    tot_f = sum(r["xs12_seconds"] for r in rows)
    tot_p = sum(r["pocl_seconds"] for r in rows)
    geo = math.exp(sum(math.log(r["ratio"]) for r in rows) / len(rows))
    tot_t = sum(r["timing_seconds"] for r in rows)
    summary = {"functional_wave_inst_per_s": tot_wi / tot_f, "timing_wave_inst_per_s": tot_wi / tot_t,
               "ratio_total": tot_f / tot_p, "ratio_geomean": geo}
    print(f"\nmix: {summary['functional_wave_inst_per_s'] / 1e6:.1f} M wave instructions/s functional, "
          f"{summary['timing_wave_inst_per_s'] / 1e6:.1f} M timing (one core); "
          f"xs12/PoCL time {summary['ratio_total']:.1f}x in total, {geo:.1f}x geometric mean per kernel")
    summary["targets"] = targets(rows, summary)
    return summary


def run_after_run(tables):
    """For tables (each (rows, summary) of one run): per target, the runs that met it and the range of the
    figures of the kernels that missed it in any; printed, and returned as {target: {"met_runs", "runs", "missed"}}."""
    n = len(tables)
    print(f"\nrun after run ({n} runs):")
    out = {}
    for t in TARGETS:
        met = sum(all(t.met(r) for r in rows) for rows, _ in tables)
        missed = {}
        for rows, _ in tables:
            for r in rows:
                if not t.met(r):
                    missed.setdefault(r["kernel"], []).append(r)
        parts = []
        for kern, rs in missed.items():
            lo, hi = t.show(min(rs, key=t.figure)), t.show(max(rs, key=t.figure))
            rng = lo if lo == hi else f"{lo} .. {hi}"
            parts.append(f"{kern.split(': ')[-1]} missed in {len(rs)} ({rng})")
        out[t.name] = {"met_runs": met, "runs": n, "missed": {k: len(v) for k, v in missed.items()}}
        print(f"  {t.name}: met in {met} of {n}" + (f"; {', '.join(parts)}" if parts else ""))
    t = MIX_TARGET
    met = sum(t.met(s) for _, s in tables)
    sums = [s for _, s in tables]
    lo, hi = t.show(min(sums, key=t.figure)), t.show(max(sums, key=t.figure))
    out[t.name] = {"met_runs": met, "runs": n}
    print(f"  {t.name}: met in {met} of {n} ({lo} .. {hi})")
    return out


def need_numbers(d, where, keys):
    """Raises KeyError naming where.key for the first of keys that d lacks or holds as no number."""
    for k in keys:
        if not isinstance(d.get(k), (int, float)):
            raise KeyError(f"{where}.{k} (a number)")


def load_tables(paths):
    """The kernel tables in saved --json outputs: a run's (rows, summary), or each of a --runs N run's.
    Exits (status 1) naming the file and what it lacks when one is not such an output."""
    tables = []
    for path in paths:
        try:
            with open(path) as f:
                j = json.load(f)
            runs = j["summary"].get("runs") or [{"rows": j["rows"], "summary": j["summary"]}]
            for run in runs:
                rows, summary = run["rows"], run["summary"]
                if not rows or not isinstance(rows, list):
                    raise KeyError("rows (a non-empty list)")
                # what run_after_run reads: each row's name and targets' figures, the summary's mix figure
                for r in rows:
                    if "kernel" not in r:
                        raise KeyError("rows[].kernel")
                    need_numbers(r, "rows[]", [t.key for t in TARGETS])
                need_numbers(summary, "summary", [MIX_TARGET.key])
                tables.append((rows, summary))
        except OSError as e:
            sys.exit(f"xs12_bench: --gather {path}: {e.strerror}")
        except json.JSONDecodeError as e:
            sys.exit(f"xs12_bench: --gather {path}: not JSON ({e.msg}, line {e.lineno})")
        except KeyError as e:
            sys.exit(f"xs12_bench: --gather {path}: not an xs12_bench.py --json output (no {e.args[0]})")
        except (TypeError, AttributeError):
            sys.exit(f"xs12_bench: --gather {path}: not an xs12_bench.py --json output "
                     "(it, a table or a row is not a JSON object)")
    return tables


def main():
    if GATHER:
        paths = sys.argv[sys.argv.index("--gather") + 1:]
        if not paths:
            sys.exit("xs12_bench: --gather needs one or more --json files")
        tables = load_tables(paths)
        print(f"{len(tables)} tables from {len(paths)} file{'s' if len(paths) > 1 else ''}")
        run_after_run(tables)
        return
    out_json = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
    nruns = 1
    if "--runs" in sys.argv:
        i = sys.argv.index("--runs")
        v = sys.argv[i + 1] if i + 1 < len(sys.argv) else ""
        if not v.isdigit() or int(v) < 1:
            sys.exit(f"xs12_bench: --runs {v or '(none)'}: not a count of 1 or more")
        nruns = int(v)
    if "--bvh-only" in sys.argv:
        rows = bvh_build()
        if out_json:
            with open(out_json, "w") as fo:
                json.dump({"bvh_build": rows}, fo, indent=1)
        return
    if "--rays-only" in sys.argv:
        rows = rays_scene()
        if out_json:
            with open(out_json, "w") as fo:
                json.dump({"rays_scene": rows}, fo, indent=1)
        return
    if "--soak-only" in sys.argv:
        res = soak()
        if out_json:
            with open(out_json, "w") as fo:
                json.dump({"soak": res}, fo, indent=1)
        return
    if "--calls-only" in sys.argv:
        calls, met = d3d12_calls()
        if out_json:
            with open(out_json, "w") as fo:
                json.dump({"d3d12_calls": calls, "d3d12_calls_under_50ns": met}, fo, indent=1)
        return
    global CPU
    try:
        CPU, how = one_cpu(CPU_ARG, XS12)
    except RuntimeError as e:
        sys.exit(f"xs12_bench: {e}")
    tables = []
    with tempfile.TemporaryDirectory() as tmp:
        make_inputs(tmp)
        print(f"one-core runs (xs12 and PoCL): {how}")
        for i in range(nruns):
            if nruns > 1:
                print(f"{'' if i == 0 else chr(10)}run {i + 1} of {nruns} ({time.strftime('%H:%M:%S', time.gmtime())} UTC)")
            rows = mix_table(tmp)
            tables.append((rows, mix_summary(rows)))
    rows, summary = tables[-1]
    if nruns > 1:
        runs_json = [{"rows": r, "summary": dict(s)} for r, s in tables]  # (copies: the last is summary)
        summary["run_after_run"] = run_after_run(tables)
        summary["runs"] = runs_json
    # For reference, not a target: a kernel xs12 runs as clang built it at -O0 set beside PoCL
    # compiling the same source unoptimised (-cl-opt-disable). The target rows compare with
    # PoCL's optimised build, which keeps such a kernel's private array out of memory.
    summary["pocl_o0"] = {}
    with tempfile.TemporaryDirectory() as tmp:
        make_inputs(tmp)
        for (name, co, src, kern, groups, block, args), r in zip(MIX, rows):
            if ".O0." not in co:
                continue
            ps = best(lambda: pocl(tmp, src, kern, groups, block, args, "-cl-opt-disable"))
            summary["pocl_o0"][name] = {"pocl_seconds": ps, "ratio": r["xs12_seconds"] / ps}
            print(f"for reference, {name.split(': ')[-1]} against PoCL at -O0 too (-cl-opt-disable): "
                  f"PoCL {ps:.3f} s, xs12 {r['xs12_seconds'] / ps:.1f}x its time")
    # For reference, not a target: a wave's cost beyond its instructions, from a kernel that
    # only ends, launched as stream_copy is (its 8192 groups of 256 work-items).
    with tempfile.TemporaryDirectory() as tmp:
        sc = next(r for r in MIX if r[0] == "memory: stream_copy")
        runs = {m: best(lambda: xs12(tmp, "empty.O2.w32.hsaco", sc[4], sc[5], [], m))
                for m in ("functional", "timing")}
        nwaves = runs["functional"]["waves_launched"]  # (stream_copy's: the same groups and wave size)
        ns = {m: r["host_seconds"] / nwaves * 1e9 for m, r in runs.items()}
        sc_ns = next(r for r in rows if r["kernel"] == sc[0])["xs12_seconds"] / nwaves * 1e9
    summary["empty_wave_ns"] = ns
    print(f"for reference, an empty kernel's {nwaves} waves: {ns['functional']:.0f} ns a wave functional, "
          f"{ns['timing']:.0f} ns timing (launch, set-up, pick, retire); stream_copy's: {sc_ns:.0f} ns functional")
    # Host threads in functional mode (results identical, tested by the scaling run's bytes).
    ncpu = os.cpu_count() or 1
    name, co, src, kern, groups, block, args = MIX[0]
    with tempfile.TemporaryDirectory() as tmp:
        one = xs12(tmp, co, groups, block, args, "functional", 1)
        a = open(os.path.join(tmp, "o.bin"), "rb").read()
        many = xs12(tmp, co, groups, block, args, "functional", ncpu)
        same = open(os.path.join(tmp, "o.bin"), "rb").read() == a
    summary["threads"] = ncpu
    summary["thread_speedup"] = one["host_seconds"] / many["host_seconds"]
    print(f"functional on {ncpu} host threads ({name}): {summary['thread_speedup']:.2f}x one thread, "
          f"results {'identical' if same else 'DIFFERENT'}")
    # Timing mode on two host threads (--timing-threads 2: the run-ahead on the second), each
    # kernel alternately with one, best of REPEAT each; every simulated figure and the output
    # must be one thread's (the mix's waves share data only across barriers).
    if ncpu > 1:
        t1 = t2 = 0.0
        ratios, same = [], True
        with tempfile.TemporaryDirectory() as tmp:
            make_inputs(tmp)
            for name, co, src, kern, groups, block, args in MIX:
                got = {1: [], 2: []}
                for _ in range(REPEAT):
                    for tt in (1, 2):
                        j = xs12(tmp, co, groups, block, args, "timing", timing_threads=tt)
                        hs = j.pop("host_seconds")
                        got[tt].append((hs, json.dumps(j, sort_keys=True),
                                        open(os.path.join(tmp, "o.bin"), "rb").read()))
                same &= len({(r[1], r[2]) for r in got[1] + got[2]}) == 1
                b1, b2 = min(r[0] for r in got[1]), min(r[0] for r in got[2])
                t1, t2 = t1 + b1, t2 + b2
                ratios.append((b1 / b2, name.split(": ")[-1]))
        summary["timing_2thread_speedup"] = t1 / t2
        lo, hi = min(ratios), max(ratios)
        print(f"timing on 2 host threads (--timing-threads 2): the mix {t1 / t2:.2f}x one thread "
              f"({lo[1]} {lo[0]:.2f}x .. {hi[1]} {hi[0]:.2f}x), results {'identical' if same else 'DIFFERENT'}")
    if "--mix-only" in sys.argv:
        if out_json:
            with open(out_json, "w") as fo:
                json.dump({"rows": rows, "summary": summary}, fo, indent=1)
        return
    print()
    calls, met = d3d12_calls()
    summary["d3d12_calls"] = calls
    summary["d3d12_calls_under_50ns"] = met
    print()
    summary["bvh_build"] = bvh_build()
    print()
    summary["soak"] = soak()
    print()
    summary["rays_scene"] = rays_scene()
    if out_json:
        with open(out_json, "w") as fo:
            json.dump({"rows": rows, "summary": summary}, fo, indent=1)


main()
