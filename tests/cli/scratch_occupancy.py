#!/usr/bin/env python3
"""`xs12 info` reports the scratch ring's limit, held against runs.

  scratch_occupancy.py XS12 KERNEL_DIR

private_spill spills 9 KB per wave; its VGPRs, LDS and group size allow 16
waves per SIMD. With the ring as the only limit:
  * info says limiter 'scratch' and slots / SIMDs waves per SIMD on average;
  * a long dispatch's measured peak of scratch waves equals the ring's slots;
  * its time-averaged waves per SIMD comes within 10 % of slots / SIMDs
    (the peak per SIMD may be higher: the ring is one pool for the chip);
  * info's hint (slots for full occupancy) lets the run reach what the other
    limits allow.
Rings: the driver default (S1.8), --scratch-waves, --title-scratch, on both
machines.
"""
import json, os, struct, subprocess, sys, tempfile

XS12, KDIR = os.path.abspath(sys.argv[1]), sys.argv[2]
KERNEL = os.path.join(KDIR, "private_spill.O2.w32.hsaco")
MARGIN = 0.10
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def info(*extra):
    p = subprocess.run([XS12, "info", "--json", KERNEL, *extra], capture_output=True, text=True)
    return json.loads(p.stdout)["kernels"][0]


with tempfile.TemporaryDirectory() as tmp:
    n = 256 * 256
    open(os.path.join(tmp, "in.bin"), "wb").write(struct.pack(f"<{n}I", *range(n)))
    for machine, simds in (("seriesx", 104), ("seriess", 40)):
        for ring in ([], ["--scratch-waves", "120"], ["--title-scratch", "320"]):
            label = f"{machine} {' '.join(ring) or 'default ring'}"
            ki = info("--machine", machine, *ring)
            o, r = ki["occupancy"], ki["scratch_ring"]
            slots = r["usable_slots"]
            check(o["limiter"] == "scratch" and abs(o["scratch_waves_per_simd"] - slots / simds) < 1e-3,
                  f"{label}: info: limiter {o['limiter']}, {o['scratch_waves_per_simd']:.2f} waves per SIMD "
                  f"= {slots} slots / {simds} SIMDs")
            p = subprocess.run([XS12, "run", KERNEL, "--groups", "256", "--block", "256", "--arg", "in:in.bin",
                                "--arg", f"out:o.bin:{n * 4}", "--arg", f"u32:{n}", "--machine", machine, "--json",
                                *ring], cwd=tmp, capture_output=True, text=True)
            if p.returncode:
                check(False, f"{label}: run: {p.stderr.strip()[:200]}")
                continue
            s = json.loads(p.stdout)
            check(s["peak_scratch_slots"] == slots and s["scratch_waves"] == r["slots"],
                  f"{label}: peak {s['peak_scratch_slots']} scratch waves = the ring's {slots} slots")
            avg, want = s["avg_waves_per_simd"], slots / simds
            check(abs(avg - want) <= MARGIN * want,
                  f"{label}: {avg:.2f} waves per SIMD on average, within {MARGIN:.0%} of {want:.2f} "
                  f"(peak per SIMD {s['peak_waves_per_simd']})")
        # the hint's ring reaches the other limits' occupancy
        ki = info("--machine", machine)
        full = ki["hints"]["scratch_slots_for_full_occupancy"]
        p = subprocess.run([XS12, "run", KERNEL, "--groups", "1024", "--block", "256", "--arg", "in:in.bin",
                            "--arg", f"out:o.bin:{4 * n * 4}", "--arg", f"u32:{n}", "--machine", machine, "--json",
                            "--title-scratch", str(full)], cwd=tmp, capture_output=True, text=True)
        s = json.loads(p.stdout) if p.returncode == 0 else {}
        check(s.get("peak_waves_per_simd") == 16 and s.get("peak_waves_in_flight") == 16 * simds,
              f"{machine}: the hint's {full} slots reach 16 waves per SIMD: peak {s.get('peak_waves_per_simd')}")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
