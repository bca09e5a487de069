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
    # Nothing already written is lost: a run that fails before the GPU ran
    # leaves an earlier recording at the path as it was, and no temporary
    # file beside it; a recording that cannot be written is an error.
    rec = os.path.join(tmp, "r--functional.xsr")
    before = open(rec, "rb").read()
    p = subprocess.run([XS12, "run", os.path.join(KDIR, "vadd.O2.w32.hsaco"), "--groups", "1", "--block", "64",
                        "--arg", "in:missing.bin", "--arg", "in:in.bin", "--arg", "out:o.bin:256", "--arg", "u32:64",
                        "--record", rec], cwd=tmp, capture_output=True, text=True)
    check(p.returncode == 1 and open(rec, "rb").read() == before,
          f"a failed run keeps the recording at its path ({p.stderr.strip()[:100]})")
    check(not [n for n in os.listdir(tmp) if ".tmp." in n], "no temporary recording is left beside it")
    def small_files():  # a 4 KiB file size limit, the write failing (not SIGXFSZ)
        import resource, signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    p = subprocess.run([XS12, "run", os.path.join(KDIR, "vadd.O2.w32.hsaco"), "--groups", "1", "--block", "64",
                        "--arg", "in:in.bin", "--arg", "in:in.bin", "--arg", "out:o.bin:256", "--arg", "u32:64",
                        "--record", rec + ".x"], cwd=tmp, capture_output=True, text=True, preexec_fn=small_files)
    check(p.returncode == 1 and "writing the recording failed" in p.stderr and not os.path.exists(rec + ".x")
          and not [n for n in os.listdir(tmp) if ".tmp." in n],
          f"a recording over the file size limit is an error, and not left: {p.stderr.strip()[-160:]}")
    # Bytes after the last batch are not a recording's end.
    open(rec + ".tail", "wb").write(before + b"XYZ")
    p = subprocess.run([XS12, "replay", rec + ".tail"], capture_output=True, text=True)
    check(p.returncode == 1 and "byte" in p.stderr, f"trailing bytes are an error: {p.stderr.strip()[:120]}")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
