#!/usr/bin/env python3
"""End-to-end test: one kernel on PoCL (the oracle, OpenCL C source) and on
xs12 (`xs12 run`, the compiled gfx1030 code object); the output files must
match BYTE FOR BYTE.

  run_e2e.py --case NAME --xs12 PATH --pocl-run PATH --code-object FILE
             --cl FILE.cl [--readelf llvm-readelf-15] [--objdump llvm-objdump-15]
             [--bundler clang-offload-bundler] [--machine seriesx|seriess] [--json]

Inputs are deterministic (random.Random(seed), raw little-endian arrays).
With --json, `xs12 run ... --json` must print one JSON object whose keys
waves_launched, wave_instructions, cycles, peak_waves_in_flight,
peak_scratch_slots and host_seconds are checked.

Floating point. Every float kernel here is add / mul / fma in source order, so
results can match exactly, provided both sides contract `a * b + c` the same
way. OpenCL C allows contraction by default (FP_CONTRACT ON): clang-15 for
gfx1030 emits v_fmac_f32 for saxpy and grid2d at -O0 and -O2 (hipcc too), and
PoCL lowers the same llvm.fmuladd to a fused x86 FMA (measured on this
machine: with and without -cl-mad-enable, PoCL's saxpy equals a fused
reference on all 1000 elements and differs from an unfused one on ~1/3). The
test reads the code object's disassembly: if it holds a fused f32
multiply-add it passes PoCL -cl-mad-enable (which permits fusing, documenting
the intent), otherwise no flag; on a host CPU without FMA, PoCL cannot fuse
and such cases are skipped (exit 77).

The kernel corpus (kernels/corpus, cases 'corpus/<kernel>') is described
in corpus_cases.py: there an output may be compared by value with a stated
ulp bound instead of byte for byte, and a case may set pocl_opts (the PoCL
build options, skipping the fused-multiply-add detection above: the corpus
sources fuse only through fma()).

Exit: 0 pass, 1 fail, 77 skip.
"""
import argparse
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_cases import CORPUS_CASES  # noqa: E402

SKIP = 77
BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
HIP_TARGET = "hipv4-amdgcn-amd-amdhsa--gfx1030"


class Fail(Exception):
    pass


def f32(v):
    """v rounded to binary32 (round to nearest even; overflow gives inf)."""
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:   # struct refuses exactly when the rounded value is inf
        return math.copysign(math.inf, v)


def pack(fmt, values):
    return struct.pack("<%d%s" % (len(values), fmt), *values)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


# ---- cases ------------------------------------------------------------------
# Each case: kernel name, groups, block, and setup(rng, d) which writes the
# inputs into directory d and returns (arg specs, output file names, check),
# where every spec may use {o} = per-tool output prefix, and check(outputs)
# (optional) verifies the ORACLE against a Python reference.

def f32_specials():
    # IEEE cases with one right answer on every implementation (no NaN:
    # x86 and AMD produce different default-NaN bit patterns).
    big = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]   # FLT_MAX
    den = struct.unpack("<f", b"\x01\x00\x00\x00")[0]   # smallest denormal
    a = [-0.0, -0.0, den, 3 * den, math.inf, big, -big, 1.0]
    b = [-0.0, 0.0, den, -den, 1.0, big, big, f32(2.0 ** -24)]
    return a, b


def setup_vadd(rng, d):
    n = 1000
    a = [f32(rng.uniform(-100.0, 100.0)) for _ in range(n)]
    b = [f32(rng.uniform(-100.0, 100.0)) for _ in range(n)]
    sa, sb = f32_specials()
    a[:len(sa)] = sa
    b[:len(sb)] = sb
    write(os.path.join(d, "a.bin"), pack("f", a))
    write(os.path.join(d, "b.bin"), pack("f", b))

    def check(out):
        c = struct.unpack("<%df" % n, out["c"])
        want = [f32(x + y) for x, y in zip(a, b)]
        return compare_values(c, want, "PoCL vadd vs a+b in Python")

    specs = ["in:" + os.path.join(d, "a.bin"), "in:" + os.path.join(d, "b.bin"),
             "out:{o}c.bin:%d" % (4 * n), "u32:%d" % n]
    return specs, {"c": "c.bin"}, check


