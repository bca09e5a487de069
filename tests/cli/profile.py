#!/usr/bin/env python3
"""xs12 run --profile and --counters as a user reads them.

  profile.py XS12 KERNEL_DIR

  * an LDS-bound kernel (lds_stream) on the direct queue and a scratch
    kernel (private_spill) on the compute queue at once: the JSON profile
    has both kernels, each with its top stall (lgkmcnt; the scratch loads'
    vmcnt), instructions that add up to the run's wave instructions, and
    the dispatches on their queues; the text profile leads with hot spots;
  * --counters: the CSV has a row per dispatch and per queue whose figures
    are the --json "counters" of the same run; the JSON file the same;
  * --profile with --functional is a usage error that says why;
  * --repeat 2 (the bench's warm measurement) reports the second dispatch:
    same wave instructions and output bytes as one run; with --profile it
    is refused (the profile would hold both runs).
"""
import csv, json, os, struct, subprocess, sys, tempfile

XS12, KDIR = os.path.abspath(sys.argv[1]), sys.argv[2]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    n = 52 * 256
    open(os.path.join(tmp, "in.bin"), "wb").write(struct.pack(f"<{n}I", *range(n)))
    lds = os.path.join(KDIR, "lds_stream.O2.w32.hsaco")
    spill = os.path.join(KDIR, "private_spill.O2.w32.hsaco")

    def run(*extra):
        return subprocess.run([XS12, "run", lds, "--groups", "104", "--block", "256", "--arg", "out:o.bin:128K",
                               *extra, "--async", spill, "--groups", "52", "--block", "256", "--arg", "in:in.bin",
                               "--arg", f"out:p.bin:{n * 4}", "--arg", f"u32:{n}"],
                              cwd=tmp, capture_output=True, text=True)

    p = run("--title-scratch", "416", "--profile", "p.json", "--counters", "c.csv", "--json")
    check(p.returncode == 0, "the profiled run succeeds " + p.stderr.strip()[-300:])
    out = json.loads(p.stdout)
    prof = json.load(open(os.path.join(tmp, "p.json")))
    check(prof["format"] == "xs12-profile-1" and prof["mode"] == "timing", "the profile's format and mode")
    kernels = {k["name"]: k for k in prof["kernels"]}
    check(set(kernels) == {"lds_stream", "private_spill"}, "both kernels profiled: %s" % sorted(kernels))
    check(kernels.get("lds_stream", {}).get("top_stall") == "lgkmcnt", "lds_stream waits on lgkmcnt")
    check(kernels.get("private_spill", {}).get("top_stall") == "vmcnt",
          "private_spill waits on vmcnt (its scratch loads): %s" % kernels.get("private_spill", {}).get("top_stall"))
    for d in out["dispatches"]:
        k = kernels.get(d["kernel"], {"instructions": []})
        issues = sum(i["issues"] for i in k["instructions"])
        check(issues == d["wave_instructions"], "%s: issues add up to the run's %d wave instructions (%d)"
              % (d["kernel"], d["wave_instructions"], issues))
        hot = [k["instructions"][i]["cycles"] for i in k.get("hot", [])]
        check(hot == sorted(hot, reverse=True) and len(hot) > 0, "%s: hot spots by cycles" % d["kernel"])
    queues = sorted((d["kernel"], d["queue"]) for d in prof["dispatches"])
    check(queues == [("lds_stream", 0), ("private_spill", 1)], "dispatches on their queues: %s" % queues)
    series = prof["occupancy"]["series"]
    check(len(series) == 2 and max(max(s["waves"]) for s in series) > 0, "occupancy over time per queue")

    # counters: CSV rows = the --json counters of the same run
    rows = list(csv.DictReader(open(os.path.join(tmp, "c.csv"))))
    check([r["scope"] for r in rows] == ["dispatch", "dispatch", "queue", "queue"],
          "a row per dispatch and per queue: %s" % [r["scope"] for r in rows])
    for r, d in zip(rows, out["dispatches"]):
        c = d["counters"]
        same = (int(r["l0_hits"]) == c["l0"]["hits"] and int(r["l2_misses"]) == c["l2"]["misses"]
                and int(r["lds_bytes"]) == c["lds_bytes"] and int(r["scratch_read_bytes"]) == c["scratch"]["read_bytes"]
                and int(r["insts_valu"]) == c["instructions"]["valu"])
        check(same, "%s: the CSV row is the JSON's counters" % d["kernel"])
    check(int(rows[0]["lds_bytes"]) > 0 and int(rows[0]["scratch_read_bytes"]) == 0, "lds_stream: LDS bytes, no scratch")
    check(int(rows[1]["scratch_read_bytes"]) > 0 and int(rows[1]["scratch_write_bytes"]) > 0,
          "private_spill: scratch bytes both ways")
    check(rows[2]["queue"] == "0" and int(rows[2]["lds_bytes"]) == int(rows[0]["lds_bytes"]), "queue 0's row sums its dispatch")

    p = run("--profile", "p.txt", "--counters", "c.json")
    check(p.returncode == 0, "the text profile run succeeds " + p.stderr.strip()[-300:])
    text = open(os.path.join(tmp, "p.txt")).read()
    check("== lds_stream:" in text and "hot spots:" in text and "annotated:" in text, "the text profile's sections")
    check(text.index("hot spots:") < text.index("annotated:"), "hot spots come first")
    cj = json.load(open(os.path.join(tmp, "c.json")))
    check(len(cj["dispatches"]) == 2 and len(cj["queues"]) == 2, "the counters JSON has dispatches and queues")

    p = subprocess.run([XS12, "run", lds, "--groups", "1", "--block", "256", "--arg", "out:o.bin:1K",
                        "--functional", "--profile", "p.json"], cwd=tmp, capture_output=True, text=True)
    check(p.returncode == 2 and "timing model" in p.stderr, "--profile --functional is refused: " + p.stderr.strip())
    # a functional run's counters: its cycles are issue counts, so the CSV's
    # microseconds and bandwidth are empty in every row, as --json's null
    p = subprocess.run([XS12, "run", lds, "--groups", "1", "--block", "256", "--arg", "out:o.bin:1K",
                        "--functional", "--counters", "f.csv", "--json"], cwd=tmp, capture_output=True, text=True)
    frows = list(csv.DictReader(open(os.path.join(tmp, "f.csv")))) if p.returncode == 0 else []
    check(json.loads(p.stdout)["microseconds"] is None and [r["scope"] for r in frows] == ["dispatch", "queue"] and
          all(r["microseconds"] == "" and r["dram_gbps"] == "" for r in frows),
          "--functional --counters: no microseconds or bandwidth in the CSV, as in --json: %s" %
          [(r["scope"], r["microseconds"], r["dram_gbps"]) for r in frows])

    def alone(*extra):
        p = subprocess.run([XS12, "run", lds, "--groups", "104", "--block", "256", "--arg", "out:o.bin:128K",
                            "--json", *extra], cwd=tmp, capture_output=True, text=True)
        return p, open(os.path.join(tmp, "o.bin"), "rb").read() if p.returncode == 0 else b""
    for mode in ("--functional", "--timing"):
        (p1, o1), (p2, o2) = alone(mode), alone(mode, "--repeat", "2")
        check(p1.returncode == 0 and p2.returncode == 0, mode + " --repeat 2 runs " + p2.stderr.strip()[-300:])
        if p1.returncode == 0 and p2.returncode == 0:
            a, b = json.loads(p1.stdout), json.loads(p2.stdout)
            check(a["wave_instructions"] == b["wave_instructions"] and o1 == o2 and len(o1) == 128 << 10,
                  mode + " --repeat 2: the second run's instructions and bytes are one run's")
    p = subprocess.run([XS12, "run", lds, "--groups", "1", "--block", "256", "--arg", "out:o.bin:1K",
                        "--repeat", "2", "--profile", "p.json"], cwd=tmp, capture_output=True, text=True)
    check(p.returncode == 2 and "--repeat 2" in p.stderr, "--repeat with --profile is refused: " + p.stderr.strip())

    # The bytes counted are the bytes the lanes asked for, however the
    # run-ahead windows fall: scratch_chase's wave (32 lanes) reads 64 input
    # dwords, then S private dwords in its chase (buffer_load_dword, the
    # only private loads), and stores 64 private and 1 output dword a lane.
    # With S = 200 its gathers fill a window's lines and an instruction waits
    # for the next window, which counted its bytes twice (3 % high).
    open(os.path.join(tmp, "in4k.bin"), "wb").write(struct.pack("<1024I", *range(1024)))
    S, waves = 200, 4 * 256 // 32
    p = subprocess.run([XS12, "run", os.path.join(KDIR, "scratch_chase.O2.w32.hsaco"), "--groups", "4",
                        "--block", "256", "--arg", "in:in4k.bin", "--arg", "out:sc.bin:4K", "--arg", f"u32:{S}",
                        "--counters", "sc.json"], cwd=tmp, capture_output=True, text=True)
    check(p.returncode == 0, "scratch_chase runs with --counters " + p.stderr.strip()[-200:])
    if p.returncode == 0:
        c = json.load(open(os.path.join(tmp, "sc.json")))["dispatches"][0]["counters"]
        want = {"scratch read": waves * S * 128, "vmem read": waves * (64 + S) * 128, "vmem write": waves * 65 * 128}
        got = {"scratch read": c["scratch"]["read_bytes"], "vmem read": c["vmem"]["read_bytes"],
               "vmem write": c["vmem"]["write_bytes"]}
        check(got == want, f"scratch_chase S={S}: bytes as the lanes asked: {got} (want {want})")

    # Sub-dword accesses count their own bytes: mem_subdword's lane loads a
    # dwordx2, a short_d16_hi, a ubyte and four ushorts (19 bytes) and
    # stores a byte, a dword, a dwordx4 and two shorts (25), where every
    # access counted at least 4.
    open(os.path.join(tmp, "b16k.bin"), "wb").write(bytes(range(256)) * 64)
    p = subprocess.run([XS12, "run", os.path.join(KDIR, "memory.O2.w32.hsaco"), "--kernel", "mem_subdword",
                        "--groups", "4", "--block", "256"] + ["--arg", "in:b16k.bin"] * 4 +
                       ["--arg", "out:ob.bin:4K", "--arg", "out:os.bin:8K", "--arg", "out:oi.bin:16K",
                        "--counters", "sub.json"], cwd=tmp, capture_output=True, text=True)
    check(p.returncode == 0, "mem_subdword runs with --counters " + p.stderr.strip()[-200:])
    if p.returncode == 0:
        v = json.load(open(os.path.join(tmp, "sub.json")))["dispatches"][0]["counters"]["vmem"]
        check((v["read_bytes"], v["write_bytes"]) == (1024 * 19, 1024 * 25),
              f"mem_subdword: {v['read_bytes']} bytes read, {v['write_bytes']} written (want 19456, 25600)")

    # A ray intersection counts the nodes its lanes read: ray_peak's lane
    # runs 128 image_bvh64_intersect_ray, all on one node, a box32 (128
    # bytes: 16 KiB a lane) or a triangle (64: 8 KiB), and stores one dword;
    # they counted 4 bytes a lane each. One line an instruction for the
    # caches (a wave's lanes read one node).
    box = struct.pack("<4I", 0x105, 0x205, 0x305, 0x405)
    for i in range(4):
        box += struct.pack("<6f", -4.0 - i, -4.0, -1.0, 4.0 + i, 4.0, 1.0 + i)
    tri = struct.pack("<9f", -4.0, -4.0, 1.0, 4.0, -4.0, 1.0, 0.0, 4.0, 1.0) + bytes(28)
    open(os.path.join(tmp, "bvh.bin"), "wb").write(box + bytes(128 - len(box)) + tri)
    for node, what, node_bytes in ((5, "box32", 128), (16, "triangle", 64)):
        p = subprocess.run([XS12, "run", os.path.join(KDIR, "ray_peak.O2.w32.hsaco"), "--groups", "2",
                            "--block", "256", "--arg", "in:bvh.bin", "--arg", "out:ray.bin:2K",
                            "--arg", f"u32:{node}", "--counters", "ray.json"], cwd=tmp, capture_output=True, text=True)
        check(p.returncode == 0, "ray_peak runs with --counters " + p.stderr.strip()[-200:])
        if p.returncode == 0:
            c = json.load(open(os.path.join(tmp, "ray.json")))["dispatches"][0]["counters"]
            got = (c["vmem"]["read_bytes"], c["vmem"]["write_bytes"], c["l0"]["hits"] + c["l0"]["misses"])
            want = (512 * 128 * node_bytes, 512 * 4, 16 * 128)
            check(got == want, f"ray_peak on a {what} node: bytes read, written, L0 lines {got} (want {want})")

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
