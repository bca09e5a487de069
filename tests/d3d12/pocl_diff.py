#!/usr/bin/env python3
"""The D3D12 path against PoCL: each case keeps one rule of SPEC S1 (scratch)
or S3 (launch parameters) while running a kernel through the D3D12 API
(d3d12_run, debug layer on: a kept rule gives no error), and its outputs must
equal PoCL's (pocl_run on the kernel's OpenCL C source) BYTE FOR BYTE. The
tests next to this file break the same rules; tests/e2e holds `xs12 run`
against PoCL the same way.

  pocl_diff.py --d3d12-run PATH --pocl-run PATH --kernels-src DIR
               --code-object KEY FILE [--code-object KEY FILE]...
               [--objdump llvm-objdump-15] [--case NAME]... [--jobs N] [--keep] [--list]

KEY is a code object's name in kernels/meson.build (vadd.O2.w32, ...).
Inputs are deterministic: the setups of tests/e2e/run_e2e.py with its seed.
A kernel whose code object fuses a*b+c runs on PoCL with -cl-mad-enable
(run_e2e.py explains why). Besides the bytes, the figures d3d12_run reads
back (XS12GetDispatchStatistics) must show that the case's setting reached
the GPU: the waves of the group shape, the launch-parameter flags, the
scratch ring's slots.

Prints one "ok"/"FAIL"/"skip" line per case naming its rule. Exit: 0 all
passed, 1 a failure, 77 every case skipped.
"""
import argparse
import random
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from types import SimpleNamespace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import run_e2e  # noqa: E402  (the inputs, the byte comparison, FMA detection)

SKIP = 77
SHAPE, LDS = 0x2, 0x1   # D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETER_FLAGS (xs12's values, S3.2)


def case(name, rule, co, cl, kernel, groups, block, setup, opts=(), flags=0, ring=None, broken=None):
    """ring: None (no scratch), "default" (the driver's, S1.8) or the title's slots.
    broken: a control that breaks this rule: d3d12_run must exit 3 naming it
    (the debug layer is on and watching, so the kept cases mean something)."""
    return dict(name=name, rule=rule, co=co, cl=cl, kernel=kernel, groups=groups, block=block,
                setup=setup, opts=list(opts), flags=flags, ring=ring, broken=broken)


reduce8x256 = run_e2e.make_setup_reduce(8, 256, False)
reduce8x256_dyn = run_e2e.make_setup_reduce(8, 256, True)

