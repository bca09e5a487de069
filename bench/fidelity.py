#!/usr/bin/env python3
"""xs12's timing model against published RDNA2 / Xbox Series X figures.

usage: fidelity.py BUILD [--write FILE] [--check FILE] [--tolerance PCT]

Runs the microbenchmarks of kernels/fidelity/ (built into BUILD/kernels) on the
Series X model in timing mode with BUILD/tools/xs12, computes each figure from
the measured cycles and prints the table of docs/fidelity.md.
  --write FILE   writes the whole document (docs/fidelity.md) to FILE
  --check FILE   exit 1 when a row with a published figure is more than
                 PCT % (default 20) off, or when FILE differs from what
                 --write would produce (the document is generated)

Every figure is a difference of two runs that differ only in the work they do
(N1 and N2 steps, or G1 and G2 groups), so the dispatch's start, the first
touch of the data and the drain of the last waves cancel out.
"""
import array, json, os, random, subprocess, sys, tempfile

CLK = 1825e6                 # Series X shader clock, Hz (Hot Chips 2020)
CUS = 52                     # Series X active CUs (Hot Chips 2020)
LINE = 128                   # bytes between chained pointers: one cache line

SRC_HC = ("Hot Chips 2020, Xbox Series X System Architecture (AnandTech live blog, "
          "https://www.anandtech.com/show/15994/)")
SRC_CC = ("Chips and Cheese, Measuring GPU Memory Latency, 2021-04-16 "
          "(https://chipsandcheese.com/2021/04/16/measuring-gpu-memory-latency/)")
SRC_RDNA = "AMD RDNA whitepaper (2019), RDNA 2 ISA guide (2020), as cited in issue 13"
NONE = "no public figure"


