#!/usr/bin/env python3
"""Test of `xs12_bench.py --gather`: the run-after-run summary of saved --json outputs.

  python3 bench/test_gather.py bench/xs12_bench.py

Writes a one-table output and a --runs 2 output by hand (figures chosen so that each target is met in
a known number of the three tables, with a known range for each kernel that misses; a rate, a ratio
and the mix just past their targets: they must not print as the target itself), checks the lines the summary prints, then that a missing file, a file that is not JSON and a table without one of the
targets' figures each stop it with a message naming the file and what is wrong. Needs no build.
"""
import json, os, subprocess, sys, tempfile

BENCH = sys.argv[1]
fails = 0


def row(kernel, func, timing, ratio):
    return {"kernel": kernel, "functional_wave_inst_per_s": func, "timing_wave_inst_per_s": timing, "ratio": ratio}


def table(rows, ratio_total):
    return {"rows": rows, "summary": {"ratio_total": ratio_total,
                                      "targets": {"xs12 <= 5x PoCL's time on the mix": ratio_total <= 5}}}


def gather(*paths):
    p = subprocess.run([sys.executable, BENCH, "--gather", *paths], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(what, ok, detail=""):
    global fails
    print(f"{'ok  ' if ok else 'FAIL'} {what}" + (f"\n     {detail}" if not ok and detail else ""))
    fails += not ok


with tempfile.TemporaryDirectory() as tmp:
    one = table([row("memory: stream_copy", 80e6, 12e6, 7.0), row("stream: vadd", 120e6, 9.96e6, 20.0)], 2.0)
    r1 = table([row("memory: stream_copy", 95e6, 11e6, 6.0), row("stream: vadd", 130e6, 10.5e6, 9.0)], 5.04)
    r2 = table([row("memory: stream_copy", 101e6, 10e6, 10.04), row("stream: vadd", 110e6, 10.0e6, 12.5)], 3.0)
    runs = {"rows": r2["rows"], "summary": dict(r2["summary"], runs=[r1, r2])}
    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    for path, j in ((a, one), (b, runs)):
        with open(path, "w") as f:
            json.dump(j, f)
    rc, out, err = gather(a, b)
    check("two files gathered: exit 0", rc == 0, err)
    for line in ("3 tables from 2 files",
                 "functional >= 100 M wave instructions/s on every kernel: met in 1 of 3; "
                 "stream_copy missed in 2 (80.0 M/s .. 95.0 M/s)",
                 "timing >= 10 M wave instructions/s on every kernel: met in 2 of 3; vadd missed in 1 (9.9 M/s)",
                 "xs12 <= 10x PoCL's time on every kernel: met in 1 of 3; vadd missed in 2 (12.5x .. 20.0x), "
                 "stream_copy missed in 1 (10.1x)",
                 "xs12 <= 5x PoCL's time on the mix: met in 2 of 3 (2.0x .. 5.1x)"):
        check(f"prints '{line}'", line in out, out)

    rc, out, err = gather(os.path.join(tmp, "none.json"))
    check("a missing file: exit 1, named", rc == 1 and "none.json" in err and "No such file" in err, err)
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write("MET functional\n")
    rc, out, err = gather(a, bad)
    check("text that is not JSON: exit 1, named", rc == 1 and "bad.json: not JSON" in err, err)
    del one["rows"][1]["timing_wave_inst_per_s"]
    with open(bad, "w") as f:
        json.dump(one, f)
    rc, out, err = gather(bad)
    check("a row without a target's figure: exit 1, the field named",
          rc == 1 and "bad.json" in err and "rows[].timing_wave_inst_per_s" in err, err)
    rc, out, err = gather()
    check("no file: exit 1", rc == 1 and "needs one or more" in err, err)

print(f"{fails} failed")
sys.exit(1 if fails else 0)
