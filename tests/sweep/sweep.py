#!/usr/bin/env python3
"""`xs12 sweep` held against `xs12 run` of each of its points.

  sweep.py XS12 KERNEL_DIR

On private_spill (9 KB of scratch per wave), a grid over the driver ring's
slots, 8 / 208 / 416 / 1664, plus 5000, which breaks S1.13 (at most 32 slots
per CU):
  * each row's figures are those `xs12 run --json` gives for that point alone
    (the outside oracle: the run command), its counters too (caches, DRAM,
    scratch, LDS); the error row carries run's message;
  * the best row (marked in the table, "best" in JSON) is the point run
    measures fastest, and the margin is the next one's time over the best's;
  * --jobs 1 and --jobs 2 print the same bytes (table, JSON, CSV, SVG);
  * CSV and SVG hold the same rows; the SVG is well-formed with one bar
    highlighted;
  * a grid of two settings is their product, the first --vary outermost;
  * a usage error common to every point is the command's (exit 2, once);
  * a recording (run --record) swept by --override COMPUTE_TMPRING_SIZE.WAVES
    shows the ring's slots in its peak scratch slots and measures what
    `xs12 run --scratch-waves` does; broken settings are error rows;
  * run's options with a value (--repeat N) are not taken for FILE; --profile
    and --counters (one file for every point) are refused; block= values in
    hex (0x100) keep their 0x;
  * --slurm against a stand-in sbatch: a --slurm-dir holding '%' reaches
    sbatch -o escaped, and a grid line over 8 KiB is read whole;
  * --csv and --svg that cannot be written (ulimit -f 0) leave the files
    they replace as they were; a table to a full stdout exits 1.
"""
import csv, json, os, struct, subprocess, sys, tempfile
import xml.etree.ElementTree as ET

