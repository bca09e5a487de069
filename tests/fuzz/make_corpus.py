#!/usr/bin/env python3
"""Rebuilds the seed corpora under tests/fuzz/corpus/ and the PM4 and CP
dictionaries (tests/fuzz/pm4.dict, cp.dict) from what a build made:

  make_corpus.py [BUILD [SEEDS_BUILD]]
      BUILD: a configured build directory, default build; SEEDS_BUILD: the
      one with tests/fuzz/fuzz_seeds, default BUILD

It needs, built in BUILD: tests/fuzz/fuzz_seeds, tools/xs12 and the test
kernels (ninja -C BUILD tests/fuzz/fuzz_seeds tools/xs12 kernels). What each
corpus holds:
  codeobj  small code objects of the test kernels (HSA v4 and v5, wave32 and
           wave64, calls with .stack_sizes, a relocatable object, HIP
           bundles, a -g object with a DWARF line table), an offload bundle
           and a host ELF with .hip_fatbin made
           here around one, graphics objects (PAL and Mesa) of `xs12 cc`
  isa      the .text of test kernels, in pieces of at most 4 KiB
  pm4      fuzz_seeds' packets and streams, tests/pm4/data/sample.txt
  replay   recordings of two small runs (`xs12 run --record`), timing and
           functional
  rootsig, accel   fuzz_seeds' blobs and XS_BUILD_AS inputs
  bvh      fuzz_seeds' rays over BVHs of the BVH writer
  cp       fuzz_seeds' GPU worlds for fuzz_cp.c (command streams and the
           memory they point at)
The corpus is committed; rerun this after a format changes.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "build"))
CORPUS = os.path.join(HERE, "corpus")
SEEDS_BUILD = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else BUILD
KDIR = os.path.join(BUILD, "kernels")


def fresh(target):
    d = os.path.join(CORPUS, target)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def elf_sections(data):
    """(name, offset, size) of every section of an ELF64 LE image."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
    stroff = secs[shstrndx][4]
    out = []
    for name, _type, _flags, _addr, off, size in secs:
        end = data.index(b"\0", stroff + name)
        out.append((data[stroff + name:end].decode(), off, size))
    return out


def bundle(entries):
    """A clang offload bundle: magic, u64 count, per entry u64 offset, u64
    size, u64 id length, id; then the images (ClangOffloadBundler.cpp)."""
    head = b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", len(entries))
    size = len(head) + sum(24 + len(i) for i, _ in entries)
    table, blobs = b"", b""
    for ident, img in entries:
        off = size + len(blobs)
        table += struct.pack("<QQQ", off, len(img), len(ident)) + ident
        blobs += img
    return head + table + blobs


def host_elf_with_fatbin(fatbin):
    """A minimal x86-64 ELF with one named section, .hip_fatbin, holding
    fatbin (section headers only, as a loader of the fat binary needs)."""
    names = b"\0.shstrtab\0.hip_fatbin\0"
    data_off = 64
    names_off = data_off + len(fatbin)
    shoff = (names_off + len(names) + 7) & ~7
    eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    eh += struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 3, 1)
    sh = bytes(64)
    sh += struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, names_off, len(names), 0, 0, 1, 0)
    sh += struct.pack("<IIQQQQIIQQ", 11, 1, 2, 0, data_off, len(fatbin), 0, 0, 4096, 0)
    img = eh + fatbin + names
    return img + bytes(shoff - len(img)) + sh