def setup_saxpy(rng, d):
    n = 1000
    x = [f32(rng.uniform(-10.0, 10.0)) for _ in range(n)]
    y = [f32(rng.uniform(-10.0, 10.0)) for _ in range(n)]
    write(os.path.join(d, "x.bin"), pack("f", x))
    write(os.path.join(d, "y.bin"), pack("f", y))
    specs = ["f32:1.7", "in:" + os.path.join(d, "x.bin"),
             "inout:%s:{o}y.bin" % os.path.join(d, "y.bin"), "u32:%d" % n]
    return specs, {"y": "y.bin"}, None


def setup_private_spill(rng, d):
    n, threads = 100, 8 * 64
    v = [rng.getrandbits(32) for _ in range(n)]
    write(os.path.join(d, "in.bin"), pack("I", v))

    def ref(i):
        m = 0xFFFFFFFF
        hist = [(k * 3 + i) & m for k in range(64)]
        x = v[i % n]
        for k in range(32):
            idx = (x >> (k % 26)) & 63
            hist[idx] = (hist[idx] + (x ^ k)) & m
            x = (x * 1664525 + 1013904223) & m
        acc = 0
        for k in range(64):
            acc = (acc * 31 + hist[(k * 7) & 63]) & m
        return acc

    def check(out):
        got = struct.unpack("<%dI" % threads, out["out"])
        return compare_values(got, [ref(i) for i in range(threads)], "PoCL private_spill vs Python")

    specs = ["in:" + os.path.join(d, "in.bin"), "out:{o}out.bin:%d" % (4 * threads), "u32:%d" % n]
    return specs, {"out": "out.bin"}, check


def make_setup_reduce(groups, block, dynamic):
    def setup(rng, d):
        v = [rng.getrandbits(32) for _ in range(groups * block)]
        write(os.path.join(d, "in.bin"), pack("I", v))

        def check(out):
            got = struct.unpack("<%dI" % groups, out["out"])
            want = [sum(v[g * block:(g + 1) * block]) & 0xFFFFFFFF for g in range(groups)]
            return compare_values(got, want, "PoCL reduction vs Python")

        specs = ["in:" + os.path.join(d, "in.bin"), "out:{o}out.bin:%d" % (4 * groups)]
        if dynamic:
            specs.append("local:%d" % (4 * block))
        return specs, {"out": "out.bin"}, check
    return setup


def setup_grid2d(rng, d):
    w, h = 70, 37
    v = [f32(rng.uniform(-1.0, 1.0)) for _ in range(w * h)]
    write(os.path.join(d, "in.bin"), pack("f", v))
    specs = ["in:" + os.path.join(d, "in.bin"), "out:{o}out.bin:%d" % (4 * w * h),
             "u32:%d" % w, "u32:%d" % h]
    return specs, {"out": "out.bin"}, None


CASES = {
    "vadd": dict(kernel="vadd", groups="16", block="64", setup=setup_vadd, waves=(16, 64)),
    "saxpy": dict(kernel="saxpy", groups="16", block="64", setup=setup_saxpy, waves=(16, 64)),
    "private_spill": dict(kernel="private_spill", groups="8", block="64",
                          setup=setup_private_spill, waves=(8, 64), scratch=True),
    "lds_reduce": dict(kernel="lds_reduce", groups="8", block="256",
                       setup=make_setup_reduce(8, 256, False), waves=(8, 256)),
    "lds_reduce_dyn": dict(kernel="lds_reduce_dyn", groups="8", block="128",
                           setup=make_setup_reduce(8, 128, True), waves=(8, 128)),
    "grid2d": dict(kernel="grid2d", groups="5,5", block="16,8", setup=setup_grid2d,
                   waves=(25, 128)),
}
CASES.update(CORPUS_CASES)


# ---- comparison -------------------------------------------------------------

def as_f32(u):
    return struct.unpack("<f", struct.pack("<I", u))[0]


def compare_values(got, want, what):
    """Lists of numbers (uint or float); floats compare by bits."""
    def bits(x):
        return struct.unpack("<I", struct.pack("<f", x))[0] if isinstance(x, float) else x
    diffs = [i for i, (g, w) in enumerate(zip(got, want)) if bits(g) != bits(w)]
    if not diffs and len(got) == len(want):
        return None
    i = diffs[0] if diffs else min(len(got), len(want))
    return "%s: %d of %d elements differ; first at [%d]: got %r, want %r" % (
        what, len(diffs), len(want), i, got[i] if i < len(got) else None,
        want[i] if i < len(want) else None)


