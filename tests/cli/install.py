#!/usr/bin/env python3
"""A real install: `meson install --destdir` stages headers, library, .pc and
the xs12 command; examples/first.c builds against the staged install with
pkg-config alone (--define-variable=prefix=DIR/usr/local relocates the .pc,
as the README says) and runs.

  install.py BUILD_DIR SOURCE_DIR
"""
import glob, os, subprocess, sys, tempfile

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as stage:
    # --no-rebuild: the test runs inside `meson test`, which has built already
    p = subprocess.run(["meson", "install", "-C", build, "--no-rebuild", "--destdir", stage, "--quiet"],
                       capture_output=True, text=True)
    check(p.returncode == 0, "meson install --destdir succeeds " + p.stderr.strip()[-300:])
    pcs = glob.glob(os.path.join(stage, "**", "pkgconfig", "xs12.pc"), recursive=True)
    heads = glob.glob(os.path.join(stage, "**", "include", "xs12", "xs12.h"), recursive=True)
    libs = glob.glob(os.path.join(stage, "**", "libxs12.so*"), recursive=True)
    tools = glob.glob(os.path.join(stage, "**", "bin", "xs12"), recursive=True)
    check(len(pcs) == 1 and len(heads) == 1 and libs and len(tools) == 1,
          f"installed: xs12.pc {pcs}, xs12/xs12.h {heads}, libxs12.so {libs}, bin/xs12 {tools}")
    if pcs and libs:
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(pcs[0]))
        prefix = os.path.join(stage, "usr", "local")
        flags = subprocess.run(["pkg-config", "--define-variable=prefix=" + prefix, "--cflags", "--libs", "xs12"],
                               capture_output=True, text=True, env=env)
        check(flags.returncode == 0 and stage in flags.stdout, "pkg-config --define-variable=prefix= finds the staged "
              "install: " + flags.stdout.strip() + flags.stderr.strip())
        exe = os.path.join(stage, "first")
        p = subprocess.run(["cc", "-Wall", "-Wextra", "-Werror", os.path.join(src, "examples", "first.c"), "-o", exe]
                           + flags.stdout.split(), capture_output=True, text=True)
        check(p.returncode == 0, "examples/first.c builds against the install " + p.stderr.strip()[-500:])
        if p.returncode == 0:
            env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(libs[0]))
            r = subprocess.run([exe, os.path.join(build, "kernels", "vadd.O2.w32.hsaco")], capture_output=True,
                               text=True, env=env)
            check(r.returncode == 0 and "c[999] = 1498.5" in r.stdout, "it runs: " + (r.stdout + r.stderr).strip())
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
