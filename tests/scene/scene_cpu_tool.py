#!/usr/bin/env python3
"""The scene_cpu command: renders the demo scene to a PNG and compares PNGs.
A picture compared with itself passes (max difference 0); with a picture of
another scene (2 engines instead of 3) it fails; a picture of another size
fails. Exit 77 without the model or the tool.

  scene_cpu_tool.py SCENE_CPU MODEL
"""
import os, re, subprocess, sys, tempfile

tool, model = sys.argv[1], sys.argv[2]
if not os.path.exists(model) or not os.path.exists(tool):
    print("skipped: no model (assimp-testmodels) or no scene_cpu (libassimp, libpng)")
    sys.exit(77)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args):
    p = subprocess.run([tool] + list(args), capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


with tempfile.TemporaryDirectory() as tmp:
    a, b, c = (os.path.join(tmp, n) for n in ("a.png", "b.png", "c.png"))
    rc, out = run(model, a, "96", "54")
    check(rc == 0 and re.search(r"115 meshes, 121496 triangles; scene: 4 instances, 364490 triangles", out),
          "renders 3 engines and the ground: " + out.strip().replace("\n", "; "))
    rc, out = run(model, b, "96", "54", "2")
    check(rc == 0 and "3 instances" in out, "renders 2 engines and the ground")
    rc, out = run(model, c, "48", "27")
    check(rc == 0, "renders a smaller picture")
    rc, out = run("--compare", a, a)
    check(rc == 0 and "max channel difference 0, 0 differ" in out, "a picture equals itself: " + out.strip())
    rc, out = run("--compare", a, b)
    m = re.search(r"max channel difference (\d+), (\d+) differ", out)
    check(rc == 1 and m and int(m.group(1)) > 1, "another scene differs: " + out.strip())
    rc, out = run("--compare", a, c)
    check(rc == 1, "another size differs: " + out.strip())
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
