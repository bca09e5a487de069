#!/usr/bin/env python3
"""The GPU model's figures against what the hardware documents.

usage: model.py XS12 KERNEL_DIR CHECK
CHECK is one of:
  roofline-fma MACHINE     FMA-bound kernel reaches >= 90 % of the machine's
                           published FP32 peak (CUs x 64 lanes x 2 x clock)
  roofline-copy MACHINE    streaming copy reaches 80-95 % of the published
                           memory bandwidth
  occupancy                peak waves in flight equal `xs12 info`'s theory
                           when nothing else limits (VGPR-, slot-, LDS-bound)
  scratch-scaling          a latency-bound scratch kernel gets faster as ring
                           slots grow until another resource limits it, never
                           above 16 waves per SIMD (S1.13)
  async-overlap            with the default shared scratch two queues' scratch
                           work overlaps on the same memory and corrupts it
                           (S1.8, S1.10); the debug layer refuses it; separate
                           rings overlap and compute right (S1.9)
  determinism              same input -> same cycles, bytes and trace
  ray-rate MACHINE         a kernel bound by the ray accelerator reaches 85-100 %
                           of its published rate: 4 ray/box tests (one box node)
                           or 1 ray/triangle test per CU per clock (Series X:
                           380 G box / 95 G triangle tests per second)
Published figures (Hot Chips 2020; docs/hardware.md section 8): Series X 52
CUs at 1825 MHz, 560 GB/s; Series S 20 CUs at 1565 MHz, 224 GB/s.
"""
import json, os, struct, subprocess, sys, tempfile

XS12, KDIR, CHECK = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3:]
PUBLISHED = {"seriesx": (52, 1825e6, 560e9), "seriess": (20, 1565e6, 224e9)}
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(args, tmp):
    p = subprocess.run([XS12, "run", "--json"] + args, capture_output=True, text=True, cwd=tmp)
    if p.returncode:
        raise SystemExit(f"xs12 run failed ({p.returncode}): {p.stderr.strip()}")
    return json.loads(p.stdout)


def info(kernel, *extra):
    p = subprocess.run([XS12, "info", "--json", os.path.join(KDIR, kernel), *extra], capture_output=True, text=True)
    return json.loads(p.stdout)["kernels"][0]


def k(name):
    return os.path.join(KDIR, name)


def roofline_fma(tmp, machine):
    cus, clk, _ = PUBLISHED[machine]
    groups = cus * 8  # two rounds of the machine's 32 waves per CU
    r = run([k("fma_peak.O2.w32.hsaco"), "--machine", machine, "--groups", str(groups), "--block", "256",
             "--arg", f"out:o.bin:{groups * 256 * 4}", "--arg", "f32:0.999", "--arg", "f32:0.001"], tmp)
    flops = groups * 256 * 8192  # fma_peak.cl: 8 chains x 512 steps x 2 FLOPs per lane
    peak = cus * 64 * 2 * clk
    got = flops / (r["microseconds"] * 1e-6)
    check(got >= 0.90 * peak, f"{machine}: FMA kernel {got / 1e12:.3f} TFLOPS = {100 * got / peak:.1f} % "
                              f"of {peak / 1e12:.2f} (>= 90 %)")
    check(got <= peak * 1.0001, f"{machine}: FMA kernel does not beat the peak")