class Runner:
    def __init__(self, build, tmp):
        self.xs12 = os.path.join(build, "tools", "xs12")
        self.kdir = os.path.join(build, "kernels")
        self.tmp = tmp

    def run(self, kernel, name, groups, block, args, extra=()):
        cmd = [self.xs12, "run", "--json", "--machine", "seriesx", "--timing",
               os.path.join(self.kdir, kernel + ".hsaco"), "--kernel", name,
               "--groups", str(groups), "--block", str(block)]
        for a in args:
            cmd += ["--arg", a]
        cmd += list(extra)
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=self.tmp)
        if p.returncode:
            raise SystemExit(f"fidelity: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
        r = json.loads(p.stdout)
        if not r.get("ok", False) or r.get("mode") != "timing":
            raise SystemExit(f"fidelity: {name}: not a timing run: {p.stdout[:200]}")
        return r["cycles"]

    def chain_file(self, fname, lines, seed):
        """A cycle through `lines` lines in random order: the first dword
        of each line holds the byte offset of the next line."""
        order = list(range(1, lines))
        random.Random(seed).shuffle(order)
        order = [0] + order
        nxt = [0] * lines
        for i in range(lines):
            nxt[order[i]] = order[(i + 1) % lines] * LINE
        buf = array.array("I", bytes(lines * LINE))
        buf[0::LINE // 4] = array.array("I", nxt)
        with open(os.path.join(self.tmp, fname), "wb") as f:
            buf.tofile(f)

    def data_file(self, fname, nbytes):
        with open(os.path.join(self.tmp, fname), "wb") as f:
            f.write(random.Random(7).randbytes(nbytes))


def per_step(r, kernel, name, groups, block, args_of, n1, n2, extra=()):
    """Cycles per step from two runs of n1 and n2 steps."""
    c1 = r.run(kernel, name, groups, block, args_of(n1), extra)
    c2 = r.run(kernel, name, groups, block, args_of(n2), extra)
    return (c2 - c1) / (n2 - n1)


def ns(cycles):
    return cycles / CLK * 1e9


def measure(r):
    rows = []   # (section, measure, unit, model, published or None, source, how)

    # ---- latency: pointer chasing, one lane ------------------------------------
    def chase(kernel, name, ws_bytes, n1, n2, scalar=False, seed=1):
        lines = ws_bytes // LINE
        fname = f"chain{ws_bytes}.bin"
        if not os.path.exists(os.path.join(r.tmp, fname)):
            r.chain_file(fname, lines, seed)
        if scalar:
            args = lambda n: [f"in:{fname}", "out:o.bin:4", f"u32:{n}", "u32:0"]
        else:
            args = lambda n: [f"in:{fname}", "out:o.bin:4", f"u32:{n}"]
        return per_step(r, kernel, name, 1, 1, args, n1, n2)

    k = "fidelity_mem_chase.O2.w32"
    c = chase(k, "chase_v", 8 << 10, 256, 1280)
    rows.append(("latency", "vector load, L0 hit (8 KB chain)", "ns", ns(c), None, NONE,
                 f"{c:.1f} cycles a step"))
    c = chase(k, "chase_v", 1 << 20, 8192, 16384)
    rows.append(("latency", "vector load, L2 hit (1 MB chain)", "ns", ns(c), 66.0,
                 SRC_CC + ": RX 6800 XT, L2 about 66 ns from L0", f"{c:.1f} cycles a step"))
    c = chase(k, "chase_v", 32 << 20, 1024, 5120)
    rows.append(("latency", "vector load, DRAM (32 MB chain, first touch)", "ns", ns(c), 226.0,
                 SRC_CC + ": RX 6900 XT, GDDR6 about 226 ns", f"{c:.1f} cycles a step"))
    c = chase(k, "chase_s", 8 << 10, 256, 1280, scalar=True)
    rows.append(("latency", "scalar load (8 KB chain)", "ns", ns(c), None, NONE,
                 f"{c:.1f} cycles a step"))

    # ---- bandwidth: streaming reads, one wave per group ------------------------
    def stream(w, wrap, stride, groups, n1, n2, fname, nbytes):
        kernel = f"fidelity_mem_stream.O2.w{w}"
        block_bytes = 8 * w * 16
        if not os.path.exists(os.path.join(r.tmp, fname)):
            r.data_file(fname, nbytes)
        args = lambda n: [f"in:{fname}", f"out:o.bin:{groups * w * 4}", f"u32:{n}", f"u32:{wrap}",
                          f"u32:{stride}"]
        cyc = per_step(r, kernel, "stream_rd", groups, w, args, n1, n2)
        return groups * block_bytes / cyc      # bytes per clock, chip-wide

    bpc = stream(32, 2, 0, CUS * 16, 32, 96, "l0.bin", 2 * 4096)
    rows.append(("bandwidth", "vector L0 (8 KB per CU, 16 waves per CU)", "B/clk/CU", bpc / CUS, None,
                 NONE, f"{bpc * CLK / 1e9:.0f} GB/s chip-wide"))
    bpc = stream(32, 512, 37, CUS * 16, 32, 96, "l2.bin", 512 * 4096)
    rows.append(("bandwidth", "L2 (2 MB working set)", "GB/s", bpc * CLK / 1e9, None, NONE,
                 f"{bpc:.0f} B/clk chip-wide"))
    groups, steps = CUS * 8, 48
    bpc = stream(32, 1 << 15, steps, groups, 16, steps, "dram.bin", groups * steps * 4096)
    rows.append(("bandwidth", "DRAM (78 MB, each byte read once)", "GB/s", bpc * CLK / 1e9, 560.0,
                 SRC_HC + ": 14 Gbps GDDR6, 320-bit = 560 GB/s peak", f"{bpc:.0f} B/clk chip-wide"))

    # ---- LDS -------------------------------------------------------------------
    r.data_file("lds.bin", 16384)
    c = per_step(r, "fidelity_lds.cu.O2.w32", "lds_chase", 1, 32,
                 lambda n: ["in:lds.bin", "out:o.bin:128", f"u32:{n}"], 256, 1280)
    rows.append(("LDS", "ds_read_b32 dependent chain", "ns", ns(c), None, NONE, f"{c:.1f} cycles a step"))
    for mode, kern, pub, src in (
            ("CU", "fidelity_lds.cu.O2.w32", 128.0, SRC_RDNA + ": LDS 128 bytes per clock per CU (docs/spec.md S3.6)"),
            ("WGP", "fidelity_lds.O2.w32", None, NONE + " (xs12 rule S3.6: one 128 B/clk bus per WGP)")):
        groups = CUS * 4
        cyc = per_step(r, kern, "lds_stream", groups, 256,
                       lambda n: ["in:lds.bin", f"out:o.bin:{groups * 256 * 4}", f"u32:{n}"], 16, 48)
        bpc = groups * 256 * 16 * 8 / cyc / CUS
        rows.append(("LDS", f"ds_read_b128 bandwidth, {mode} mode", "B/clk/CU", bpc, pub, src,
                     f"{groups} groups of 256"))

    # ---- VALU throughput ---------------------------------------------------------
    def valu(name, w, args):
        kernel = f"fidelity_valu.O2.w{w}"
        g1, g2 = CUS * 4, CUS * 12
        cyc = {}
        for g in (g1, g2):
            cyc[g] = r.run(kernel, name, g, 256, [f"out:o.bin:{g * 256 * 8}"] + args)
        return (g2 - g1) * 256 * 2048 / (cyc[g2] - cyc[g1]) / CUS   # lane-ops per clock per CU

    for name, cls, w, args, pub, src in (
            ("valu_fma", "FP32 FMA (v_fma_f32)", 32, ["f32:0.999", "f32:0.001"], 64.0,
             SRC_HC + ": 52 CUs, 1.825 GHz, 12 TFLOPS (12.15 = 52 x 64 lanes x 2 x 1.825 GHz)"),
            ("valu_fma", "FP32 FMA (v_fma_f32)", 64, ["f32:0.999", "f32:0.001"], 64.0,
             SRC_HC + ": 52 CUs, 1.825 GHz, 12 TFLOPS (12.15 = 52 x 64 lanes x 2 x 1.825 GHz)"),
            ("valu_trans", "transcendental (v_exp_f32)", 32, ["f32:0.001"], 16.0,
             SRC_RDNA + ": transcendentals at a quarter of the FP32 rate"),
            ("valu_trans", "transcendental (v_exp_f32)", 64, ["f32:0.001"], 16.0,
             SRC_RDNA + ": transcendentals at a quarter of the FP32 rate"),
            ("valu_fp64", "FP64 FMA (v_fma_f64)", 32, ["f64:0.999", "f64:0.001"], 4.0,
             SRC_RDNA + ": FP64 at 1/16 of the FP32 rate on Navi 2x"),
            ("valu_int", "INT32 (v_xad_u32)", 32, ["u32:12345", "u32:678"], 64.0,
             SRC_RDNA + ": 32-bit integer add/logic at the full FP32 rate")):
        v = valu(name, w, args)
        rows.append(("VALU", f"{cls}, wave{w}", "lanes/clk/CU", v, pub, src,
                     f"{v * CUS * CLK / 1e9:.0f} G lane-ops/s chip-wide"))

    # ---- scratch -------------------------------------------------------------------
    r.data_file("scr.bin", 4096)
    c = per_step(r, "fidelity_scratch.O2.w32", "scratch_lat", 1, 32,
                 lambda n: ["in:scr.bin", "out:o.bin:128", f"u32:{n}"], 256, 1280)
    rows.append(("scratch", "private array, dependent chain", "ns", ns(c), None, NONE,
                 f"{c:.1f} cycles a step"))
    groups = CUS * 4   # the driver's default ring: 4 slots per CU (S1.8), 1.9 MB, fits the L2
    cyc = per_step(r, "fidelity_scratch.O2.w32", "scratch_bw", groups, 32,
                   lambda n: ["in:scr.bin", f"out:o.bin:{groups * 128}", f"u32:{n}"], 64, 192)
    bpc = groups * 32 * 4 * 8 / cyc / CUS
    rows.append(("scratch", "private array, independent reads (default ring, 4 waves per CU)", "B/clk/CU",
                 bpc, None, NONE, f"{groups} waves"))
    return rows


def diff(model, pub):
    return None if pub is None else 100.0 * (model - pub) / pub


def fmt(v):
    return "—" if v is None else (f"{v:.0f}" if abs(v) >= 100 else f"{v:.1f}")


def table(rows):
    out = ["| measure | model | published | source | difference % |", "|---|---|---|---|---|"]
    for sec, m, unit, model, pub, src, how in rows:
        d = diff(model, pub)
        out.append(f"| {sec}: {m} [{unit}] | {fmt(model)} ({how}) | {fmt(pub)} | {src} | "
                   f"{'—' if d is None else f'{0.0 if abs(d) < 0.05 else d:+.1f}'} |")
    return "\n".join(out) + "\n"


def document(rows):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "fidelity_doc.md")) as f:
        tmpl = f.read()
    return tmpl.replace("@TABLE@", table(rows))


