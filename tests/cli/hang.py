#!/usr/bin/env python3
"""Hangs are reported in seconds, as a GPU driver's timeout detection would.

  hang.py XS12 KERNEL_DIR

* A one-wave infinite loop (faults.cl:spin with its flag 0), default
  settings: the device is removed within 15 s of host time, in timing and in
  functional mode, and the report names the limit, the wave, its PC and the
  instruction there.
* The GPU-time limit is deterministic: with --watchdog gpu=1ms (host limit
  off) the same report comes out twice in timing mode.
* A grid whose groups keep completing is not a hang, however long it runs
  against the limit: with gpu=5us a grid that runs for far longer completes.
* --watchdog off and insts=N do what they say; bad SPECs are usage errors.
* Ctrl-C stops a run cleanly: exit 130, the message says it was interrupted,
  and the out file is written.
"""
import os, signal, subprocess, sys, tempfile, time

XS12, KDIR = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def spin(tmp, *extra):
    return [XS12, "run", os.path.join(KDIR, "faults.O2.w32.hsaco"), "--kernel", "spin", "--groups", "1", "--block",
            "32", "--arg", "out:" + os.path.join(tmp, "flag.bin") + ":4", "--arg",
            "out:" + os.path.join(tmp, "o.bin") + ":128", *extra]


# The defaults are what this checks: not a slow host's XS12_HANG_HOST_MS.
DEFAULTS = {k: v for k, v in os.environ.items() if k != "XS12_HANG_HOST_MS"}

with tempfile.TemporaryDirectory() as tmp:
    for mode in ("--timing", "--functional"):
        t0 = time.monotonic()
        p = subprocess.run(spin(tmp, mode), capture_output=True, text=True, timeout=120, env=DEFAULTS)
        dt = time.monotonic() - t0
        m = p.stderr
        check(p.returncode == 1 and dt < 15, f"{mode}: one looping wave is reported after {dt:.1f} s (< 15 s)")
        check("device removed: hang" in m and "limit" in m and "wave 0 of group (0,0,0)" in m and "at PC 0x" in m
              and "`" in m, f"{mode}: the report names the limit, the wave, the PC and the instruction: {m.strip()}")

    reports = []
    for _ in range(2):
        p = subprocess.run(spin(tmp, "--watchdog", "gpu=1ms,host=off"), capture_output=True, text=True, timeout=120)
        reports.append(p.stderr)
        check(p.returncode == 1 and "simulated GPU time" in p.stderr and "the GPU-time limit" in p.stderr,
              "gpu=1ms: the GPU-time limit fires: " + p.stderr.strip()[:300])
    check(reports[0] == reports[1], "the GPU-time report is the same run after run (deterministic)")

    # vadd over 64K groups: about 0.1 ms of GPU time, far over gpu=5us, but
    # groups complete all along.
    n = 65536 * 64
    with open(os.path.join(tmp, "x.bin"), "wb") as f:
        f.write(bytes(n * 4))
    p = subprocess.run([XS12, "run", os.path.join(KDIR, "vadd.O2.w32.hsaco"), "--groups", "65536", "--block", "64",
                        "--arg", "in:" + os.path.join(tmp, "x.bin"), "--arg", "in:" + os.path.join(tmp, "x.bin"),
                        "--arg", f"out:{os.path.join(tmp, 'y.bin')}:{n * 4}", "--arg", f"u32:{n}",
                        "--watchdog", "gpu=5us,host=off", "--json"], capture_output=True, text=True, timeout=600)
    import json
    ok = p.returncode == 0
    us = json.loads(p.stdout)["microseconds"] if ok else 0
    check(ok and us > 10 * 5, f"a {us:.0f} us grid whose groups complete is not stopped by gpu=5us "
          + p.stderr.strip()[-300:])

    p = subprocess.run(spin(tmp, "--watchdog", "insts=5000,host=off", "--functional"), capture_output=True, text=True)
    check(p.returncode == 1 and "instruction budget" in p.stderr and "after 5000 instructions" in p.stderr,
          "insts=5000: the per-wave budget: " + p.stderr.strip()[:200])
    for bad in ("gpu=2", "gpu=-1s", "host=soon", "insts=0", "wave=3", "gpu"):
        p = subprocess.run(spin(tmp, "--watchdog", bad), capture_output=True, text=True)
        check(p.returncode == 2 and "--watchdog" in p.stderr, f"--watchdog {bad}: usage error")
    p = subprocess.run([XS12, "run", "--help"], capture_output=True, text=True)
    check("gpu=2s,host=10s" in p.stdout, "run --help prints the watchdog defaults")

    # Ctrl-C: the run stops, says so, and the out files are written.
    out = os.path.join(tmp, "o.bin")
    if os.path.exists(out):
        os.unlink(out)
    proc = subprocess.Popen(spin(tmp, "--watchdog", "off"), stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    check(proc.returncode == 130 and "interrupted" in err and os.path.getsize(out) == 128,
          f"Ctrl-C: exit {proc.returncode}, '{err.strip()[:160]}', out file written")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