XS12, KDIR = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
KERNEL = os.path.join(KDIR, "private_spill.O2.w32.hsaco")
N = 256 * 256
BASE = ["--groups", "256", "--block", "256", "--arg", "in:in.bin", "--arg", f"out:o.bin:{N * 4}", "--arg", f"u32:{N}"]
SLOTS = ["8", "208", "416", "1664", "5000"]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def xs(*args, cwd):
    return subprocess.run([XS12, *args], cwd=cwd, capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    open(os.path.join(tmp, "in.bin"), "wb").write(struct.pack(f"<{N}I", *range(N)))
    grid = ["sweep", KERNEL, *BASE, "--vary", "scratch-waves=" + ",".join(SLOTS)]
    p = xs(*grid, "--json", "--jobs", "2", cwd=tmp)
    check(p.returncode == 0, f"sweep --json exit 0 (got {p.returncode}: {p.stderr.strip()[:300]})")
    sw = json.loads(p.stdout)
    pts = sw["points"]
    check([q["setting"]["scratch-waves"] for q in pts] == SLOTS, "rows in grid order")

    # The oracle: xs12 run of each point, on its own.
    runs = []
    for s in SLOTS:
        r = xs("run", KERNEL, *BASE, "--scratch-waves", s, "--json", "--counters", "c.json", cwd=tmp)
        runs.append((r.returncode, json.loads(r.stdout) if r.returncode == 0 else None, r.stderr))
    keys = ["cycles", "microseconds", "waves_launched", "avg_waves_per_simd", "peak_waves_per_simd",
            "peak_waves_in_flight", "peak_scratch_slots", "scratch_waves", "wait_cycles"]
    for s, q, (rc, rj, rerr) in zip(SLOTS, pts, runs):
        if rc == 0:
            same = q["ok"] and all(q[k] == rj[k] for k in keys)
            check(same, f"scratch-waves={s}: the row's figures are run's: {q['cycles']} cycles, "
                        f"{q['microseconds']} us, peak {q['peak_scratch_slots']} of {q['scratch_waves']} slots"
                        + ("" if same else f" (run: {[(k, rj[k]) for k in keys if q.get(k) != rj[k]]})"))
            c, qc = rj["counters"], q["counters"]
            want = {"l0_hits": c["l0"]["hits"], "l0_misses": c["l0"]["misses"], "l0_hit_rate": c["l0"]["hit_rate"],
                    "l2_hits": c["l2"]["hits"], "l2_misses": c["l2"]["misses"], "l2_hit_rate": c["l2"]["hit_rate"],
                    "dram_bytes": c["dram"]["read_bytes"] + c["dram"]["write_bytes"],
                    "scratch_read_bytes": c["scratch"]["read_bytes"],
                    "scratch_write_bytes": c["scratch"]["write_bytes"], "lds_bytes": c["lds_bytes"],
                    "lds_bank_conflict_cycles": c["lds_bank_conflict_cycles"]}
            got = {k: (round(qc[k], 4) if "rate" in k else qc[k]) for k in want}
            check(got == want and qc["scratch_read_bytes"] > 0,
                  f"scratch-waves={s}: the row's counters are run's" + ("" if got == want else f": {got} vs {want}"))
        else:
            msg = rerr.splitlines()[0].removeprefix("xs12 run: ")
            check(not q["ok"] and q["error"] == msg and "S1.13" in msg,
                  f"scratch-waves={s}: an error row with run's message: {q['error']!r}")
    ok_runs = [(rj["microseconds"], i) for i, (rc, rj, _) in enumerate(runs) if rc == 0]
    ok_runs.sort()
    best, nxt = ok_runs[0][1], ok_runs[1][1]
    check(sw["best"] == best and sw["next"] == nxt,
          f"best {sw['best_setting']} and next {sw['next_setting']} are run's fastest two "
          f"({SLOTS[best]}, {SLOTS[nxt]})")
    want = (runs[nxt][1]["microseconds"] / runs[best][1]["microseconds"] - 1) * 100
    check(abs(sw["margin_percent"] - want) < 0.01, f"margin {sw['margin_percent']:.2f} % = next / best - 1 ({want:.2f} %)")
    # docs/cli.md: more slots hide latency until the private arrays no longer fit the L2
    us = {s: runs[i][1]["microseconds"] for i, s in enumerate(SLOTS) if runs[i][0] == 0}
    check(us["8"] > us["208"] > us["416"] < us["1664"],
          f"more slots are faster up to a point: {us['8']:.1f} > {us['208']:.1f} > {us['416']:.1f} < {us['1664']:.1f} us")

    # The table: the marked row, the best line.
    outs = {}
    for jobs in ("1", "2"):
        t = xs(*grid, "--jobs", jobs, "--csv", f"t{jobs}.csv", "--svg", f"t{jobs}.svg", cwd=tmp).stdout
        j = xs(*grid, "--jobs", jobs, "--json", cwd=tmp).stdout if jobs == "1" else p.stdout
        outs[jobs] = (t, j, open(os.path.join(tmp, f"t{jobs}.csv")).read(), open(os.path.join(tmp, f"t{jobs}.svg")).read())
    check(outs["1"] == outs["2"], "--jobs 1 and --jobs 2: the same table, JSON, CSV and SVG, byte for byte")
    table = outs["1"][0].splitlines()
    marked = [ln for ln in table if ln.startswith("*")]
    check(len(marked) == 1 and marked[0].split()[2] == SLOTS[best] and
          f"{runs[best][1]['microseconds']:.2f}" in marked[0].split(),
          f"the table marks one row, {SLOTS[best]} slots: {marked}")
    bl = [ln for ln in table if ln.startswith("best: ")]
    check(bl == [f"best: scratch-waves={SLOTS[best]} \u2014 {want:.1f} % faster than the next "
                 f"(scratch-waves={SLOTS[nxt]})"], f"the best line: {bl}")
    err_line = [ln for ln in table if "error:" in ln]
    check(len(err_line) == 1 and err_line[0].split()[1] == "5000", f"one error row in the table: {err_line}")

    rows = list(csv.DictReader(open(os.path.join(tmp, "t1.csv"))))
    check(len(rows) == len(SLOTS) and all(len(r) == len(rows[0]) and None not in r for r in rows) and
          [int(r["cycles"]) if r["ok"] == "1" else None for r in rows] ==
          [q["cycles"] if q["ok"] else None for q in pts] and [r["best"] for r in rows].count("1") == 1,
          "CSV: a row per point with the same cycles and one best")
    svg = ET.fromstring(outs["1"][3])
    rects = [e for e in svg.iter("{http://www.w3.org/2000/svg}rect") if e.get("height") != str(svg.get("height"))]
    texts = "".join(svg.itertext())
    check(len(rects) == 4 and sum(e.get("fill") == "#e8710a" for e in rects) == 1 and "\u00b5s" in texts,
          f"SVG: 4 bars, one highlighted, the axis in \u00b5s ({len(rects)} bars)")

    # Two settings: their product, the first outermost; launch.x replaces --block.
    p = xs("sweep", KERNEL, *BASE, "--vary", "machine=seriesx,seriess", "--vary", "launch.x=128,256", "--json",
           cwd=tmp)
    two = json.loads(p.stdout)["points"] if p.returncode == 0 else []
    check([q["label"] for q in two] == ["machine=seriesx launch.x=128", "machine=seriesx launch.x=256",
                                         "machine=seriess launch.x=128", "machine=seriess launch.x=256"],
          f"two --vary: the product in order: {[q['label'] for q in two]}")
    r = xs("run", KERNEL, *BASE, "--machine", "seriess", "--launch", "x=128", "--json", cwd=tmp)
    rj = json.loads(r.stdout) if r.returncode == 0 else {}
    check(len(two) == 4 and two[2]["cycles"] == rj.get("cycles") and two[2]["waves_launched"] == 1024,
          f"machine=seriess launch.x=128 is run --machine seriess --launch x=128: {rj.get('cycles')} cycles")

    # A usage error of every point is the command's.
    p = xs("sweep", KERNEL, "--block", "256", "--vary", "scratch-waves=8,16", cwd=tmp)
    check(p.returncode == 2 and p.stderr.count("--groups and --block") == 1 and not p.stdout,
          f"no --groups: exit 2, one message ({p.returncode}: {p.stderr.strip()[:160]})")
    p = xs("sweep", KERNEL, *BASE, "--vary", "colour=red", cwd=tmp)
    check(p.returncode == 2 and "unknown setting" in p.stderr, "--vary colour: unknown setting, exit 2")
    p = xs("sweep", KERNEL, *BASE, "--vary", "scratch-waves=8", "--async", KERNEL, cwd=tmp)
    check(p.returncode == 2 and "--async" in p.stderr, "--async refused")
    # run's options with a value: the value is not taken for FILE, and those
    # that every point would write to one file are refused
    small = ["--groups", "16", "--block", "256", "--arg", "in:in.bin", "--arg", "out:o.bin:16K", "--arg", "u32:4096"]
    p = xs("sweep", KERNEL, *small, "--repeat", "2", "--timing-threads", "1", "--vary", "scratch-waves=8,208",
           "--json", cwd=tmp)
    rs = json.loads(p.stdout)["points"] if p.returncode == 0 else []
    check(len(rs) == 2 and all(q["ok"] for q in rs),
          f"--repeat 2 --timing-threads 1: values, not FILEs ({p.returncode}: {p.stderr.strip()[:160]})")
    for opt in (["--profile=p.json"], ["--counters", "c.csv"]):
        p = xs("sweep", KERNEL, *small, *opt, "--vary", "scratch-waves=8,208", cwd=tmp)
        name = opt[0].split("=")[0]
        check(p.returncode == 2 and f"xs12 sweep: {name}: " in p.stderr and "xs12 run " + name in p.stderr and
              not os.path.exists(os.path.join(tmp, opt[-1].split("=")[-1])),
              f"{name} refused, naming xs12 run {name}: {p.stderr.strip()[:160]}")
    # options by unambiguous prefix, as run takes them: the same rows as the
    # full names; a prefix of several is a usage error naming them
    full = xs("sweep", KERNEL, *small, "--repeat", "2", "--vary", "scratch-waves=8,208", "--json", cwd=tmp)
    short = xs("sweep", KERNEL, "--gro", "16", "--blo=256", "--arg", "in:in.bin", "--ar", "out:o.bin:16K", "--arg",
               "u32:4096", "--rep", "2", "--var", "scratch-waves=8,208", "--js", cwd=tmp)
    check(full.returncode == 0 and short.returncode == 0 and json.loads(full.stdout) == json.loads(short.stdout),
          f"--gro --blo= --ar --rep --var --js: the rows of the full names ({short.returncode}: "
          f"{short.stderr.strip()[:160]})")
    p = xs("sweep", KERNEL, *small, "--t", "1", "--vary", "scratch-waves=8", cwd=tmp)
    check(p.returncode == 2 and "--t is ambiguous: " in p.stderr and "--task" in p.stderr and "--timing" in p.stderr,
          f"--t: ambiguous, exit 2 ({p.returncode}: {p.stderr.strip()[:160]})")
    p = xs("sweep", KERNEL, *small, "--prof", "p.json", "--vary", "scratch-waves=8", cwd=tmp)
    check(p.returncode == 2 and "xs12 sweep: --profile: " in p.stderr, "--prof: refused as --profile")
    # block= and groups= values in hex: 'x' joins dimensions, but not the x of 0x
    p = xs("sweep", KERNEL, *small, "--vary", "block=256,0x100,0x100x1,256x1", "--vary", "groups=0x10", "--json",
           cwd=tmp)
    rs = json.loads(p.stdout)["points"] if p.returncode == 0 else []
    check(len(rs) == 4 and all(q["ok"] and q["cycles"] == rs[0]["cycles"] for q in rs),
          f"--vary block=256,0x100,0x100x1,256x1 groups=0x10: one shape ({p.returncode}: {p.stderr.strip()[:160]}"
          f"{[q.get('error') for q in rs]})")

    # --slurm against a stand-in sbatch that runs the tasks here, as sbatch
    # would: its -o pattern expands %a, %j, %x and %% (sbatch's filename
    # patterns). The folder has '%' of its own, and the grid a line over
    # 8 KiB (u32:4096 written in octal with 9000 leading zeros).
    fake = os.path.join(tmp, "bin")
    os.mkdir(fake)
    open(os.path.join(fake, "sbatch"), "w").write(f"""#!{sys.executable}
import json, os, re, subprocess, sys
a = sys.argv[1:]
json.dump(a, open(os.environ["FAKE_SBATCH_ARGS"], "w"))
val = lambda o: a[a.index(o) + 1]
n = int(a[[x.startswith("--array=0-") for x in a].index(True)][10:])
sub = lambda m, i: {{"%": "%", "a": str(i), "A": "77", "j": "77", "x": val("-J")}}.get(m.group(1), m.group(0))
for i in range(n + 1):
    with open(re.sub("%(.)", lambda m: sub(m, i), val("-o")), "w") as log:
        subprocess.run(["sh", "-c", val("--wrap")], cwd=val("-D"), stdout=log, stderr=log,
                       env=dict(os.environ, SLURM_ARRAY_TASK_ID=str(i)))
print("77")
""")
    os.chmod(os.path.join(fake, "sbatch"), 0o755)
    env = dict(os.environ, PATH=fake + os.pathsep + os.environ["PATH"], FAKE_SBATCH_ARGS=os.path.join(tmp, "args"))
    long = list(small)
    long[long.index("u32:4096")] = "u32:0" + "0" * 9000 + "10000"
    sdir = os.path.join(tmp, "s%j%x%%a")
    grid2 = ["sweep", KERNEL, *long, "--vary", "scratch-waves=8,208"]
    local = xs(*grid2, cwd=tmp)
    p = subprocess.run([XS12, *grid2, "--slurm", "--slurm-dir", sdir], capture_output=True, text=True, cwd=tmp,
                       env=env)
    args = json.load(open(os.path.join(tmp, "args"))) if os.path.exists(os.path.join(tmp, "args")) else []
    olog = args[args.index("-o") + 1] if "-o" in args else None
    check(olog == os.path.join(tmp, "s%%j%%x%%%%a") + "/task.%a.log",
          f"--slurm-dir with '%': sbatch -o gets each '%' of the folder doubled: {olog}")
    check(os.path.exists(os.path.join(sdir, "task.1.log")), "the task logs are in the folder itself: "
          + str(sorted(os.listdir(sdir)) if os.path.isdir(sdir) else "no folder"))
    check(local.returncode == 0 and p.returncode == 0 and p.stdout == local.stdout,
          f"a grid line over 8 KiB: every task reads its point, the table is the local one "
          f"({p.returncode}: {p.stderr.strip()[-300:]})")
    # A recording swept by register override: the command processor replaces
    # COMPUTE_TMPRING_SIZE.WAVES wherever the recorded PM4 sets it. The ring
    # it recorded holds 208 slots (the driver default), so smaller rings fit
    # in its memory; each must measure what `xs12 run --scratch-waves` does.
    rec = os.path.join(tmp, "r.xsrec")
    r = xs("run", KERNEL, *BASE, "--record", rec, "--json", cwd=tmp)
    recorded = json.loads(r.stdout)
    check(r.returncode == 0 and recorded["scratch_waves"] == 208, "recorded a run on the default 208-slot ring")
    p = xs("sweep", rec, "--override", "COMPUTE_TMPRING_SIZE.WAVES=8,52,208", "--json", cwd=tmp)
    rs = json.loads(p.stdout)["points"] if p.returncode == 0 else []
    check([q.get("peak_scratch_slots") for q in rs] == [8, 52, 208] and
          [q.get("scratch_waves") for q in rs] == [8, 52, 208],
          f"--override TMPRING WAVES=8,52,208: peak scratch slots {[q.get('peak_scratch_slots') for q in rs]}")
    for q, slots in zip(rs, ("8", "52")):
        r = xs("run", KERNEL, *BASE, "--scratch-waves", slots, "--json", "--counters", "c.json", cwd=tmp)
        rj = json.loads(r.stdout)
        check(q["cycles"] == rj["cycles"] and q["wait_cycles"] == rj["wait_cycles"],
              f"the recording with WAVES={slots}: {q['cycles']} cycles, as run --scratch-waves {slots} "
              f"({rj['cycles']})")
        check(q["counters"]["l2_misses"] == rj["counters"]["l2"]["misses"] if "counters" in rj else False,
              f"the recording with WAVES={slots}: its L2 misses are run's")
    check(len(rs) == 3 and rs[2]["cycles"] == recorded["cycles"],
          f"WAVES=208 (the recorded value) replays the recorded {recorded['cycles']} cycles")
    p = xs("sweep", rec, "--override", "COMPUTE_RESOURCE_LIMITS.WAVES_PER_SH=0,2", "--json", cwd=tmp)
    rs = json.loads(p.stdout)["points"] if p.stdout else []
    check(len(rs) == 2 and rs[0]["ok"] and not rs[1]["ok"] and "WAVES_PER_SH = 2" in rs[1]["error"],
          f"WAVES_PER_SH=2, below a group's waves: an error row ({rs[1]['error'][:120] if len(rs) > 1 else p.stderr})")
    p = xs("sweep", rec, "--override", "SPI_SHADER_PGM_RSRC3_PS.CU_EN=3", "--json", cwd=tmp)
    rs = json.loads(p.stdout)["points"] if p.stdout else []
    check(p.returncode == 1 and len(rs) == 1 and "never sets" in rs[0]["error"],
          "an override of a register the recording never sets is an error, not a measurement")
    p = xs("sweep", rec, "--override", "COMPUTE_TMPRING_SIZE.WAVS=8", cwd=tmp)
    check(p.returncode == 2 and "its fields: WAVES, WAVESIZE" in p.stderr,
          f"an unknown field: exit 2, the fields listed ({p.stderr.strip()[:120]})")
    p = xs("sweep", rec, "--override", "COMPUTE_TMPRING_SIZE.WAVES=4096", cwd=tmp)
    check(p.returncode == 2 and "the field has 12 bits (at most 4095)" in p.stderr,
          f"a value wider than the field: exit 2 ({p.stderr.strip()[:120]})")
    p = xs("sweep", rec, "--vary", "scratch-waves=8", cwd=tmp)
    check(p.returncode == 2 and "is a recording" in p.stderr, "--vary on a recording: refused")

    # Output that cannot be written: the files keep what they held (ulimit -f 0,
    # SIGXFSZ ignored: every write to a file fails), stdout to a full device exits 1.
    for f in ("u.csv", "u.svg"):
        open(os.path.join(tmp, f), "w").write("before\n")
    before = set(os.listdir(tmp))
    p = subprocess.run(["bash", "-c", 'trap "" XFSZ; ulimit -f 0; exec "$@"', "bash", XS12, "sweep", KERNEL, *small,
                        "--vary", "scratch-waves=8,208", "--csv", "u.csv", "--svg", "u.svg"],
                       capture_output=True, text=True, cwd=tmp)
    kept = [open(os.path.join(tmp, f)).read() == "before\n" for f in ("u.csv", "u.svg")]
    check(p.returncode == 1 and kept == [True, True] and set(os.listdir(tmp)) == before and
          "--csv u.csv: " in p.stderr and "--svg u.svg: " in p.stderr,
          f"ulimit -f 0: exit 1, u.csv and u.svg as they were {kept}, no temporary left: {p.stderr.strip()[:200]}")
    with open("/dev/full", "w") as full:
        p = subprocess.run([XS12, "sweep", KERNEL, *small, "--vary", "scratch-waves=8,208"], stdout=full,
                           stderr=subprocess.PIPE, text=True, cwd=tmp)
    check(p.returncode == 1 and "writing to standard output failed" in p.stderr,
          f"the table to /dev/full: exit 1 ({p.returncode}: {p.stderr.strip()[:160]})")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