def compare_bytes(pocl, xs, name):
    """None if equal, else a report naming the first differing u32/f32 element."""
    if pocl == xs:
        return None
    lines = []
    if len(pocl) != len(xs):
        lines.append("%s: size differs: PoCL %d bytes, xs12 %d bytes" % (name, len(pocl), len(xs)))
    n = min(len(pocl), len(xs)) // 4
    pu = struct.unpack("<%dI" % n, pocl[:4 * n])
    xu = struct.unpack("<%dI" % n, xs[:4 * n])
    diffs = [i for i in range(n) if pu[i] != xu[i]]
    tail_differs = pocl[4 * n:] != xs[4 * n:]
    if diffs:
        i = diffs[0]
        lines.append("%s: %d of %d 32-bit elements differ; first at index %d (byte %d):"
                     % (name, len(diffs), n, i, 4 * i))
        lines.append("    PoCL : u32 0x%08x = %u, f32 %r" % (pu[i], pu[i], as_f32(pu[i])))
        lines.append("    xs12 : u32 0x%08x = %u, f32 %r" % (xu[i], xu[i], as_f32(xu[i])))
        for j in diffs[1:6]:
            lines.append("    also [%d]: PoCL 0x%08x (%r) xs12 0x%08x (%r)"
                         % (j, pu[j], as_f32(pu[j]), xu[j], as_f32(xu[j])))
    elif tail_differs:
        lines.append("%s: the trailing %d bytes differ" % (name, len(pocl) - 4 * n))
    return "\n".join(lines)


# ---- code object inspection ------------------------------------------------

def run(cmd, what, timeout=100, cwd=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           cwd=cwd)
    except subprocess.TimeoutExpired:
        raise Fail("%s timed out after %d s: %s" % (what, timeout, " ".join(cmd)))
    except OSError as e:
        raise Fail("%s: cannot run %s: %s" % (what, cmd[0], e))
    return p


def elf_of(code_object, args, d):
    """The ELF of a code object; HIP offload bundles are unbundled first."""
    with open(code_object, "rb") as f:
        magic = f.read(len(BUNDLE_MAGIC))
    if magic != BUNDLE_MAGIC:
        return code_object
    out = os.path.join(d, "unbundled.hsaco")
    p = run([args.bundler, "--unbundle", "--type=o", "--input=" + code_object,
             "--targets=" + HIP_TARGET, "--output=" + out], "clang-offload-bundler")
    if p.returncode != 0:
        raise Fail("cannot unbundle %s: %s" % (code_object, p.stderr.decode(errors="replace")))
    return out


def kernel_notes(args, elf, kernel):
    """Kernel-level keys of the kernel's NT_AMDGPU_METADATA entry (as strings)."""
    p = run([args.readelf, "--notes", elf], "llvm-readelf --notes")
    if p.returncode != 0:
        raise Fail("llvm-readelf --notes %s failed: %s" % (elf, p.stderr.decode(errors="replace")))
    kernels, cur, in_kernels = [], None, False
    for line in p.stdout.decode(errors="replace").splitlines():
        if re.match(r"^[A-Za-z]", line):   # a top-level YAML key
            in_kernels = line.startswith("amdhsa.kernels:")
        if not in_kernels:
            continue
        if line.startswith("  - "):
            cur = {}
            kernels.append(cur)
            line = "    " + line[4:]
        elif not line.startswith("    "):
            cur = None
        if cur is not None:
            m = re.match(r"^    \.([a-z_]+):\s*(.*)$", line)
            if m:
                cur[m.group(1)] = m.group(2).strip()
    for k in kernels:
        if k.get("name") == kernel:
            return k
    raise Fail("kernel %s not in the metadata of %s (found: %s)"
               % (kernel, elf, ", ".join(k.get("name", "?") for k in kernels)))


def has_fused_f32(args, elf):
    p = run([args.objdump, "-d", "--mcpu=gfx1030", elf], "llvm-objdump -d")
    if p.returncode != 0:
        raise Fail("llvm-objdump -d %s failed: %s" % (elf, p.stderr.decode(errors="replace")))
    return re.search(r"\bv_(fmac|fma|fmamk|fmaak|mac|mad|madmk|madak)_f32",
                     p.stdout.decode(errors="replace")) is not None