def codeobj():
    d = fresh("codeobj")
    for k in ["vadd.O2.w32.hsaco", "vadd.O2.w64.hsaco", "vadd.O2.w32.v5.hsaco", "vadd.O2.w32.v5.o",
              "private_spill.O2.w32.hsaco", "calls.O2.w32.hsaco", "lds_reduce.O2.w64.hsaco", "saxpy.hip.co",
              "wave_dpp.hip.co", "bvh_rays.O2.w32.hsaco", "vadd.O2.w32.g.hsaco"]:
        shutil.copy(os.path.join(KDIR, k), os.path.join(d, k))
    vadd = open(os.path.join(KDIR, "vadd.O2.w32.hsaco"), "rb").read()
    b = bundle([(b"host-x86_64-unknown-linux-gnu-", b""), (b"hipv4-amdgcn-amd-amdhsa--gfx1030", vadd)])
    open(os.path.join(d, "vadd.bundle"), "wb").write(b)
    open(os.path.join(d, "vadd.host_fatbin.elf"), "wb").write(host_elf_with_fatbin(b))
    xs12 = os.path.join(BUILD, "tools", "xs12")
    for src, stage, abi in [("color.vs.cl", "vs", "pal"), ("color.ps.cl", "ps", "pal"), ("color.vs.cl", "vs", "mesa"),
                            ("color.ps.cl", "ps", "mesa")]:
        out = os.path.join(d, f"{src[:-3]}.{abi}.o")
        subprocess.run([xs12, "cc", "--" + stage, "--abi", abi, os.path.join(HERE, "..", "..", "kernels", "gfx", src),
                        "-o", out], check=True, capture_output=True)


def isa():
    d = fresh("isa")
    for k in ["vadd.O2.w32.hsaco", "f32_arith.O2.w64.hsaco", "f64.O2.w32.hsaco", "half.O2.w32.hsaco",
              "wave_dpp.O2.w32.hsaco", "atomics.O2.w32.hsaco", "bvh_rays.O2.w32.hsaco", "lds.O2.w64.hsaco",
              "int_div.O2.w32.hsaco", "private_spill.O2.w32.hsaco"]:
        data = open(os.path.join(KDIR, k), "rb").read()
        for name, off, size in elf_sections(data):
            if name == ".text":
                text = data[off:off + size]
                for i in range(0, len(text), 4096):
                    open(os.path.join(d, f"{k}.text.{i // 4096}"), "wb").write(text[i:i + 4096])


def hexfile(path):
    words = []
    for line in open(path):
        line = line.split("#")[0].replace(",", " ")
        words += [int(t, 16) for t in line.split()]
    return struct.pack(f"<{len(words)}I", *words)


def seeds():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([os.path.join(SEEDS_BUILD, "tests", "fuzz", "fuzz_seeds"), tmp], check=True)
        for t in ["pm4", "rootsig", "accel", "bvh", "cp"]:
            d = fresh(t)
            for f in os.listdir(os.path.join(tmp, t)):
                shutil.copy(os.path.join(tmp, t, f), os.path.join(d, f))
        for d in ["pm4.dict", "cp.dict"]:
            shutil.copy(os.path.join(tmp, d), os.path.join(HERE, d))
    src = os.path.join(HERE, "..", "pm4", "data", "sample.txt")
    open(os.path.join(CORPUS, "pm4", "sample"), "wb").write(hexfile(src))


def replay():
    d = fresh("replay")
    xs12 = os.path.join(BUILD, "tools", "xs12")
    with tempfile.TemporaryDirectory() as tmp:
        open(os.path.join(tmp, "in.bin"), "wb").write(struct.pack("<1024I", *range(1024)))
        runs = [("scratch_chase.timing.xsr", ["--timing"]),
                ("two_kernels.functional.xsr", ["--functional", "--async",
                                                os.path.join(KDIR, "lds_reduce.O2.w64.hsaco"), "--kernel",
                                                "lds_reduce", "--groups", "1", "--block", "256", "--arg",
                                                "in:in.bin", "--arg", "out:l.bin:16"])]
        for name, extra in runs:
            rec = os.path.join(d, name)
            subprocess.run([xs12, "run", os.path.join(KDIR, "scratch_chase.O2.w32.hsaco"), "--groups", "1",
                            "--block", "64", "--arg", "in:in.bin", "--arg", "out:o.bin:256", "--arg", "u32:8"]
                           + ["--record", rec] + extra, cwd=tmp, check=True, capture_output=True)


if __name__ == "__main__":
    seeds()
    codeobj()
    isa()
    replay()
    for t in sorted(os.listdir(CORPUS)):
        files = os.listdir(os.path.join(CORPUS, t))
        size = sum(os.path.getsize(os.path.join(CORPUS, t, f)) for f in files)
        print(f"{t}: {len(files)} files, {size // 1024} KiB")
