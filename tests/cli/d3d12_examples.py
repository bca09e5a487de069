#!/usr/bin/env python3
"""The D3D12 examples as a client builds them: every examples/d3d12/*.c and
*.cpp compiled with nothing but the README's pkg-config command, by gcc and
clang-15 (C11) and g++ and clang++-15 (C++17) with -Wall -Wextra -Wpedantic
-Werror, then run: each must exit 0 (its own check) and print what it shows.
The seeds' S1 and S3 C++ lines must stand in the C++ examples as written.

  d3d12_examples.py BUILD_DIR SOURCE_DIR
"""
import glob, os, re, shutil, subprocess, sys, tempfile

build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


PKG = "$(PKG_CONFIG_PATH=build/meson-uninstalled pkg-config --cflags --libs xs12)"  # the README's form
COMPILERS = {".c": [("gcc", "c11"), ("clang-15", "c11")], ".cpp": [("g++", "c++17"), ("clang++-15", "c++17")]}
WRITE_ARGS = "build/examples/write_args.hsaco"  # examples/meson.build builds it
ARGS = {"launch_params": ["build/kernels", WRITE_ARGS]}
# What each example must print (regular expressions, in order).
EXPECT = {
    "scratch_size": [r"GetInformationX: \d+ x 256 DWORDs", r"a ring of \d+ bytes = 8 waves",
                     r"through 8 scratch slots, peak 8 at once", r"time: \d+ cycles",
                     r"results: 4096 of 4096 match the CPU"],
    "scratch_occupancy": [r"driver default \(S1\.8\)\s+208 .* 2\.0 \(peak", r"full \(S1\.13\)\s+1664 .* 1[56]\.\d \(peak 16\)",
                          r"every ring computes what the CPU computes", r"fastest: \d+ slots"],
    "async_compute": [r"S1\.9: each queue its own ring", r"at once .*\(overlapping\)", r"results: 0 and 0 of 8192 wrong",
                      r"#10010 \(XS12_MESSAGE_ID_SCRATCH_DEFAULT_ON_ASYNC\): S1\.8: .*S1\.9",
                      r"Close: 0x80070057 \(E_INVALIDARG\)", r"at once: .*\(overlapping\)",
                      r"results: [1-9]\d* and \d+ of 8192 wrong|results: \d+ and [1-9]\d* of 8192 wrong"],
    "launch_params": [r"vadd, NumThreadX 128 .* 8192 of 8192 sums right",
                      r"LDSSize   2 .* 256 of 256 sums right", r"LDSSize 128 .* 256 of 256 sums right",
                      r"write_args wrote 4 commands", r"command 3: job 5, .*sums right"],
    "hang_dred": [r"GetDeviceRemovedReason: 0x887a0006 DXGI_ERROR_DEVICE_HUNG", r"device state HUNG",
                  r'command list "frame 1 compute" on queue "main queue": 3 of 6 ops completed',
                  r"3 Dispatch\s+<- the GPU was here", r"no page fault"],
}
# The seeds' lines (docs: SetShaderScratchSpaceX, launch parameters), as written.
SEED_S1 = ["ComPtr<ID3DBlob> blob;",
           "pPso->GetInformationX(D3D12XBOX_PIPELINE_STATE_INFORMATION_TYPE_SCRATCH_SIZE_PER_WAVE_IN_UNITS_OF_256DW, 0, &blob);",
           "UINT scratchSize = *(UINT*)blob->GetBufferPointer();",
           "pCmdList->SetShaderScratchSpaceX(D3D12XBOX_SET_SHADER_SCRATCH_SPACE_FLAGS_GRAPHICS, "
           "pScratch0->GetGPUVirtualAddress(), scratchSize, scratchSizePerWaveBytes);"]
SEED_S3 = ["D3D12XBOX_COMPUTE_SHADER_LAUNCH_PARAMETERS p = {};", "p.Flags = ", "p.NumThreadX = ",
           "pCmdList->SetComputeShaderLaunchParametersX(&p);"]


def has_lines(text, lines):
    at = 0
    for l in lines:
        at = text.find(l, at)
        if at < 0:
            return False
    return True


sources = sorted(glob.glob(os.path.join(src, "examples", "d3d12", "*.c")) +
                 glob.glob(os.path.join(src, "examples", "d3d12", "*.cpp")))
check(len(sources) >= 6, f"examples: {', '.join(os.path.basename(s) for s in sources)}")
cpp = {os.path.basename(s): open(s).read() for s in sources if s.endswith(".cpp")}
check(has_lines(cpp.get("scratch_size.cpp", ""), SEED_S1), "scratch_size.cpp has the seed's S1 lines as written")
check(any(has_lines(t, SEED_S3) for t in cpp.values()), "a C++ example has the seed's S3 lines as written")
check(os.path.exists(os.path.join(build, WRITE_ARGS[len("build/"):])), WRITE_ARGS + " is built")

outputs = {}
with tempfile.TemporaryDirectory() as tmp:
    os.symlink(build, os.path.join(tmp, "build"))
    os.symlink(os.path.join(src, "examples"), os.path.join(tmp, "examples"))
    env = dict(os.environ, LD_LIBRARY_PATH=build)
    for s in sources:
        base, ext = os.path.splitext(os.path.basename(s))
        for cc, std in COMPILERS[ext]:
            if not shutil.which(cc):
                check(False, f"{cc} is installed")
                continue
            exe = f"{base}-{cc}"
            cmd = (f"{cc} -std={std} -Wall -Wextra -Wpedantic -Werror examples/d3d12/{base}{ext} {PKG} -o {exe}")
            p = subprocess.run(["bash", "-c", cmd], cwd=tmp, capture_output=True, text=True)
            check(p.returncode == 0, f"$ {cmd}" + ("" if p.returncode == 0 else "\n" + p.stderr.strip()[-1500:]))
            if p.returncode:
                continue
            r = subprocess.run([os.path.join(tmp, exe)] + ARGS.get(base, ["build/kernels"]), cwd=tmp,
                               capture_output=True, text=True, env=env, timeout=300)
            at, missing = 0, None
            for pat in EXPECT.get(base, []):
                m = re.compile(pat, re.M).search(r.stdout, at)
                if not m:
                    missing = pat
                    break
                at = m.end()
            ok = r.returncode == 0 and missing is None
            check(ok, f"./{exe} exits 0 and prints what it shows" +
                  ("" if ok else f"\n  exit {r.returncode}, missing /{missing}/; stdout:\n    " +
                   "\n    ".join(r.stdout.strip().split("\n")) + "\n  stderr: " + r.stderr.strip()[-800:]))
            outputs.setdefault(base, set()).add(r.stdout)
for base, outs in sorted(outputs.items()):
    check(len(outs) == 1, f"{base}: every compiler's build prints the same" +
          ("" if len(outs) == 1 else ":\n" + "\n----\n".join(outs)))
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