def main(argv):
    if len(argv) < 1 or argv[0].startswith("-"):
        raise SystemExit(__doc__)
    build, write, check, tol = os.path.abspath(argv[0]), None, None, 20.0
    i = 1
    while i < len(argv):
        if argv[i] in ("--write", "--check", "--tolerance") and i + 1 < len(argv):
            if argv[i] == "--write":
                write = argv[i + 1]
            elif argv[i] == "--check":
                check = argv[i + 1]
            else:
                tol = float(argv[i + 1])
            i += 2
        else:
            raise SystemExit(f"fidelity: unknown argument '{argv[i]}'\n" + __doc__)
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(Runner(build, tmp))
    sys.stdout.write(table(rows))
    doc = document(rows)
    if write:
        with open(write, "w") as f:
            f.write(doc)
    if check:
        bad = 0
        for sec, m, unit, model, pub, src, how in rows:
            d = diff(model, pub)
            if d is not None and abs(d) > tol:
                print(f"FAIL {sec}: {m}: model {fmt(model)} {unit}, published {fmt(pub)}: {d:+.1f} % "
                      f"(more than {tol:.0f} %)")
                bad += 1
        with open(check) as f:
            if f.read() != doc:
                print(f"FAIL {check} is out of date: regenerate it with "
                      f"`bench/fidelity.py BUILD --write {check}` (make fidelity)")
                bad += 1
        print(f"fidelity: {len(rows)} rows, {sum(1 for x in rows if x[4] is not None)} with a published "
              f"figure, {bad} failure(s)")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
