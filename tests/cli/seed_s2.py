#!/usr/bin/env python3
"""The seed's S2 C++ line in its recipe (tests/cli/seed_s2.cpp) as a client compiles it:
with g++ and clang++-15, C++17, -Wall -Wextra -Wpedantic -Werror, and nothing
but the README's pkg-config command. The portable line compiles with both;
the seed's own `auto& ref = ComPtr<ID3D12StateObject>(pRTPSO);` must fail
with g++ (and clang++), or docs/spec.md's note on it (S2) is no longer true.

  seed_s2.py BUILD_DIR SOURCE_DIR
"""
import os, shutil, subprocess, sys, tempfile

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
PKG = "$(PKG_CONFIG_PATH=build/meson-uninstalled pkg-config --cflags xs12)"
SEED = "auto& ref = ComPtr<ID3D12StateObject>(pRTPSO);"
PORTABLE = "auto ref = ComPtr<ID3D12StateObject>(pRTPSO);"
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


text = open(os.path.join(src, "tests", "cli", "seed_s2.cpp")).read()
check(SEED in text and PORTABLE in text, "seed_s2.cpp has the seed's line and the portable one")
spec = open(os.path.join(src, "docs", "spec.md")).read()
check(SEED in spec and PORTABLE in spec, "docs/spec.md S2 notes both lines")

with tempfile.TemporaryDirectory() as tmp:
    os.symlink(build, os.path.join(tmp, "build"))
    os.symlink(os.path.join(src, "tests"), os.path.join(tmp, "tests"))
    for cxx in ["g++", "clang++-15"]:
        if not shutil.which(cxx):
            check(False, f"{cxx} is installed")
            continue
        for seed in (False, True):
            cmd = (f"{cxx} -std=c++17 -Wall -Wextra -Wpedantic -Werror -c tests/cli/seed_s2.cpp "
                   f"{'-DXS12_SEED_AS_WRITTEN ' if seed else ''}{PKG} -o seed_s2.o")
            p = subprocess.run(["bash", "-c", cmd], cwd=tmp, capture_output=True, text=True)
            if not seed:
                check(p.returncode == 0, f"$ {cmd}" + ("" if p.returncode == 0 else "\n" + p.stderr[-1500:]))
            else:
                # the error must be the reference binding, not anything else
                why = "non-const lvalue reference" in p.stderr
                check(p.returncode != 0 and why, f"the seed's line is refused by {cxx}: $ {cmd}" +
                      ("" if p.returncode != 0 and why else f"\n  exit {p.returncode}\n" + p.stderr[-1500:]))
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
