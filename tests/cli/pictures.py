#!/usr/bin/env python3
"""Pictures that read at a glance: the SVG chart and the Perfetto trace.

  pictures.py XS12 KERNEL_DIR

A run of a scratch kernel on two queues with small rings (64 slots each):
  * the SVG renders (rsvg-convert, as a user's viewer would) and its y-axis
    is scaled to the data, not to the machine's 1664 waves; both queues have
    their colour, each a legend entry for waves, scratch slots and ring
    slots; the axes are labelled in microseconds and cycles;
  * the trace JSON has a process per shader engine with named wave-slot
    tracks, a "queues" process with a named track per queue holding one
    slice per dispatch, and the named counters per queue.
"""
import json, os, re, struct, subprocess, sys, tempfile

XS12, KDIR = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    n = 128 * 256
    open(os.path.join(tmp, "in.bin"), "wb").write(struct.pack(f"<{n}I", *range(n)))
    k = os.path.join(KDIR, "private_spill.O2.w32.hsaco")
    args = ["--arg", "in:in.bin", "--arg", f"out:o.bin:{n * 4}", "--arg", f"u32:{n}"]
    p = subprocess.run([XS12, "run", k, "--groups", "128", "--block", "256", *args, "--title-scratch", "64",
                        "--svg", "t.svg", "--trace", "t.json", "--async", k, "--groups", "64", "--block", "256",
                        "--arg", "in:in.bin", "--arg", f"out:p.bin:{n * 4}", "--arg", f"u32:{n // 2}"],
                       cwd=tmp, capture_output=True, text=True)
    check(p.returncode == 0, "the run with --svg and --trace succeeds " + p.stderr.strip()[-200:])
    svg = open(os.path.join(tmp, "t.svg")).read()
    r = subprocess.run(["rsvg-convert", "t.svg", "-o", "t.png"], cwd=tmp, capture_output=True, text=True)
    png = os.path.join(tmp, "t.png")
    check(r.returncode == 0 and os.path.getsize(png) > 10000, "the SVG renders with rsvg-convert " + r.stderr.strip())
    if r.returncode == 0:
        w, h = struct.unpack(">II", open(png, "rb").read()[16:24])
        check(w >= 800 and h >= 300, f"the picture is {w}x{h}")
    ticks = [int(t) for t in re.findall(r'text-anchor="end">(\d+)</text>', svg)]
    check(ticks and max(ticks) <= 100, f"the y-axis is scaled to the 64-slot rings: top tick {max(ticks or [0])}")
    for want in ("direct queue", "compute queue 1", "waves in flight", "scratch slots in use", "scratch ring slots",
                 "time (µs)", "cycles 0.."):
        check(want in svg, f"the SVG says '{want}'")
    check(len(set(re.findall(r'stroke="(#[0-9a-f]{6})"', svg)) - {"#888888", "#e5e5e5"}) >= 2, "one colour per queue")

    j = json.load(open(os.path.join(tmp, "t.json")))
    ev = j["traceEvents"]
    procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    check("queues" in procs.values() and "SE0" in procs.values() and "SE1" in procs.values(),
          f"processes: {sorted(procs.values())}")
    qpid = [p for p, n in procs.items() if n == "queues"][0]
    check(threads.get((qpid, 0)) == "direct queue" and threads.get((qpid, 1)) == "compute queue 1",
          "a named track per queue")
    slot = re.compile(r"^SA\d WGP\d+ CU[01] SIMD[01] slot \d+$")
    waves = [e for e in ev if e["ph"] == "X" and e["pid"] != qpid]
    check(waves and all(slot.match(threads.get((e["pid"], e["tid"]), "")) for e in waves),
          f"every wave slice is on a named wave-slot track ({len(waves)} waves)")
    disp = [e for e in ev if e["ph"] == "X" and e["pid"] == qpid]
    check(sorted((e["tid"], e["name"]) for e in disp) == [(0, "dispatch 0"), (1, "dispatch 1")],
          "one slice per dispatch on its queue's track")
    counters = {e["name"] for e in ev if e["ph"] == "C"}
    check(counters == {"waves in flight", "scratch slots in use", "scratch ring slots", "compute waves"},
          f"counters: {counters}")
    # the stages process: one counter track per stage that ran (compute only here), back to 0 at the end
    spid = [p for p, n in procs.items() if n == "stages"]
    cw = [e for e in ev if e["ph"] == "C" and e["name"] == "compute waves"]
    check(spid and all(e["pid"] == spid[0] for e in cw) and max(e["args"]["waves"] for e in cw) > 0
          and cw[-1]["args"]["waves"] == 0, "a compute-waves track in the stages process")
    last = [e for e in ev if e["ph"] == "C" and e["name"] == "scratch ring slots"][0]["args"]
    check(last == {"direct queue": 64, "compute queue 1": 64}, f"ring capacity per queue: {last}")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