CASES = [
    case("vadd", "D3D12 Dispatch in the pipeline's own shape (64x1x1), no launch parameters",
         "vadd.O2.w32", "vadd.cl", "vadd", "16", "64", run_e2e.setup_vadd),
    case("vadd-block128", "S3.4 NUM_THREADS 128x1x1 (S3.5, S3.7: 4 waves, under .max_flat_workgroup_size)",
         "vadd.O2.w32", "vadd.cl", "vadd", "8", "128", run_e2e.setup_vadd, flags=SHAPE),
    case("vadd-block256", "S3.4 NUM_THREADS 256,1,1 (S3.7: = .max_flat_workgroup_size 256)",
         "vadd.O2.w32", "vadd.cl", "vadd", "4", "256,1,1", run_e2e.setup_vadd, flags=SHAPE),
    case("vadd-compute", "S1.8 does not apply: no scratch on an async compute queue",
         "vadd.O2.w32", "vadd.cl", "vadd", "16", "64", run_e2e.setup_vadd, opts=["--queue", "compute"]),
    case("vadd-indirect", "S3.1 launch parameters (NUM_THREADS 128) as an ExecuteIndirect argument",
         "vadd.O2.w32", "vadd.cl", "vadd", "8", "128", run_e2e.setup_vadd, opts=["--indirect"], flags=SHAPE),
    case("private_spill-default", "S1.8 kept: the driver's default ring on the direct queue",
         "private_spill.O2.w32", "private_spill.cl", "private_spill", "8", "64",
         run_e2e.setup_private_spill, ring="default"),
    case("private_spill-scratch8", "S1.12 documented usage, 8 slots of GetInformationX (S1.11) "
         "(S1.2 FLAGS_COMPUTE, S1.3, S1.5, S1.6 kept)", "private_spill.O2.w32", "private_spill.cl",
         "private_spill", "8", "64", run_e2e.setup_private_spill, opts=["--scratch", "8"], ring=8),
    case("private_spill-null", "S1.4 a null Destination after a ring of 8: the driver's ring again",
         "private_spill.O2.w32", "private_spill.cl", "private_spill", "8", "64",
         run_e2e.setup_private_spill, opts=["--scratch", "8", "--scratch-null"], ring="default"),
    case("private_spill-compute", "S1.9 an async compute list's own ring of 64 slots (S1.14: COMPUTE on a "
         "COMPUTE list)", "private_spill.O2.w32", "private_spill.cl", "private_spill", "8", "64",
         run_e2e.setup_private_spill, opts=["--queue", "compute", "--scratch", "64"], ring=64),
    case("lds_reduce-lds1024", "S3.3 LDSSize 2 (S3.7 kept: not below the 1 KB static LDS; reqd 256)",
         "lds_reduce.O2.w32", "lds_reduce.cl", "lds_reduce", "8", "256", reduce8x256,
         opts=["--lds", "1024"], flags=LDS),
    case("lds_reduce_dyn", "S3.3 LDSSize 4 and S3.4 NUM_THREADS 256: the dynamic LDS reaches the "
         "__local argument (S3.7)", "lds_reduce.O2.w32", "lds_reduce.cl", "lds_reduce_dyn", "8", "256",
         reduce8x256_dyn, opts=["--lds", "2048"], flags=SHAPE | LDS),
    case("grid2d-16x16", "S3.4 NUM_THREADS 16,16,1 (S3.7: TIDIG_COMP_CNT gives Y IDs)",
         "grid2d.O2.w32", "grid2d.cl", "grid2d", "5,3", "16,16", run_e2e.setup_grid2d, flags=SHAPE),
    # wave64: S3.5 counts waves of 64; S1.11's per-wave figure doubles
    case("vadd-w64-block128", "S3.4 NUM_THREADS 128 in wave64 (S3.5: 2 waves)",
         "vadd.O2.w64", "vadd.cl", "vadd", "8", "128", run_e2e.setup_vadd, flags=SHAPE),
    case("private_spill-w64-scratch8", "S1.12 8 slots of a wave64 GetInformationX",
         "private_spill.O2.w64", "private_spill.cl", "private_spill", "8", "64",
         run_e2e.setup_private_spill, opts=["--scratch", "8"], ring=8),
    case("lds_reduce_dyn-w64", "S3.3 LDSSize 4 and S3.4 NUM_THREADS 256 in wave64",
         "lds_reduce.O2.w64", "lds_reduce.cl", "lds_reduce_dyn", "8", "256", reduce8x256_dyn,
         opts=["--lds", "2048"], flags=SHAPE | LDS),
    # -O0: other code, more scratch
    case("vadd-O0-block128", "S3.4 NUM_THREADS 128 at -O0 (whose stack is scratch: S1.8 kept on the "
         "direct queue)", "vadd.O0.w32", "vadd.cl", "vadd", "8", "128", run_e2e.setup_vadd, flags=SHAPE,
         ring="default"),
    case("private_spill-O0-scratch8", "S1.12 8 slots at -O0 (a larger per-wave figure)",
         "private_spill.O0.w32", "private_spill.cl", "private_spill", "8", "64",
         run_e2e.setup_private_spill, opts=["--scratch", "8"], ring=8),
    # controls: the same runs with the rule broken are refused
    case("control-S1.8", "control: the driver's ring on a COMPUTE list is refused",
         "private_spill.O2.w32", "private_spill.cl", "private_spill", "8", "64",
         run_e2e.setup_private_spill, opts=["--queue", "compute"], broken="S1.8"),
    case("control-S3.7", "control: NUM_THREADS 512 over .max_flat_workgroup_size is refused",
         "vadd.O2.w32", "vadd.cl", "vadd", "2", "512", run_e2e.setup_vadd, broken="S3.7"),
]


class Fail(Exception):
    pass


def run(cmd, what, timeout=120):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Fail("%s timed out after %d s: %s" % (what, timeout, " ".join(cmd)))
    except OSError as e:
        raise Fail("%s: cannot run %s: %s" % (what, cmd[0], e))


def output(p):
    return (p.stdout.decode(errors="replace") + p.stderr.decode(errors="replace")).rstrip()


def dims(s):
    d = [int(x) for x in s.split(",")] + [1, 1]
    return d[:3]


