#!/usr/bin/env python3
"""The README's sessions, word for word: a first-time user's path.

  readme.py README.md BUILD_DIR SOURCE_DIR

Runs every shell block of README.md that follows a `<!-- session -->` line,
in a scratch folder where `build` and `examples` point at the real ones, and
writes every fenced block after `<!-- file: NAME -->` there first. In a
session, `$ CMD` lines are commands (bash) and the lines after them are the
stdout they must print: `...` alone stands for any lines, a line ending in
`...` for any line that starts so. A command must exit 0.
"""
import os, re, subprocess, sys, tempfile

readme, build, src = sys.argv[1:4]
text = open(readme).read().split("\n")
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def match(want, got):
    """Do the expected lines (with ... wildcards) match the actual ones?"""
    if not want:
        return not got
    w = want[0]
    if w == "...":
        return any(match(want[1:], got[i:]) for i in range(len(got) + 1))
    if not got:
        return False
    ok = got[0].startswith(w[:-3]) if w.endswith("...") else got[0] == w
    return ok and match(want[1:], got[1:])


# Parse: files to write, and sessions as [(command, [expected lines])].
files, sessions, i = [], [], 0
while i < len(text):
    m = re.match(r"<!-- file: (\S+) -->", text[i])
    if m:
        i += 1
        while not text[i].startswith("```"):
            i += 1
        j = i + 1
        while not text[j].startswith("```"):
            j += 1
        files.append((m.group(1), "\n".join(text[i + 1:j]) + "\n"))
        i = j
    elif text[i].strip() == "<!-- session -->":
        i += 1
        block = []
        while i < len(text) and (text[i].startswith("    ") or text[i] == ""):
            block.append(text[i][4:])
            i += 1
        while block and block[-1] == "":
            block.pop()
        cmds = []
        for line in block:
            if line.startswith("$ "):
                cmds.append((line[2:], []))
            elif cmds:
                cmds[-1][1].append(line)
        sessions.append(cmds)
    i += 1

check(len(sessions) >= 4 and files, f"README has sessions ({len(sessions)}) and files ({len(files)})")
with tempfile.TemporaryDirectory() as tmp:
    os.symlink(os.path.abspath(build), os.path.join(tmp, "build"))
    os.symlink(os.path.join(os.path.abspath(src), "examples"), os.path.join(tmp, "examples"))
    for name, body in files:
        open(os.path.join(tmp, name), "w").write(body)
    env = dict(os.environ, XS12_CACHE_DIR=os.path.join(tmp, "cache"))
    for cmds in sessions:
        for cmd, want in cmds:
            p = subprocess.run(["bash", "-c", cmd], cwd=tmp, capture_output=True, text=True, env=env, timeout=300)
            got = p.stdout.rstrip("\n").split("\n") if p.stdout else []
            ok = p.returncode == 0 and match(want, got)
            check(ok, f"$ {cmd}" + ("" if ok else f"\n  exit {p.returncode}; stdout:\n    " +
                                   "\n    ".join(got) + "\n  stderr: " + p.stderr.strip()[-600:]))
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
