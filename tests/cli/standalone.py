#!/usr/bin/env python3
"""The project stands alone: no tracked file points outside the clone.

  standalone.py SOURCE_DIR

A user who clones xs12 has only the repository. Every "SPEC S1.13" in a
message leads to docs/spec.md, every hardware fact to docs/hardware.md; no
file may refer to a sibling folder of the checkout (the development notes
the project was written from live in one, named below only in pieces).
"""
import os, subprocess, sys

src = sys.argv[1]
outside = "../" + "shared"   # not written whole, or this file would match
try:
    files = subprocess.run(["git", "-C", src, "ls-files"], capture_output=True, text=True,
                           check=True).stdout.split("\n")
except (OSError, subprocess.CalledProcessError):
    files = [os.path.relpath(os.path.join(d, f), src) for d, _, fs in os.walk(src)
             if "/build" not in d and "/.git" not in d for f in fs]
bad = []
for f in filter(None, files):
    try:
        data = open(os.path.join(src, f), "rb").read()
    except OSError:
        continue
    if outside.encode() in data:
        bad.append(f)
for f in bad:
    print("FAIL " + f + " points outside the repository")
print(f"ok   {len(files)} files checked" if not bad else f"{len(bad)} failed")
sys.exit(1 if bad else 0)