class Oracle:
    """PoCL's outputs for one (kernel, inputs, shape, build options): run once,
    shared by the cases that differ only on the D3D12 side."""

    def __init__(self, args, c, build_opts, d):
        self.d = d
        rng = random.Random(args.seed)
        specs, outputs, check = c["setup"](rng, d)[:3]
        # an output is a file name, or a corpus_cases.Out with one: compared byte for byte
        outputs = {k: o if isinstance(o, str) else o.file for k, o in outputs.items()}
        self.specs, self.outputs = specs, outputs
        self.error = None
        cmd = [args.pocl_run, os.path.join(args.kernels_src, c["cl"]), "--kernel", c["kernel"],
               "--groups", c["groups"], "--block", c["block"], "--build-opts", build_opts]
        for s in specs:
            cmd += ["--arg", s.format(o=os.path.join(d, "pocl_"))]
        self.cmd = cmd
        p = run(cmd, "pocl_run")
        if p.returncode != 0:
            self.error = "pocl_run exited %d:\n%s" % (p.returncode, output(p))
            return
        self.out = {}
        for key, name in outputs.items():
            with open(os.path.join(d, "pocl_" + name), "rb") as f:
                self.out[key] = f.read()
        msg = check(self.out) if check else None
        if msg:
            self.error = "the oracle itself is wrong: " + msg


def d3d12_cmd(args, c, specs, co, prefix):
    cmd = [args.d3d12_run, co, "--kernel", c["kernel"], "--groups", c["groups"], "--block", c["block"],
           "--debug"] + c["opts"]
    for s in specs:
        # D3D12 has no size for a __local argument: its LDS is LDSSize's (S3.7)
        s = re.sub(r"^local:.*", "local:0", s) if "--lds" in c["opts"] else s
        cmd += ["--arg", s.format(o=prefix)]
    return cmd


def control_case(args, c, d, co):
    """A run that breaks c["broken"]: exit 3 with a message naming the rule."""
    specs = c["setup"](random.Random(args.seed), d)[0]
    cmd = d3d12_cmd(args, c, specs, co, os.path.join(d, "d3d12_"))
    p = run(cmd, "d3d12_run")
    err = p.stderr.decode(errors="replace")
    if p.returncode != 3 or not re.search(r"debug layer ERROR .*: %s" % re.escape(c["broken"]), err):
        raise Fail("d3d12_run exited %d, want 3 with a debug-layer error naming %s:\n    %s\n%s"
                   % (p.returncode, c["broken"], " ".join(cmd), output(p)))
    return "exit 3: " + err.splitlines()[-2].split(": ", 1)[-1][:90]


