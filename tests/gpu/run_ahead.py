#!/usr/bin/env python3
"""The two run-aheads change nothing but where racing waves' reads fall.

functional (src/gpu/xs_gpu_sched.c, group_ahead): a group runs whole at its
first pick and the scheduler takes its recorded quanta. Each case runs once
with it and once without (XS12_RUN_AHEAD=0), on one host thread.

timing (src/gpu/xs_gpu_rap.c): with --timing-threads 2 a second host thread
makes the waves' next entries while the model issues theirs. Each case runs
with one timing thread and with two.

The JSON results (cycles, wave instructions, waits, occupancy, counters,
per-CU busy cycles; all but host time), the output bytes, the trace, and a
removed device's report must be the same; only what racing waves read may
differ (an atomic's returned value: here only its sum and maximum are kept).
A hang's report lists the waves' PCs, which with two timing threads stand
further ahead: there it must be the same in two runs of two threads.
  usage: run_ahead.py XS12 KERNEL_DIR [functional|timing]"""
import json, os, random, struct, subprocess, sys, tempfile

XS12, KDIR = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
MODE = sys.argv[3] if len(sys.argv) > 3 else "functional"
WHAT = {"functional": ("run-ahead", "without run-ahead"), "timing": ("two timing threads", "one")}[MODE]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(tmp, ahead, co, *args):
    """ahead: with the mode's run-ahead (functional) or two timing threads (timing)."""
    env = dict(os.environ)
    if MODE == "functional":
        if not ahead:
            env["XS12_RUN_AHEAD"] = "0"
        mode = ["--functional", "--threads", "1"]
    else:
        mode = ["--timing", "--timing-threads", "2" if ahead else "1"]
    cmd = [XS12, "run", os.path.join(KDIR, co), *mode, "--json", *args]
    return subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, env=env)


def how(ahead):
    return WHAT[0] if ahead else WHAT[1]


def results(p):
    """The run's JSON without its host times."""
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k != "host_seconds"}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return strip(json.loads(p.stdout))


def same_run(tmp, name, co, args, outs, compare_outs=None):
    """Both ways: equal JSON and equal bytes of the files in compare_outs (default: all outs)."""
    got = []
    for ahead in (True, False):
        p = run(tmp, ahead, co, *args)
        check(p.returncode == 0, f"{name}: runs with {how(ahead)} ({p.stderr.strip()[-200:]})")
        if p.returncode:
            return
        got.append((results(p), {o: open(os.path.join(tmp, o), "rb").read() for o in outs}))
    (ra, fa), (rb, fb) = got
    diff = sorted(k for k in ra if ra.get(k) != rb.get(k)) if isinstance(ra, dict) else ["(the results)"]
    check(ra == rb, f"{name}: the same results either way (cycles {ra.get('cycles') if isinstance(ra, dict) else '?'})"
                    + (f"; these differ: {', '.join(diff)}" if diff else ""))
    for o in compare_outs if compare_outs is not None else outs:
        check(fa[o] == fb[o], f"{name}: {o} has the same bytes either way")


def same_removal(tmp, name, co, args, lists_pcs=False):
    """Both ways the device is removed with the same report (lists_pcs, in timing mode: a report
    of the waves' PCs, the same in two runs with two threads)."""
    got = []
    for ahead in (True, False, True):
        p = run(tmp, ahead, co, *args)
        got.append((p.returncode, p.stderr.strip()))
    check(got[0][0] != 0 and "device removed" in got[0][1], f"{name}: the device is removed: {got[0][1][:160]}")
    check(got[1][0] != 0 and "device removed" in got[1][1], f"{name}: removed with {how(False)} too")
    b = 2 if lists_pcs and MODE == "timing" else 1
    check(got[0] == got[b], f"{name}: the same report " + ("in two runs" if b == 2 else "either way") +
          ("" if got[0] == got[b] else f": {got[0][1][:300]!r} vs {got[b][1][:300]!r}"))


