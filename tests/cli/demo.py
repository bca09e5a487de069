#!/usr/bin/env python3
"""`xs12 demo` as `make demo` runs it: every story's result right (exit 0,
"demo: all results correct"), and what the graphics stories leave behind:
build/graphics.png (256x256, not one colour) and build/graphics_async.json,
whose stage tracks show VS, PS and compute waves, with the draw and the
async-compute dispatch overlapping in time (S1.9)."""
import json, os, struct, subprocess, sys, zlib

xs12, kdir = sys.argv[1:3]
out_dir = os.path.dirname(os.path.abspath(kdir))
for f in ("graphics.png", "graphics_async.json"):
    if os.path.exists(os.path.join(out_dir, f)):
        os.remove(os.path.join(out_dir, f))
r = subprocess.run([xs12, "demo"], capture_output=True, text=True, timeout=600)
failures = []
def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
check(r.returncode == 0 and "demo: all results correct" in r.stdout, f"xs12 demo exits 0 (rc {r.returncode})")
for want in ("a draw through the graphics pipe", "S1.12's recipe: 8 waves", "a ring each (S1.9):              draw",
             "the compute list fails to Close", "S1.8"):
    check(want in r.stdout, f"the demo says {want!r}")

png = os.path.join(out_dir, "graphics.png")
ok = os.path.exists(png)
if ok:
    data = open(png, "rb").read()
    ok = data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    # decode enough to see more than one colour (libpng wrote it; zlib reads it)
    idat = b"".join(data[i + 8:i + 8 + struct.unpack(">I", data[i:i + 4])[0]]
                    for i in range(8, len(data)) if data[i + 4:i + 8] == b"IDAT")
    raw = zlib.decompress(idat)
    row = 1 + 4 * w
    reds = {raw[y * row + 1 + 4 * x] for y in range(0, h, 8) for x in range(0, w, 8)}
    ok = ok and (w, h) == (256, 256) and len(reds) > 8
check(ok, "build/graphics.png: 256x256 with many colours")

trace = os.path.join(out_dir, "graphics_async.json")
ev = json.load(open(trace))["traceEvents"] if os.path.exists(trace) else []
procs = {e["pid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "process_name"}
stages = [p for p, n in procs.items() if n == "stages"]
series = {}
for e in ev:
    if e.get("ph") == "C" and stages and e["pid"] == stages[0]:
        series.setdefault(e["name"], []).append((e["ts"], e["args"]["waves"]))
check(set(series) == {"compute waves", "VS waves", "PS waves"}, f"a track per stage: {sorted(series)}")
def busy(name):
    s = series.get(name, [])
    on = [t for t, n in s if n > 0]
    return (min(on), max(on)) if on else (0, -1)
ps, cs = busy("PS waves"), busy("compute waves")
check(ps[0] < cs[1] and cs[0] < ps[1], f"PS waves {ps} and compute waves {cs} overlap in time")
check(all(s[-1][1] == 0 for s in series.values()), "every stage ends with 0 waves")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
