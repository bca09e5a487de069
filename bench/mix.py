"""The benchmark's kernel mix, shared by bench/xs12_bench.py and bench/ab.py.

  import sys; sys.path.insert(0, BENCH_DIR); from mix import MIX, CHECKED, SGEMM_TOL, make_inputs

MIX is one row per kernel: (name, code object in BUILD/kernels, OpenCL source for PoCL, kernel,
groups, block, `xs12 run --arg` specs). The specs read the input files make_inputs(tmpdir) writes
into the directory the kernel runs in, and write their output to o.bin there.
"""
import json, os, random, struct, subprocess, tempfile


def take_cpu_arg(argv):
    """--cpu N taken out of argv: N, or None without it; ValueError when N is not one of this
    process's CPUs. (Taken first, so that the rest of the command line parses without it.)"""
    if "--cpu" not in argv:
        return None
    cpus = sorted(os.sched_getaffinity(0))
    i = argv.index("--cpu")
    v = argv[i + 1] if i + 1 < len(argv) else ""
    del argv[i:i + 2]
    if not v.isdigit() or int(v) not in cpus:
        raise ValueError(f"--cpu {v or '(none)'}: not one of this process's CPUs {cpus}")
    return int(v)


def one_cpu(cpu, xs12):
    """The host CPU the one-core runs are pinned to, and how it was chosen (a line to print): cpu
    (take_cpu_arg's) when given, else the one of this process's CPUs on which a probe ran
    fastest: scratch_chase's timing run (its 256 groups), best of two on each, with the xs12
    binary given; RuntimeError for a probe that fails. Two CPUs of a shared host can differ
    widely, and which is faster changes with the neighbours: on the VM these figures came from
    that run took 0.19-0.20 s on CPU 0 and 0.31-0.33 s on CPU 1 at 10:00 UTC, and 0.27-0.29 s on
    CPU 0 and 0.18-0.19 s on CPU 1 at 10:37 (taskset -c, 2026-12-07), each process keeping its
    CPU's speed. Unpinned, a best of three could be three slow runs."""
    if cpu is not None:
        return cpu, f"host CPU {cpu} (--cpu)"
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) == 1:
        return cpus[0], f"host CPU {cpus[0]} (the only one)"
    name, co, src, kern, groups, block, args = next(r for r in MIX if r[3] == "scratch_chase")
    kdir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(xs12))), "kernels")
    took = {}
    with tempfile.TemporaryDirectory(prefix="xs12_cpu_") as tmp:
        write_in64k(tmp)
        cmd = run_cmd(xs12, os.path.join(kdir, co), groups, block, args, "timing")
        for _ in range(2):
            for c in cpus:
                p = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, preexec_fn=pinned(c))
                if p.returncode:
                    raise RuntimeError(f"the CPU probe ({' '.join(cmd)}) failed: {p.stderr.strip()[-300:]}")
                t = json.loads(p.stdout)["host_seconds"]
                took[c] = min(took.get(c, t), t)
    best = min(cpus, key=lambda c: took[c])
    return best, (f"host CPU {best}, the fastest on a probe (scratch_chase timing: " +
                  ", ".join(f"CPU {c} {took[c]:.3f} s" for c in cpus) + "; --cpu N to choose)")


def run_cmd(xs12, code_object, groups, block, args, mode, threads=1, repeat=None, timing_threads=None):
    """The `xs12 run` command line both bench scripts and the CPU probe run: code_object's kernel
    over groups x block work-items with the `--arg` specs args, mode "functional" or "timing", JSON
    out, the benchmark's 1,664 scratch waves, on threads host threads; --repeat and
    --timing-threads only when given (xs12's defaults otherwise)."""
    cmd = [xs12, "run", code_object, "--groups", str(groups), "--block", str(block), "--" + mode, "--json",
           "--scratch-waves", "1664", "--threads", str(threads)]
    if repeat is not None:
        cmd += ["--repeat", str(repeat)]
    if timing_threads is not None:
        cmd += ["--timing-threads", str(timing_threads)]
    for a in args:
        cmd += ["--arg", a]
    return cmd


def pinned(cpu):
    """A subprocess preexec_fn that runs the child on host CPU cpu alone."""
    return lambda: os.sched_setaffinity(0, {cpu})

# name, code object, OpenCL source, kernel, groups, block, args (files made by make_inputs)
MIX = [
    ("compute: fma_peak", "fma_peak.O2.w32.hsaco", "kernels/model/fma_peak.cl", "fma_peak", 416, 256,
     ["out:o.bin:425984", "f32:0.999", "f32:0.001"]),
    ("memory: stream_copy", "stream_copy.O2.w32.hsaco", "kernels/model/stream_copy.cl", "stream_copy", 8192, 256,
     ["in:in32m.bin", "out:o.bin:32M"]),
    ("scratch: private_spill -O0", "private_spill.O0.w32.hsaco", "kernels/private_spill.cl", "private_spill", 64,
     256, ["in:in64k.bin", "out:o.bin:64K", "u32:16384"]),
    ("scratch: scratch_chase", "scratch_chase.O2.w32.hsaco", "kernels/model/scratch_chase.cl", "scratch_chase", 256,
     256, ["in:in64k.bin", "out:o.bin:256K", "u32:64"]),
    ("stream: vadd", "vadd.O2.w32.hsaco", "kernels/vadd.cl", "vadd", 4096, 256,
     ["in:in32m.bin", "in:in32m.bin", "out:o.bin:4M", "u32:1048576"]),
    ("lds: sgemm_tiled 256", "sgemm_tiled.O2.w32.hsaco", "kernels/model/sgemm_tiled.cl", "sgemm_tiled", 256, 256,
     ["in:a256.bin", "in:b256.bin", "out:o.bin:256K", "u32:256"]),
]
# Kernels whose output (o.bin) is checked against PoCL's: bytes equal, or every float within
# SGEMM_TOL of PoCL's (relative, with that as the absolute floor), as the e2e tests compare floats.
CHECKED = {"lds: sgemm_tiled 256"}
SGEMM_TOL = 1e-5

# The files make_inputs writes (the names MIX's "in:" specs read).
INPUTS = ("in32m.bin", "in64k.bin", "a256.bin", "b256.bin")


def write_in64k(tmpdir):
    """in64k.bin: 16384 u32 of a fixed hash (scratch_chase's and private_spill's input)."""
    with open(os.path.join(tmpdir, "in64k.bin"), "wb") as f:
        f.write(struct.pack("<16384I", *[(i * 2654435761) & 0xffffffff for i in range(16384)]))


def make_inputs(tmpdir):
    """Writes the mix's input files into tmpdir: in32m.bin (32 MiB of os.urandom, new every call),
    in64k.bin (16384 u32 of a fixed hash) and a256.bin, b256.bin (sgemm's 256x256 matrices, floats
    in [-1, 1] from random.Random(13): the same every call)."""
    with open(os.path.join(tmpdir, "in32m.bin"), "wb") as f:
        f.write(os.urandom(32 << 20))
    write_in64k(tmpdir)
    rng = random.Random(13)  # sgemm's matrices: floats in [-1, 1], the same every run
    for mat in ("a256.bin", "b256.bin"):
        with open(os.path.join(tmpdir, mat), "wb") as f:
            f.write(struct.pack("<65536f", *[rng.uniform(-1.0, 1.0) for _ in range(65536)]))