def roofline_copy(tmp, machine):
    _, _, bw = PUBLISHED[machine]
    n = 1 << 21  # float4 elements: 32 MiB each way
    with open(os.path.join(tmp, "in.bin"), "wb") as f:
        f.write(os.urandom(n * 16))
    r = run([k("stream_copy.O2.w32.hsaco"), "--machine", machine, "--groups", str(n // 256), "--block", "256",
             "--arg", "in:in.bin", "--arg", f"out:out.bin:{n * 16}"], tmp)
    check(open(os.path.join(tmp, "in.bin"), "rb").read() == open(os.path.join(tmp, "out.bin"), "rb").read(),
          f"{machine}: the copy is exact")
    got = 2 * n * 16 / (r["microseconds"] * 1e-6)
    check(0.80 * bw <= got <= 0.95 * bw,
          f"{machine}: streaming copy {got / 1e9:.1f} GB/s = {100 * got / bw:.1f} % of {bw / 1e9:.0f} (80-95 %)")


def ray_rate(tmp, machine):
    cus, clk, _ = PUBLISHED[machine]
    # kernels/model/ray_peak.cl: one node, at 0 a box32 node whose four
    # children the rays hit, at 128 a triangle they hit.
    box = struct.pack("<4I", 0x105, 0x205, 0x305, 0x405)
    for c in range(4):
        box += struct.pack("<6f", -4.0 - c, -4.0, -1.0, 4.0 + c, 4.0, 1.0 + c)
    box += bytes(128 - len(box))
    tri = struct.pack("<9f", -4.0, -4.0, 1.0, 4.0, -4.0, 1.0, 0.0, 4.0, 1.0) + bytes(28)
    with open(os.path.join(tmp, "bvh.bin"), "wb") as f:
        f.write(box + tri)
    groups = cus * 2  # 16 waves per CU: the accelerator, not latency, bounds them
    for node, what, tests, per_clk in ((5, "box", 4, 4), (16, "triangle", 1, 1)):
        r = run([k("ray_peak.O2.w32.hsaco"), "--machine", machine, "--groups", str(groups), "--block", "256",
                 "--arg", "in:bvh.bin", "--arg", f"out:o.bin:{groups * 256 * 4}", "--arg", f"u32:{node}"], tmp)
        got = groups * 256 * 128 * tests / (r["microseconds"] * 1e-6)  # 128 node tests per lane
        peak = cus * clk * per_clk
        check(0.85 * peak <= got <= peak * 1.0001,
              f"{machine}: ray/{what} tests {got / 1e9:.1f} G/s = {100 * got / peak:.1f} % of {peak / 1e9:.1f} (85-100 %)")


def occupancy(tmp):
    nsimd = 52 * 2
    with open(os.path.join(tmp, "in.bin"), "wb") as f:
        f.write(os.urandom(8 << 20))
    cases = [  # kernel, block, args builder
        ("limit_vgpr.O2.w32.hsaco", 64, lambda g: ["--arg", "in:in.bin", "--arg", f"out:o.bin:{g * 64 * 640 + 4096}"]),
        ("limit_vgpr.O2.w64.hsaco", 64, lambda g: ["--arg", "in:in.bin", "--arg", f"out:o.bin:{g * 64 * 640 + 4096}"]),
        ("vadd.O2.w32.hsaco", 256, lambda g: ["--arg", "in:in.bin", "--arg", "in:in.bin",
                                              "--arg", f"out:o.bin:{g * 1024}", "--arg", f"u32:{g * 256}"]),
        ("limit_lds.O2.w32.hsaco", 64, lambda g: ["--arg", "in:in.bin", "--arg", f"out:o.bin:{g * 256}"]),
    ]
    for name, block, args in cases:
        ki = info(name, "--scratch-waves", "1664")  # the ring of the runs below
        o = ki["occupancy"]
        wave = ki["wave_size"]
        wpg = -(-block // wave)
        # Twice what the theory lets in flight at once: the machine fills up.
        groups = max(2 * o["waves_per_simd"] * nsimd // wpg, 26)
        r = run([k(name), "--groups", str(groups), "--block", str(block), "--scratch-waves", "1664"] + args(groups), tmp)
        if o["limiter"] == "lds":
            # Per pool (WGP mode: 128 KiB shared by 4 SIMDs), exact in waves per WGP.
            lds = -(-ki["lds_bytes"] // 1024) * 1024
            expect = (131072 // lds) * wpg * 26
            check(r["peak_waves_in_flight"] == expect,
                  f"{name}: peak {r['peak_waves_in_flight']} waves = {131072 // lds} groups x {wpg} waves x 26 WGPs "
                  f"(info: {o['waves_per_simd']} per SIMD, LDS-bound)")
        else:
            check(r["peak_waves_per_simd"] == o["waves_per_simd"] and
                  r["peak_waves_in_flight"] == o["waves_per_simd"] * nsimd,
                  f"{name}: peak {r['peak_waves_per_simd']} waves per SIMD, {r['peak_waves_in_flight']} in flight; "
                  f"info says {o['waves_per_simd']} ({o['limiter']})")


def scratch_scaling(tmp):
    """More ring slots, more scratch waves in flight, more latency hidden --
    until another resource limits it: here the L2 (5 MB on Series X) once the
    waves' private arrays (about 8 KB each) no longer fit, when more slots make
    it slower again (cache thrashing, printed)."""
    with open(os.path.join(tmp, "in.bin"), "wb") as f:
        f.write(struct.pack("<1024I", *range(1024)))
    outs = set()
    cycles = {}
    for slots in (32, 104, 208, 416, 832, 1664):
        r = run([k("scratch_chase.O2.w32.hsaco"), "--groups", "256", "--block", "256", "--arg", "in:in.bin",
                 "--arg", "out:o.bin:262144", "--arg", "u32:64", "--scratch-waves", str(slots)], tmp)
        outs.add(open(os.path.join(tmp, "o.bin"), "rb").read())
        cycles[slots] = r["cycles"]
        check(r["peak_scratch_slots"] <= slots and r["peak_waves_per_simd"] <= 16,
              f"{slots} slots: peak {r['peak_scratch_slots']} scratch waves, {r['peak_waves_per_simd']} per SIMD (<= 16), "
              f"{r['cycles']} cycles")
    for a, b in ((32, 104), (104, 208), (208, 416)):
        check(cycles[b] < cycles[a], f"{b} slots ({cycles[b]} cycles) faster than {a} ({cycles[a]})")
    best = min(cycles, key=cycles.get)
    check(best >= 416, f"the fastest ring has {best} slots; beyond it another resource limits "
                       f"({', '.join(f'{s}: {c}' for s, c in cycles.items())})")
    check(cycles[32] > 4 * cycles[416], f"latency hiding: 32 slots {cycles[32]} cycles vs 416 slots {cycles[416]} (> 4x)")
    check(len(outs) == 1, "results do not depend on the ring size")


def async_overlap(tmp):
    with open(os.path.join(tmp, "in1.bin"), "wb") as f:
        f.write(struct.pack("<1024I", *range(1024)))
    with open(os.path.join(tmp, "in2.bin"), "wb") as f:
        f.write(struct.pack("<1024I", *[(i * 7 + 3) % 1024 for i in range(1024)]))
    # 16 groups each: both queues' private arrays fit the L2 together. The
    # two inputs differ, so each output depends on its own scratch data.
    one = [k("scratch_chase.O2.w32.hsaco"), "--groups", "16", "--block", "256", "--arg", "in:in{}.bin",
           "--arg", "out:{}.bin:65536", "--arg", "u32:64"]
    def kern(i, out):
        return [x.format(i) if "in{}" in x else x.format(out) if "{}" in x else x for x in one]
    alone = [run(kern(i, f"alone{i}"), tmp) for i in (1, 2)]
    expect = [open(os.path.join(tmp, f"alone{i}.bin"), "rb").read() for i in (1, 2)]
    got = lambda name: open(os.path.join(tmp, f"{name}.bin"), "rb").read()

    shared = run(kern(1, "s1") + ["--async"] + kern(2, "s2"), tmp)["dispatches"]
    check(shared[1]["start_cycle"] < shared[0]["end_cycle"] and shared[0]["start_cycle"] < shared[1]["end_cycle"],
          f"default shared scratch (S1.8): no synchronization is added, the dispatches overlap "
          f"({shared[0]['start_cycle']}..{shared[0]['end_cycle']} and {shared[1]['start_cycle']}..{shared[1]['end_cycle']})")
    check(got("s1") != expect[0] or got("s2") != expect[1],
          "and their waves share the one allocation's slots: the results are corrupted (S1.8, S1.10)")

    p = subprocess.run([XS12, "run", "--debug-layer"] + kern(1, "d1") + ["--async"] + kern(2, "d2"),
                       capture_output=True, text=True, cwd=tmp)
    check(p.returncode == 1 and "S1.8" in p.stderr and "async compute" in p.stderr,
          f"the debug layer refuses scratch work on the async queue with the shared ring: {p.stderr.strip()[:90]}...")

    own = run(kern(1, "t1") + ["--title-scratch", "832", "--async"] + kern(2, "t2"), tmp)["dispatches"]
    check(own[1]["start_cycle"] < own[0]["end_cycle"] and own[0]["start_cycle"] < own[1]["end_cycle"],
          f"separate rings (S1.9): the two dispatches overlap ({own[0]['start_cycle']}..{own[0]['end_cycle']} and "
          f"{own[1]['start_cycle']}..{own[1]['end_cycle']})")
    check(got("t1") == expect[0] and got("t2") == expect[1], "and both compute what they compute alone")
    end_own = max(d["end_cycle"] for d in own) - min(d["start_cycle"] for d in own)
    serial = alone[0]["cycles"] + alone[1]["cycles"]
    check(end_own < serial, f"overlap finishes sooner than one after the other: {end_own} < {serial} cycles")


def determinism(tmp):
    with open(os.path.join(tmp, "in.bin"), "wb") as f:
        f.write(struct.pack("<1024I", *range(1024)))
    outs = []
    for i in range(2):
        r = run([k("scratch_chase.O2.w32.hsaco"), "--groups", "64", "--block", "256", "--arg", "in:in.bin",
                 "--arg", f"out:o{i}.bin:65536", "--arg", "u32:32", "--trace", f"t{i}.json", "--svg", f"t{i}.svg",
                 "--async", k("lds_reduce.O2.w32.hsaco"), "--kernel", "lds_reduce", "--groups", "4", "--block", "256",
                 "--arg", "in:in.bin", "--arg", f"out:l{i}.bin:16"], tmp)
        for d in r["dispatches"]:
            d.pop("host_seconds")
        outs.append((json.dumps(r), *[open(os.path.join(tmp, f"{n}{i}.{e}"), "rb").read()
                                      for n, e in (("o", "bin"), ("l", "bin"), ("t", "json"), ("t", "svg"))]))
    check(outs[0] == outs[1], "two runs give the same figures, bytes, trace and chart")
    trace = json.loads(outs[0][3])
    slots = {(e["pid"], e["tid"]) for e in trace["traceEvents"] if e.get("ph") == "X"}
    check(len(slots) > 1 and any(e.get("ph") == "C" for e in trace["traceEvents"]),
          f"the trace has a track per wave slot ({len(slots)} used) and occupancy counters")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        name = CHECK[0]
        if name == "roofline-fma":
            roofline_fma(tmp, CHECK[1])
        elif name == "roofline-copy":
            roofline_copy(tmp, CHECK[1])
        elif name == "occupancy":
            occupancy(tmp)
        elif name == "scratch-scaling":
            scratch_scaling(tmp)
        elif name == "async-overlap":
            async_overlap(tmp)
        elif name == "determinism":
            determinism(tmp)
        elif name == "ray-rate":
            ray_rate(tmp, CHECK[1])
        else:
            raise SystemExit(f"unknown check {name}")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


sys.exit(main())
