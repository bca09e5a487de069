#!/usr/bin/env python3
"""Recording and replay: the same PM4 and memory give the same cycles and
bytes (issue: "streams can be saved and replayed"), and a damaged recording
gives an error, not a crash.   usage: replay.py XS12 KERNEL_DIR"""
import os, struct, subprocess, sys, tempfile

XS12, KDIR = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "in.bin"), "wb") as f:
        f.write(struct.pack("<1024I", *range(1024)))
    for mode in ("--timing", "--functional"):
        rec = os.path.join(tmp, f"r{mode}.xsr")
        p = subprocess.run([XS12, "run", os.path.join(KDIR, "scratch_chase.O2.w32.hsaco"), "--groups", "64",
                            "--block", "256", "--arg", "in:in.bin", "--arg", "out:o.bin:64K", "--arg", "u32:32",
                            mode, "--record", rec, "--async", os.path.join(KDIR, "lds_reduce.O2.w64.hsaco"),
                            "--kernel", "lds_reduce", "--groups", "4", "--block", "256", "--arg", "in:in.bin",
                            "--arg", "out:l.bin:16"], cwd=tmp, capture_output=True, text=True)
        check(p.returncode == 0, f"{mode}: recorded run succeeds ({p.stderr.strip()[-200:]})")
        p = subprocess.run([XS12, "replay", rec], capture_output=True, text=True)
        check(p.returncode == 0 and "identical" in p.stdout, f"{mode}: replay is identical: {p.stdout.strip()}")
        data = open(rec, "rb").read()
        # A flipped bit of the recorded memory digest: the replay must notice.
        bad = bytearray(data)
        bad[-3] ^= 1
        open(rec + ".flip", "wb").write(bad)
        p = subprocess.run([XS12, "replay", rec + ".flip"], capture_output=True, text=True)
        check(p.returncode == 1 and "DIFFERS" in p.stdout and "digest" in p.stdout,
              f"{mode}: a changed digest is reported: {p.stdout.strip()}")
        # Truncated anywhere: an error naming the byte, never a crash.
        worst = 0
        for cut in (4, 12, 40, 300, len(data) // 2, len(data) - 9, len(data) - 1):
            open(rec + ".cut", "wb").write(data[:cut])
            p = subprocess.run([XS12, "replay", rec + ".cut"], capture_output=True, text=True)
            worst = max(worst, p.returncode if p.returncode >= 0 else 99)
            check(p.returncode == 1 and "xs12 replay:" in p.stderr, f"{mode}: cut at {cut}: {p.stderr.strip()[:120]}")
    p = subprocess.run([XS12, "replay", os.path.join(KDIR, "vadd.O2.w32.hsaco")], capture_output=True, text=True)
    check(p.returncode == 1 and "not an xs12 recording" in p.stderr, "a code object is not a recording")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
