#!/usr/bin/env python3
"""A D3D12 program recorded without changing it (XS12_RECORD) replays
identically through the GPU model alone, and `xs12 pm4` decodes its
submissions, the firmware packet of ExecuteIndirect included.

  record_replay.py [--ops OP,OP...] XS12 PROGRAM ARGS...

--ops names the packets `xs12 pm4` must find (default: ExecuteIndirect's).
"""
import glob, os, subprocess, sys, tempfile

argv = sys.argv[1:]
want_ops = {"XS_LAUNCH", "COND_EXEC", "COND_WRITE", "DMA_DATA"}
if argv[0] == "--ops":
    want_ops, argv = set(argv[1].split(",")), argv[2:]
xs12, prog, args = argv[0], argv[1], argv[2:]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    rec = os.path.join(tmp, "run.xsr")
    p = subprocess.run([prog] + args, env=dict(os.environ, XS12_RECORD=rec), capture_output=True, text=True)
    check(p.returncode == 0, f"{os.path.basename(prog)} runs while recorded (exit {p.returncode})")
    files = sorted(glob.glob(rec + "*"))
    check(len(files) > 1, f"a recording per device: {len(files)} files (run.xsr, run.xsr.2, ...)")
    replayed = 0
    for f in files:
        r = subprocess.run([xs12, "replay", f], capture_output=True, text=True)
        if "holds no batch" in r.stderr:
            continue  # a device that never ran the GPU
        replayed += 1
        check(r.returncode == 0 and "identical to the recording" in r.stdout,
              f"{os.path.basename(f)} replays identically: {(r.stdout + r.stderr).strip()}")
    check(replayed >= 3, f"{replayed} recordings replayed")
    seen = set()
    for f in files:
        r = subprocess.run([xs12, "pm4", f], capture_output=True, text=True)
        for op in want_ops | {"WAIT_REG_MEM64", "RELEASE_MEM"}:
            if op in r.stdout:
                seen.add(op)
    check(want_ops <= seen, f"xs12 pm4 decodes the packets {sorted(want_ops)}: {sorted(seen)}")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