def host_has_fma():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return " fma " in line + " "
    except OSError:
        pass
    return True   # not Linux/x86: let the comparison decide


# ---- main --------------------------------------------------------------------

def check_json(stdout, case, wave_size, scratch):
    text = stdout.decode(errors="replace")
    try:
        j = json.loads(text)
    except ValueError as e:
        raise Fail("xs12 run --json: stdout is not one JSON document (%s):\n%s" % (e, text[:2000]))
    if not isinstance(j, dict):
        raise Fail("xs12 run --json: expected a JSON object, got %s" % type(j).__name__)
    keys = ["waves_launched", "wave_instructions", "cycles", "peak_waves_in_flight",
            "peak_scratch_slots", "host_seconds"]
    missing = [k for k in keys if k not in j]
    if missing:
        raise Fail("xs12 run --json: missing keys %s (has: %s)" % (missing, sorted(j)))
    for k in keys:
        if not isinstance(j[k], (int, float)) or isinstance(j[k], bool):
            raise Fail("xs12 run --json: %s is not a number: %r" % (k, j[k]))
    groups, block = case["waves"]
    want = groups * -(-block // wave_size)
    problems = []
    if j["waves_launched"] != want:
        problems.append("waves_launched %r, want %d (%d groups x ceil(%d / wave%d))"
                        % (j["waves_launched"], want, groups, block, wave_size))
    if not j["wave_instructions"] > 0:
        problems.append("wave_instructions %r, want > 0" % j["wave_instructions"])
    if not j["cycles"] > 0:
        problems.append("cycles %r, want > 0" % j["cycles"])
    if not 1 <= j["peak_waves_in_flight"] <= j["waves_launched"]:
        problems.append("peak_waves_in_flight %r, want 1 .. waves_launched"
                        % j["peak_waves_in_flight"])
    if scratch and not j["peak_scratch_slots"] > 0:
        problems.append("peak_scratch_slots %r, want > 0 (the kernel uses scratch)"
                        % j["peak_scratch_slots"])
    if not scratch and j["peak_scratch_slots"] != 0:
        problems.append("peak_scratch_slots %r, want 0 (the kernel has no scratch)"
                        % j["peak_scratch_slots"])
    if not j["host_seconds"] >= 0:
        problems.append("host_seconds %r, want >= 0" % j["host_seconds"])
    if problems:
        raise Fail("xs12 run --json:\n    " + "\n    ".join(problems))
    print("json: waves_launched %d, wave_instructions %d, cycles %s, peak_waves_in_flight %s, "
          "peak_scratch_slots %s, host_seconds %s"
          % (j["waves_launched"], j["wave_instructions"], j["cycles"], j["peak_waves_in_flight"],
             j["peak_scratch_slots"], j["host_seconds"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", required=True, choices=sorted(CASES))
    ap.add_argument("--xs12", required=True)
    ap.add_argument("--pocl-run", required=True)
    ap.add_argument("--code-object", required=True)
    ap.add_argument("--cl", required=True, help="OpenCL C source run on PoCL")
    ap.add_argument("--readelf", default="llvm-readelf-15")
    ap.add_argument("--objdump", default="llvm-objdump-15")
    ap.add_argument("--bundler", default="/usr/lib/llvm-15/bin/clang-offload-bundler")
    ap.add_argument("--machine", choices=["seriesx", "seriess"])
    ap.add_argument("--json", action="store_true", help="also check `xs12 run --json`")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    args = ap.parse_args()
    case = CASES[args.case]

    d = tempfile.mkdtemp(prefix="xs12-e2e-%s-" % args.case.replace("/", "-"))
    ok = False
    try:
        rc = run_case(args, case, d)
        ok = rc == 0
        return rc
    except Fail as e:
        print("FAIL: %s" % e)
        return 1
    finally:
        if ok and not args.keep:
            shutil.rmtree(d, ignore_errors=True)
        else:
            print("work directory kept: %s" % d)


def run_case(args, case, d):
    kernel = case["kernel"]
    elf = elf_of(args.code_object, args, d)
    notes = kernel_notes(args, elf, kernel)
    wave_size = int(notes.get("wavefront_size", "0"))
    if wave_size not in (32, 64):
        raise Fail("bad .wavefront_size %r in %s" % (notes.get("wavefront_size"), elf))
    scratch = int(notes.get("private_segment_fixed_size", "0"))
    if case.get("scratch"):
        # The point of this case: the kernel really runs out of scratch.
        if scratch <= 0:
            raise Fail("%s: .private_segment_fixed_size is %d; the case needs a kernel that "
                       "uses scratch" % (elf, scratch))
        print("scratch: .private_segment_fixed_size %d bytes per lane" % scratch)
    fused = has_fused_f32(args, elf) if "pocl_opts" not in case else False
    build_opts = "-cl-mad-enable" if fused else case.get("pocl_opts", "")
    if fused and not host_has_fma():
        print("SKIP: the code object fuses a*b+c (v_fmac/v_fma_f32) but this CPU has no FMA, "
              "so PoCL cannot produce the same bits")
        return SKIP

    rng = random.Random(args.seed)
    setup = case["setup"](rng, d)
    specs, outputs, check = setup[:3]
    joint = setup[3] if len(setup) > 3 else None
    # an output is a file name (compared byte for byte) or an object with
    # .file, .compare(pocl, xs) and .oracle(pocl) (corpus_cases.Out)
    fname = {k: (o if isinstance(o, str) else o.file) for k, o in outputs.items()}
    pocl_specs = [s.format(o=os.path.join(d, "pocl_")) for s in specs]
    xs_specs = [s.format(o=os.path.join(d, "xs12_")) for s in specs]
    common = ["--kernel", kernel, "--groups", case["groups"], "--block", case["block"]]

    cmd = [args.pocl_run, args.cl] + common
    for s in pocl_specs:
        cmd += ["--arg", s]
    cmd += ["--build-opts", build_opts]
    print("oracle: " + " ".join(cmd))
    p = run(cmd, "pocl_run")
    if p.returncode != 0:
        raise Fail("pocl_run exited %d:\n%s%s" % (p.returncode, p.stdout.decode(errors="replace"),
                                                   p.stderr.decode(errors="replace")))
    pocl_out = {}
    for key, name in fname.items():
        with open(os.path.join(d, "pocl_" + name), "rb") as f:
            pocl_out[key] = f.read()
    if check:
        msg = check(pocl_out)
        if msg:
            raise Fail("the oracle itself is wrong: " + msg)
    for key, o in outputs.items():
        msg = None if isinstance(o, str) else o.oracle(pocl_out[key])
        if msg:
            raise Fail("the oracle itself is out of bounds: " + msg)

    cmd = [args.xs12, "run", args.code_object] + common
    for s in xs_specs:
        cmd += ["--arg", s]
    if args.machine:
        cmd += ["--machine", args.machine]
    if args.json:
        cmd.append("--json")
    print("xs12:   " + " ".join(cmd))
    p = run(cmd, "xs12 run")
    if p.returncode != 0:
        raise Fail("xs12 run exited %d:\n%s%s" % (p.returncode, p.stdout.decode(errors="replace"),
                                                   p.stderr.decode(errors="replace")))
    if p.stderr:
        sys.stdout.write(p.stderr.decode(errors="replace"))
    if args.json:
        check_json(p.stdout, case, wave_size, scratch > 0)

    problems = []
    xs_out = {}
    for key, name in fname.items():
        path = os.path.join(d, "xs12_" + name)
        if not os.path.exists(path):
            problems.append("%s: xs12 run wrote no output file %s" % (name, path))
            continue
        with open(path, "rb") as f:
            xs = f.read()
        xs_out[key] = xs
        o = outputs[key]
        if isinstance(o, str):
            msg = compare_bytes(pocl_out[key], xs, name)
        elif o.mode == "joint":
            continue
        else:
            msg = o.compare(pocl_out[key], xs)
        if msg:
            problems.append(msg)
        elif isinstance(o, str) or o.mode == "bits":
            print("%s: %d bytes identical" % (name, len(xs)))
        else:
            print("%s: %d bytes match (%s)" % (name, len(xs), o.mode))
    if joint and len(xs_out) == len(fname):
        msg = joint(pocl_out, xs_out)
        if msg:
            problems.append(msg)
        else:
            print("joint invariants of %s match" % ", ".join(sorted(fname)))
    if problems:
        raise Fail("outputs differ from PoCL:\n" + "\n".join(problems))
    print("PASS %s (wave%d%s)" % (args.case, wave_size, ", contracted fma" if fused else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