def d3d12_case(args, c, oracle, co, wave):
    """Runs d3d12_run; returns the summary of what matched, raises Fail."""
    prefix = os.path.join(oracle.d, c["name"] + "_")
    cmd = d3d12_cmd(args, c, oracle.specs, co, prefix)
    p = run(cmd, "d3d12_run")
    if p.returncode != 0:
        raise Fail("d3d12_run exited %d%s:\n    %s\n%s" % (
            p.returncode, " (the debug layer reported an error)" if p.returncode == 3 else "",
            " ".join(cmd), output(p)))
    m = re.search(r"^d3d12_run: (.*)$", p.stdout.decode(errors="replace"), re.M)
    if not m:
        raise Fail("d3d12_run printed no summary line:\n" + output(p))
    st = dict(kv.split("=", 1) for kv in m.group(1).split() if "=" in kv)
    problems = []
    for key, name in oracle.outputs.items():
        path = prefix + name
        if not os.path.exists(path):
            problems.append("%s: d3d12_run wrote no output file %s" % (name, path))
            continue
        with open(path, "rb") as f:
            msg = run_e2e.compare_bytes(oracle.out[key], f.read(), name)
        if msg:
            problems.append(msg.replace("xs12 :", "D3D12:"))
    # the setting reached the GPU
    g, b = dims(c["groups"]), dims(c["block"])
    waves = g[0] * g[1] * g[2] * -(-(b[0] * b[1] * b[2]) // wave)
    if int(st.get("waves_launched", -1)) != waves:
        problems.append("waves_launched %s, want %d (%s groups of %s in wave%d)"
                        % (st.get("waves_launched"), waves, c["groups"], c["block"], wave))
    if int(st.get("launch_flags", "-1"), 16) != c["flags"]:
        problems.append("launch parameter flags %s, want 0x%x" % (st.get("launch_flags"), c["flags"]))
    slots, peak = int(st.get("scratch_slots", -1)), int(st.get("peak_scratch_slots", -1))
    ring = c["ring"]
    if ring is None and (slots or peak):
        problems.append("scratch slots %d (peak %d) for a kernel without scratch" % (slots, peak))
    if ring == "default" and ((st.get("scratch_ring") != "0" and "scratch_null" not in st) or slots <= 0
                              or peak <= 0 or slots == 8):
        problems.append("the driver's ring: scratch_ring=%s, %d slots, peak %d"
                        % (st.get("scratch_ring"), slots, peak))
    if isinstance(ring, int) and (slots != ring or not 0 < peak <= ring):
        problems.append("the title's ring of %d slots: the dispatch had %d (peak %d)" % (ring, slots, peak))
    if problems:
        raise Fail("outputs or figures differ:\n    %s\n%s" % (" ".join(cmd), "\n".join(problems)))
    nbytes = sum(len(v) for v in oracle.out.values())
    ringtxt = "" if ring is None else ", ring %s slots (peak %d)" % (slots, peak)
    return "%d bytes identical, %d waves%s" % (nbytes, waves, ringtxt)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--d3d12-run", required=True)
    ap.add_argument("--pocl-run", required=True)
    ap.add_argument("--kernels-src", required=True, help="the kernels/ folder (.cl sources)")
    ap.add_argument("--code-object", nargs=2, action="append", default=[], metavar=("KEY", "FILE"))
    ap.add_argument("--objdump", default="llvm-objdump-15")
    ap.add_argument("--case", action="append", help="run only these cases")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    cos = dict(args.code_object)
    cases = CASES
    if args.list:
        for c in cases:
            print("%-28s %s" % (c["name"], c["rule"]))
        return 0
    if args.case:
        unknown = set(args.case) - {c["name"] for c in CASES}
        if unknown:
            ap.error("unknown case(s): %s" % ", ".join(sorted(unknown)))
        cases = [c for c in CASES if c["name"] in args.case]
    t0 = time.time()
    work = tempfile.mkdtemp(prefix="xs12-pocl-diff-")
    results = {}   # name -> ("ok" | "FAIL" | "skip", text)
    # PoCL's build options per code object (contracted FMA or not)
    fma = run_e2e.host_has_fma()
    opts = {}
    for c in cases:
        co = cos.get(c["co"])
        if not co:
            results[c["name"]] = ("FAIL", "no --code-object %s" % c["co"])
            continue
        try:
            fused = run_e2e.has_fused_f32(SimpleNamespace(objdump=args.objdump), co)
        except run_e2e.Fail as e:
            results[c["name"]] = ("FAIL", str(e))
            continue
        if fused and not fma:
            results[c["name"]] = ("skip", "%s fuses a*b+c, this CPU has no FMA: PoCL cannot give its bits"
                                  % c["co"])
            continue
        opts[c["name"]] = "-cl-mad-enable" if fused else ""

    def okey(c):
        return (c["cl"], c["kernel"], c["groups"], c["block"], c["setup"], opts[c["name"]])

    todo = [c for c in cases if c["name"] not in results and not c["broken"]]
    controls = [c for c in cases if c["name"] not in results and c["broken"]]
    keys = []
    for c in todo:
        if okey(c) not in keys:
            keys.append(okey(c))
    oracles = {}
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        def make(i, key):
            c = next(c for c in todo if okey(c) == key)
            d = os.path.join(work, "inputs%d" % i)
            os.mkdir(d)
            try:
                return Oracle(args, c, key[-1], d)
            except Fail as e:
                o = SimpleNamespace(error=str(e))
                return o
        futs = {key: pool.submit(make, i, key) for i, key in enumerate(keys)}
        for key, f in futs.items():
            oracles[key] = f.result()

        def one(c):
            o = oracles[okey(c)]
            if o.error:
                return ("FAIL", o.error)
            wave = 64 if c["co"].endswith(".w64") else 32
            try:
                return ("ok", d3d12_case(args, c, o, cos[c["co"]], wave))
            except Fail as e:
                return ("FAIL", str(e))
        def control(i, c):
            d = os.path.join(work, "control%d" % i)
            os.mkdir(d)
            try:
                return ("ok", control_case(args, c, d, cos[c["co"]]))
            except Fail as e:
                return ("FAIL", str(e))
        futs = [(c, pool.submit(one, c)) for c in todo]
        futs += [(c, pool.submit(control, i, c)) for i, c in enumerate(controls)]
        for c, f in futs:
            results[c["name"]] = f.result()
    nfail = nskip = 0
    for c in cases:
        status, text = results[c["name"]]
        nfail += status == "FAIL"
        nskip += status == "skip"
        print("%-4s %-27s %s [%s]: %s" % (status, c["name"], c["rule"], c["co"],
                                          text if status != "FAIL" else ""))
        if status == "FAIL":
            print("     " + text.replace("\n", "\n     "))
    print("%d cases: %d ok, %d failed, %d skipped, %.1f s" % (
        len(cases), len(cases) - nfail - nskip, nfail, nskip, time.time() - t0))
    if nfail or args.keep:
        print("work directory kept: %s" % work)
    else:
        shutil.rmtree(work, ignore_errors=True)
    if nfail:
        return 1
    return SKIP if cases and nskip == len(cases) else 0


if __name__ == "__main__":
    sys.exit(main())