with tempfile.TemporaryDirectory() as tmp:
    rng = random.Random(5)
    for mat in ("a.bin", "b.bin"):
        with open(os.path.join(tmp, mat), "wb") as f:
            f.write(struct.pack("<65536f", *[rng.uniform(-1.0, 1.0) for _ in range(65536)]))
    with open(os.path.join(tmp, "in.bin"), "wb") as f:
        f.write(struct.pack("<16384I", *[(i * 2654435761) & 0xffffffff for i in range(16384)]))
    with open(os.path.join(tmp, "zero.bin"), "wb") as f:
        f.write(bytes(64))

    # barriers and LDS, every wave of a group through 16 tiles (32 barriers)
    same_run(tmp, "sgemm_tiled 256", "sgemm_tiled.O2.w32.hsaco",
             ["--groups", "256", "--block", "256", "--arg", "in:a.bin", "--arg", "in:b.bin",
              "--arg", "out:c.bin:256K", "--arg", "u32:256"], ["c.bin"])
    # wave64 (two clocks an instruction), a tree of barriers
    same_run(tmp, "lds_reduce wave64", "lds_reduce.O2.w64.hsaco",
             ["--kernel", "lds_reduce", "--groups", "64", "--block", "256", "--arg", "in:in.bin",
              "--arg", "out:r.bin:256"], ["r.bin"])
    # scratch, several quanta a wave, more groups than fit at once
    same_run(tmp, "scratch_chase", "scratch_chase.O2.w32.hsaco",
             ["--groups", "256", "--block", "256", "--arg", "in:in.bin", "--arg", "out:o.bin:256K",
              "--arg", "u32:64", "--scratch-waves", "1664"], ["o.bin"])
    same_run(tmp, "private_spill -O0", "private_spill.O0.w32.hsaco",
             ["--groups", "64", "--block", "256", "--arg", "in:in.bin", "--arg", "out:o.bin:64K",
              "--arg", "u32:4096"], ["o.bin"])
    # more quanta than a run-ahead holds (64 x 512 instructions): the scheduler runs the rest
    same_run(tmp, "fma_peak, past the run-ahead's quanta", "fma_peak.O2.w32.hsaco",
             ["--groups", "104", "--block", "256", "--arg", "out:o.bin:106496", "--arg", "f32:0.999",
              "--arg", "f32:0.001"], ["o.bin"])
    # two queues at once
    same_run(tmp, "scratch_chase with lds_reduce on the compute queue", "scratch_chase.O2.w32.hsaco",
             ["--groups", "64", "--block", "256", "--arg", "in:in.bin", "--arg", "out:o.bin:64K",
              "--arg", "u32:32", "--async", os.path.join(KDIR, "lds_reduce.O2.w64.hsaco"), "--kernel",
              "lds_reduce", "--groups", "4", "--block", "256", "--arg", "in:in.bin", "--arg", "out:l.bin:16"],
             ["o.bin", "l.bin"])
    # global atomics from every wave: each lane's atomic_inc slot depends on the order, their sum
    # and maximum (ret) do not
    same_run(tmp, "global atomics", "atomics.O2.w32.hsaco",
             ["--kernel", "gatomic_int", "--groups", "32", "--block", "256", "--arg", "in:in.bin",
              "--arg", "out:c.bin:64", "--arg", "out:ret.bin:8"], ["c.bin", "ret.bin"])
    # the trace: launches, retirements and occupancy at the same cycles
    for ahead in (True, False):
        p = run(tmp, ahead, "sgemm_tiled.O2.w32.hsaco", "--groups", "64", "--block", "256", "--arg", "in:a.bin",
                "--arg", "in:b.bin", "--arg", "out:c.bin:256K", "--arg", "u32:256", "--trace",
                f"t{int(ahead)}.json")
        check(p.returncode == 0, f"traced run with {how(ahead)}")
    t1, t0 = (open(os.path.join(tmp, f"t{i}.json")).read() for i in (1, 0))
    check(t1 == t0, f"sgemm_tiled: the same trace either way ({len(t1)} bytes)")

    # a recording made with the run-ahead replays the same without it, and the other way round:
    # the replay's GPU reads XS12_RUN_AHEAD as a device's does (xs_rt_run_ahead_from_env);
    # in timing mode, made with two threads, replayed with one (replay has no second)
    for ahead in (True, False) if MODE == "functional" else (True,):
        rec = os.path.join(tmp, f"r{int(ahead)}.xsrec")
        p = run(tmp, ahead, "sgemm_tiled.O2.w32.hsaco", "--groups", "64", "--block", "256", "--arg", "in:a.bin",
                "--arg", "in:b.bin", "--arg", "out:c.bin:256K", "--arg", "u32:256", "--record", rec)
        check(p.returncode == 0, f"recorded with {how(ahead)}")
        env = dict(os.environ)
        if ahead:
            env["XS12_RUN_AHEAD"] = "0"
        q = subprocess.run([XS12, "replay", rec], cwd=tmp, capture_output=True, text=True, env=env)
        check(q.returncode == 0, f"recorded with {how(ahead)}, replayed with {how(not ahead)}: the same "
                                 f"cycles and bytes ({(q.stdout + q.stderr).strip()[-160:]})")

    # faults: the same wave, PC, instruction count and cycle in the report
    same_removal(tmp, "a store to an unmapped address", "faults.O2.w32.hsaco",
                 ["--kernel", "store_to", "--groups", "64", "--block", "256", "--arg", "out:o.bin:4"])
    # (timing mode: 8 groups, not 64, or each run takes seconds). The budget is past what a
    # functional run-ahead holds (64 quanta of 512 instructions), so the scheduler's quanta
    # use it up; 50,000 rather than more, and 200 us of GPU time for the hang, because the
    # ASan build runs these at about 15 M instructions a second
    spin_groups = "64" if MODE == "functional" else "8"
    same_removal(tmp, "a spin out of its instruction budget", "faults.O2.w32.hsaco",
                 ["--kernel", "spin", "--groups", spin_groups, "--block", "256", "--arg", "in:zero.bin",
                  "--arg", "out:o.bin:64K", "--watchdog", "insts=50000"])
    # a hang (no group completes for 200 us of GPU time): every resident wave's PC and count
    same_removal(tmp, "a spin that never ends", "faults.O2.w32.hsaco",
                 ["--kernel", "spin", "--groups", spin_groups, "--block", "256", "--arg", "in:zero.bin",
                  "--arg", "out:o.bin:64K", "--watchdog", "gpu=200us,host=off"], lists_pcs=True)
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
