#!/usr/bin/env python3
"""Messages and exit codes a user can act on, and the hostile inputs a
reliability probe found: each case once, as a user meets it.

  messages.py XS12 KERNEL_DIR KINDS.hsaco KERNARG_4G.hsaco LDS_4G.hsaco

Exit codes: 0 ok, 1 the run failed, 2 usage error.
"""
import json, os, struct, subprocess, sys, tempfile, time

XS12, KDIR, KINDS, KARG4G, LDS4G = map(os.path.abspath, sys.argv[1:6])
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def xs(*args, cwd=None, timeout=120):
    return subprocess.run([XS12, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout)


def k(name):
    return os.path.join(KDIR, name)


with tempfile.TemporaryDirectory() as tmp:
    open(os.path.join(tmp, "a.bin"), "wb").write(struct.pack("<4f", 1, 2, 3, 4))
    vadd = [k("vadd.O2.w32.hsaco"), "--groups", "1", "--block", "4", "--arg", "in:a.bin", "--arg", "in:a.bin",
            "--arg", "out:c.bin:16", "--arg", "u32:4"]

    # ---- options in the wrong place ----
    p = xs("run", *vadd, "--async", *vadd, "--scratch-waves", "128", cwd=tmp)
    check(p.returncode == 2 and "--scratch-waves applies to the whole run" in p.stderr,
          "a run-wide option after --async is named: " + p.stderr.splitlines()[0])
    p = xs("run", *vadd, "--async", *vadd, "--async", *vadd, cwd=tmp)
    check(p.returncode == 2 and "a second --async" in p.stderr, "a second --async says what is allowed: "
          + p.stderr.splitlines()[0])
    p = xs("run", *vadd, "--async", *vadd, "--queue", "direct", cwd=tmp)
    check(p.returncode == 2 and "--queue direct after --async" in p.stderr and "compute queue" in p.stderr,
          "--queue direct after --async says what is allowed: " + p.stderr.splitlines()[0])
    p = xs("run", *vadd, "--scratch-waves", "2000", cwd=tmp)
    check(p.returncode == 2 and "--scratch-waves 2000" in p.stderr and "1664" in p.stderr and "S1.13" in p.stderr,
          "--scratch-waves 2000 names the flag and the limit: " + p.stderr.splitlines()[0])
    # a kernel with scratch: private_spill (9 KB per wave)
    spill = [k("private_spill.O2.w32.hsaco"), "--groups", "1", "--block", "64", "--arg", "in:a.bin",
             "--arg", "out:o.bin:256", "--arg", "u32:4"]
    p = xs("run", *spill, "--title-scratch", "4294967295", cwd=tmp)
    check(p.returncode == 2 and "4294967295" in p.stderr and "1664" in p.stderr and "S1.13" in p.stderr,
          "--title-scratch 4294967295 is refused naming the limit: " + p.stderr.splitlines()[0])
    p = xs("run", *spill, "--title-scratch", "4M", "--json", cwd=tmp)
    check(p.returncode == 0 and json.loads(p.stdout)["scratch_waves"] == 4 * 1024 // 9,
          "--title-scratch 4M is bytes, in slots of the kernel's 9 KB")

    # ---- arguments checked against the metadata ----
    kinds = [KINDS, "--groups", "1", "--block", "1", "--arg", "out:o.bin:4"]
    p = xs("run", *kinds, "--arg", "u32:1", cwd=tmp)
    check(p.returncode == 2 and "pick one with --kernel" in p.stderr and "take_int" in p.stderr,
          "no --kernel with several kernels: exit 2 and the list")
    for kern, spec, want in (("take_uint", "f32:4096", "expected u32:V"), ("take_uint", "i32:-1", "expected u32:V"),
                             ("take_int", "f32:nan", "expected i32:V"), ("take_float", "u32:1", "expected f32:V"),
                             ("take_uint", "u64:1", "expected u32:V")):
        p = xs("run", *kinds, "--kernel", kern, "--arg", spec, cwd=tmp)
        check(p.returncode == 2 and want in p.stderr and f"'{spec}'" in p.stderr,
              f"{kern} --arg {spec}: {p.stderr.strip()}")
    for kern, spec in (("take_uint", "u32:7"), ("take_int", "i32:-7"), ("take_float", "f32:2.5")):
        p = xs("run", *kinds, "--kernel", kern, "--arg", spec, cwd=tmp)
        check(p.returncode == 0, f"{kern} --arg {spec} is accepted " + p.stderr.strip())
    hip = k("saxpy.hip.co")
    if os.path.exists(hip):
        p = xs("info", "--json", hip)
        args = json.loads(p.stdout)["kernels"][0]["arguments"] if p.returncode == 0 else []
        specs = ["f64:1" if a["size"] == 4 else "in:a.bin" for a in args]   # by-value ones of the wrong size
        p = xs("run", hip, "--groups", "1", "--block", "4", *sum((["--arg", s] for s in specs), []), cwd=tmp)
        check(p.returncode == 2 and "checked by size only" in p.stderr,
              "a HIP code object has no type names, and the message says so: " + p.stderr.strip()[:200])
    p = xs("info", k("vadd.O2.w32.hsaco"))
    check("?" not in p.stdout.split("arguments")[1] and "unnamed" in p.stdout,
          "arguments without names show a word, not '?'")

    # ---- CU masks ----
    p = xs("run", *vadd, "--cu-mask", "0x1", cwd=tmp)
    check(p.returncode == 1 and "a WGP-mode kernel needs both CUs of a WGP" in p.stderr and "0x3" in p.stderr,
          "--cu-mask 0x1 for a WGP-mode kernel: " + p.stderr.strip())
    p = xs("run", *vadd, "--cu-mask", "0x10000000000000", cwd=tmp)
    check(p.returncode == 1 and "52 CUs" in p.stderr, "a CU mask beyond the machine names its CU count: "
          + p.stderr.strip())

    # ---- faults name the allocation; guard space past a buffer ----
    p = xs("run", k("vadd.O2.w32.hsaco"), "--groups", "1", "--block", "5", "--arg", "in:a.bin", "--arg", "in:a.bin",
           "--arg", "out:c.bin:16", "--arg", "u32:5", cwd=tmp)
    check(p.returncode == 1 and "VM fault" in p.stderr and "past the end of '--arg 0 in:a.bin" in p.stderr,
          "an access past a buffer's requested size faults, naming the --arg: " + p.stderr.strip()[:300])
    p = xs("run", k("faults.O2.w32.hsaco"), "--kernel", "store_to", "--groups", "1", "--block", "1", "--arg",
           "u64:0x5000000000", cwd=tmp)
    check(p.returncode == 2, "a pointer argument given by value is refused: " + p.stderr.strip()[:200])

    # ---- --json on failure; summary and functional time ----
    p = xs("run", k("vadd.O2.w32.hsaco"), "--groups", "1", "--block", "5", "--arg", "in:a.bin", "--arg", "in:a.bin",
           "--arg", "out:c.bin:16", "--arg", "u32:5", "--json", cwd=tmp)
    j = json.loads(p.stdout) if p.stdout.strip() else {}
    check(p.returncode == 1 and j.get("ok") is False and "VM fault" in (j.get("error") or "") and
          j.get("wave_instructions", 0) > 0, "--json on failure: ok false, the error, the measured figures")
    p = xs("run", *vadd, cwd=tmp)
    check(p.returncode == 0 and p.stdout.startswith("vadd (direct queue): 1 wave,") and not p.stderr,
          "the summary goes to stdout")
    p = xs("run", *vadd, "--functional", "--threads", "1", cwd=tmp)
    check("issue counts" in p.stdout and " us)" not in p.stdout, "--functional says its cycles are issue counts: "
          + p.stdout.strip())
    p = xs("run", *vadd, "--functional", "--json", cwd=tmp)
    check(json.loads(p.stdout)["microseconds"] is None, "--functional --json has no microseconds")
    p = xs("run", k("vadd.O2.w32.hsaco"), "--groups", "1", "--block", "4", "--arg", "in:a.bin", "--arg", "in:a.bin",
           "--arg", "out:c.bin:1G", "--arg", "u32:4", "--functional", cwd=tmp)
    check(p.returncode == 0 and os.path.getsize(os.path.join(tmp, "c.bin")) == 1 << 30, "byte counts take G")

    # ---- damaged and hostile code objects ----
    data = open(k("vadd.O2.w32.hsaco"), "rb").read()
    open(os.path.join(tmp, "cut.hsaco"), "wb").write(data[:len(data) * 3 // 4])
    pi, pd = xs("info", os.path.join(tmp, "cut.hsaco")), xs("disasm", os.path.join(tmp, "cut.hsaco"))
    check(pd.returncode == 1 and pi.returncode == 1 and pd.stderr.split(": ", 1)[1] == pi.stderr.split(": ", 1)[1],
          "disasm of a truncated ELF fails as info does: " + pd.stderr.strip())
    t0 = time.monotonic()
    p = xs("run", KARG4G, "--groups", "1", "--block", "32")
    check(p.returncode == 1 and ".kernarg_segment_size 4294967295" in p.stderr and time.monotonic() - t0 < 5,
          "a 4 GiB kernarg segment is refused at load: " + p.stderr.strip())
    p = xs("info", LDS4G)
    check(p.returncode == 0 and "0: a group can never launch, limited by lds" in p.stdout and
          "over the 65536" in p.stdout, "info of a 4 GiB LDS kernel says it can never launch")
    p = xs("run", LDS4G, "--groups", "1", "--block", "32")
    check(p.returncode == 1 and "S3.3" in p.stderr, "a 4 GiB LDS dispatch is refused (S3.3): " + p.stderr.strip())

    # ---- info --block: the product of three u32s in 64 bits ----
    for b, threads in (("65536,65536,1", "4294967296"), ("4294967295,4294967295", "18446744065119617025"),
                       ("4294967295,4294967295,4294967295", "over 18446744073709551615")):
        p = xs("info", k("vadd.O2.w32.hsaco"), "--block", b)
        check(p.returncode == 2 and f"--block {b}: {threads} threads, more than any group has" in p.stderr,
              f"info --block {b} is refused, not wrapped: " + (p.stderr.strip() or p.stdout.strip())[:160])
    # a size that fits is held to the machine's limit by the occupancy query
    p = xs("info", k("vadd.O2.w32.hsaco"), "--block", "64,32")
    check(p.returncode == 1 and "group size 2048 is not 1..1024" in p.stderr,
          "info --block 64,32 is over the machine's 1024: " + p.stderr.strip()[:160])
    p = xs("info", k("vadd.O2.w32.hsaco"), "--block", "32,32,1", "--json")
    check(p.returncode == 0 and json.loads(p.stdout)["kernels"][0]["group_size"] == 1024,
          "info --block 32,32,1: a group of 1024 threads")

    # ---- output that cannot be written ----
    # stdout: a full device fails the write; exit 0 would pass a cut output for a whole one
    with open("/dev/full", "w") as full:
        p = subprocess.run([XS12, "run", *vadd, "--json"], stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp)
    check(p.returncode == 1 and "xs12: writing to standard output failed: No space left on device" in p.stderr,
          f"run --json > /dev/full: exit 1 with a message (got {p.returncode}: {p.stderr.strip()[:160]})")
    # Files: with `ulimit -f 0` (SIGXFSZ ignored, so writes fail with EFBIG)
    # every write fails; each file keeps what it held, no temporary is left,
    # and each is named on stderr.
    outs = ["c.bin", "p.json", "k.csv", "t.json", "t.svg"]
    for f in outs:
        open(os.path.join(tmp, f), "w").write("before\n")
    before = set(os.listdir(tmp))
    cmd = [XS12, "run", *vadd, "--profile", "p.json", "--counters", "k.csv", "--trace", "t.json", "--svg", "t.svg"]
    p = subprocess.run(["bash", "-c", 'trap "" XFSZ; ulimit -f 0; exec "$@"', "bash", *cmd], capture_output=True,
                       text=True, cwd=tmp)
    kept = [f for f in outs if open(os.path.join(tmp, f)).read() == "before\n"]
    check(p.returncode == 1 and kept == outs and set(os.listdir(tmp)) == before,
          f"ulimit -f 0: exit 1, every output file as it was ({kept}), no temporary left "
          f"({sorted(set(os.listdir(tmp)) - before)})")
    check(all(m in p.stderr for m in ("'out:c.bin:16': writing 'c.bin' failed", "--profile p.json: p.json: write failed",
                                       "--counters k.csv: cannot write", "--trace t.json: write failed",
                                       "--svg t.svg: write failed")) and ".xs12-tmp" not in p.stderr,
          "ulimit -f 0: each file named as the user gave it: " + " | ".join(p.stderr.strip().splitlines()))
    # xs12 ignores SIGXFSZ itself: with the signal's default action (a shell
    # that does not trap it) the writes fail the same way, no temporary left
    p = subprocess.run(["bash", "-c", 'trap - XFSZ; ulimit -f 0; exec "$@"', "bash", *cmd], capture_output=True,
                       text=True, cwd=tmp)
    check(p.returncode == 1 and set(os.listdir(tmp)) == before and "--svg t.svg: write failed" in p.stderr,
          f"ulimit -f 0, SIGXFSZ not trapped: exit 1 (got {p.returncode}), no temporary left "
          f"({sorted(set(os.listdir(tmp)) - before)})")
    # and written whole when they can be, with the permissions of the file replaced
    os.chmod(os.path.join(tmp, "k.csv"), 0o640)
    p = xs("run", *vadd, "--profile", "p.json", "--counters", "k.csv", "--trace", "t.json", "--svg", "t.svg", cwd=tmp)
    check(p.returncode == 0 and open(os.path.join(tmp, "k.csv")).read().startswith("scope,kernel,") and
          json.load(open(os.path.join(tmp, "p.json"))) and open(os.path.join(tmp, "c.bin"), "rb").read() ==
          struct.pack("<4f", 2, 4, 6, 8) and os.stat(os.path.join(tmp, "k.csv")).st_mode & 0o777 == 0o640 and
          set(os.listdir(tmp)) == before, "the outputs replaced when they can be written, k.csv still 0640")
    # --svg alone, a symbolic link (its target replaced, the link kept), a
    # device (written in place: a rename would replace /dev/stdout)
    os.symlink("k.csv", os.path.join(tmp, "link.csv"))
    open(os.path.join(tmp, "k.csv"), "w").write("before\n")
    p = xs("run", *vadd, "--svg", "only.svg", "--counters", "link.csv", cwd=tmp)
    check(p.returncode == 0 and os.path.islink(os.path.join(tmp, "link.csv")) and
          open(os.path.join(tmp, "k.csv")).read().startswith("scope,kernel,") and
          set(os.listdir(tmp)) == before | {"only.svg", "link.csv"},
          f"--counters through a link replaces its target, --svg alone leaves no temporary "
          f"({sorted(set(os.listdir(tmp)) - before)})")
    p = xs("run", *vadd, "--counters", "/dev/stdout", cwd=tmp)
    check(p.returncode == 0 and "{\"dispatches\": [" in p.stdout and os.path.exists("/dev/stdout"),
          "--counters /dev/stdout is written in place")

    # ---- a damaged recording: COMPUTE_DIM_Y = 0xffffffff ends in seconds ----
    rec = os.path.join(tmp, "r.xsr")
    p = xs("run", *vadd, "--record", rec, cwd=tmp)
    data = bytearray(open(rec, "rb").read())
    pkt = struct.pack("<4I", 0xC0031502, 1, 1, 1)   # DISPATCH_DIRECT (compute shader type) of 1x1x1 groups
    at = data.find(pkt)
    check(p.returncode == 0 and at > 0, "the recording holds the DISPATCH_DIRECT packet")
    data[at + 8:at + 12] = struct.pack("<I", 0xffffffff)
    open(rec, "wb").write(data)
    t0 = time.monotonic()
    p = xs("replay", rec, timeout=60)
    dt = time.monotonic() - t0
    check(p.returncode == 1 and "recorded" in p.stdout + p.stderr and dt < 20,
          f"replay of COMPUTE_DIM_Y = 2^32 - 1 stops after {dt:.1f} s naming the recorded bound: "
          + (p.stdout + p.stderr).strip()[:300])
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
