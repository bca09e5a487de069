#!/usr/bin/env python3
"""LDS bank conflicts end to end (docs/hardware.md section 8, "LDS banks").

kernels/model/lds_banks.cl: lane l reads word (l * stride + 32 * i) mod 1024
of a tile, 64 times. By the rule (32 dword-wide banks; a ds_read_b32 serves
the 32 lanes of a pass in one phase; a phase takes as many clocks as its
busiest bank holds distinct words):
  - stride 32: every lane of a pass in one bank, 32 words: 32 clocks a read,
    31 of them conflict cycles; a wave64 has two passes, 62;
  - stride 33 (the tile padded by a word a row): lane l in bank l, none.
Checked from `xs12 run --timing --counters`: the conflict cycles exactly;
in `--profile`, each ds_read's share of them (31 or 62 an issue), adding up
to the counter;
the dispatch at least as long as its reads' bus clocks with the conflicts,
and shorter than that without; the results equal a CPU reference.
usage: lds_banks.py XS12 KERNEL_DIR
"""
import json, os, struct, subprocess, sys, tempfile

xs12, kdir = sys.argv[1], sys.argv[2]
ITERS = 64


def main():
    failures = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        for lanes in (32, 64):
            cycles = {}
            for stride in (32, 33):
                out, cnt, prof = os.path.join(tmp, "o.bin"), os.path.join(tmp, "c.json"), os.path.join(tmp, "p.json")
                p = subprocess.run([xs12, "run", os.path.join(kdir, f"lds_banks.O2.w{lanes}.hsaco"), "--groups", "1",
                                    "--block", str(lanes), "--arg", f"out:{out}:{4 * lanes}", "--arg", f"u32:{stride}",
                                    "--arg", f"u32:{ITERS}", "--timing", "--counters", cnt, "--profile", prof],
                                   capture_output=True, text=True)
                if p.returncode:
                    check(False, f"wave{lanes} stride {stride}: xs12 run: {p.stderr.strip()}")
                    continue
                d = json.load(open(cnt))["dispatches"][0]
                c, passes = d["counters"], lanes // 32
                want = ITERS * 31 * passes if stride == 32 else 0
                check(c["lds_bank_conflict_cycles"] == want,
                      f"wave{lanes} stride {stride}: {c['lds_bank_conflict_cycles']} bank-conflict cycles, the rule says {want}")
                cycles[stride] = d["cycles"]
                k = json.load(open(prof))["kernels"][0]
                per = {x["text"]: (x.get("lds_bank_conflict_cycles", 0), x["issues"])
                       for x in k["instructions"] if x.get("lds_bank_conflict_cycles") or x["text"].startswith("ds_")}
                reads = {t: v for t, v in per.items() if t.startswith("ds_read")}
                ok = bool(reads) and all(c == (want // ITERS) * n for c, n in reads.values()) and \
                    sum(c for c, _ in per.values()) == k["lds_bank_conflict_cycles"] == want
                check(ok, f"wave{lanes} stride {stride}: the profile puts {want // ITERS} conflict clocks an issue "
                          f"on each ds_read and none elsewhere" + ("" if ok else f": {per}"))
                got = struct.unpack(f"<{lanes}I", open(out, "rb").read())
                ref = tuple(sum(((l % 32) * stride + 32 * i) % 1024 for i in range(ITERS)) for l in range(lanes))
                check(got == ref, f"wave{lanes} stride {stride}: results equal the CPU's")
            if len(cycles) == 2:
                bus = ITERS * 32 * (lanes // 32)  # the reads' clocks on the (serial) LDS bus at stride 32
                check(cycles[32] >= bus > cycles[33],
                      f"wave{lanes}: {cycles[32]} cycles with conflicts >= {bus} bus clocks > {cycles[33]} without")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
