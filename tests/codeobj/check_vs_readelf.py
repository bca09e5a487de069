#!/usr/bin/env python3
"""Differential test of the code-object loader against LLVM's own tools.

Runs codeobj_dump (xs_codeobj_parse -> JSON) on FILE and compares every
field with what llvm-readelf-15 / llvm-objcopy-15 / clang-offload-bundler
report for the same code object:

  metadata (kernels, args)    llvm-readelf --notes (YAML, read with yaml.BaseLoader)
  target processor, version   llvm-readelf -h (EF_AMDGPU_MACH name, ABI version)
  PT_LOAD segments            llvm-readelf -l
  descriptor bytes            llvm-objcopy --dump-section of the .kd symbol's section
  descriptor address, entry   llvm-readelf -s --dyn-syms
  dynamic relocations         llvm-readelf -r
  bundles / .hip_fatbin       clang-offload-bundler --list / --unbundle
                              (after llvm-objcopy -O binary --only-section=.hip_fatbin)

The descriptor fields are decoded here with struct, independently of the C
code. Exit 0 if everything matches; 1 with a list of differences otherwise.
"""
import argparse
import json
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

GFX103 = {f"gfx103{i}" for i in range(7)}
BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"


def run(*cmd, binary=False):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, timeout=120)
    if r.returncode != 0:
        sys.exit(f"command failed ({r.returncode}): {' '.join(map(str, cmd))}\n{r.stderr.decode()}")
    return r.stdout if binary else r.stdout.decode()


def readelf_json(tools, path, *opts):
    data = json.loads(run(tools.readelf, *opts, "--elf-output-style=JSON", path))
    return next(iter(data[0].values()))


def oracle_elf(tools, path, tmp):
    """The gfx10.3 ELF image inside `path`, extracted with LLVM's tools."""
    head = Path(path).read_bytes()[:64]
    if head.startswith(b"\x7fELF") and struct.unpack_from("<H", head, 18)[0] == 224:
        return Path(path)
    if head.startswith(b"\x7fELF"):  # host ELF: the bundle is in .hip_fatbin
        fat = tmp / "fatbin.bin"
        run(tools.objcopy, "-O", "binary", "--only-section=.hip_fatbin", path, fat)
        path = fat
    ids = run(tools.bundler, "--list", "--type=o", f"--input={path}").split()
    pick = [i for i in ids if i.split("-")[-1].split(":")[0] in GFX103]
    if not pick:
        sys.exit(f"oracle: no gfx10.3 entry among {ids}")
    out = tmp / "device.co"
    run(tools.bundler, "--unbundle", "--type=o", f"--input={path}", f"--targets={pick[0]}",
        f"--output={out}")
    return out


class Diff:
    def __init__(self):
        self.errors = []
        self.checked = 0

    def eq(self, what, got, want):
        self.checked += 1
        if got != want:
            self.errors.append(f"{what}: loader {got!r}, oracle {want!r}")


def value_kind_class(vk):
    if vk == "by_value":
        return "BY_VALUE"
    if vk == "global_buffer":
        return "GLOBAL_BUFFER"
    if vk == "dynamic_shared_pointer":
        return "DYNAMIC_SHARED_POINTER"
    if vk.startswith("hidden_"):
        return "HIDDEN"
    return "OTHER"


def section_bytes(tools, elf, name, tmp, cache={}):
    if name not in cache:
        out = tmp / ("sec" + str(len(cache)))
        run(tools.objcopy, f"--dump-section={name}={out}", elf, tmp / "scratch.o")
        cache[name] = out.read_bytes()
    return cache[name]


def mutate(doc, path):
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    for p in parents:
        doc = doc[p]
    v = doc[last]
    if isinstance(v, bool):
        doc[last] = not v
    elif isinstance(v, int):
        doc[last] = v + 1
    elif path.endswith("kd_hex"):
        doc[last] = v[:-2] + ("00" if v[-2:] != "00" else "01")
    else:
        doc[last] = v + "x"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True)
    ap.add_argument("--readelf", required=True)
    ap.add_argument("--objcopy", required=True)
    ap.add_argument("--bundler", required=True)
    ap.add_argument("--expect-relocs", type=int, default=None,
                    help="fail unless the oracle lists exactly this many relocations")
    ap.add_argument("--self-test-mutate", metavar="PATH",
                    help="perturb this field of the loader's answer (dotted path); succeed "
                         "only if the comparison then reports a difference")
    ap.add_argument("file")
    tools = ap.parse_args()

    got = json.loads(run(tools.dump, tools.file))
    if tools.self_test_mutate:
        mutate(got, tools.self_test_mutate)
    d = Diff()
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        elf = oracle_elf(tools, tools.file, tmp)
        d.eq("image_size", got["image_size"], elf.stat().st_size)

        # ---- header: processor and code object version
        hdr = readelf_json(tools, elf, "-h")["ElfHeader"]
        mach = [f["Name"] for f in hdr["Flags"]["Flags"] if f["Name"].startswith("EF_AMDGPU_MACH_")]
        d.eq("processor", got["processor"], mach[0].split("_")[-1].lower() if mach else None)
        d.eq("code_object_version", got["code_object_version"],
             {2: 4, 3: 5}.get(hdr["Ident"]["ABIVersion"]))

        # ---- segments
        phdrs = readelf_json(tools, elf, "-l")["ProgramHeaders"]
        loads = [p["ProgramHeader"] for p in phdrs if p["ProgramHeader"]["Type"]["Value"] == "PT_LOAD"]
        d.eq("number of PT_LOAD segments", len(got["segments"]), len(loads))
        for i, (g, w) in enumerate(zip(got["segments"], loads)):
            for gk, wk in (("vaddr", "VirtualAddress"), ("memsz", "MemSize"), ("offset", "Offset"),
                           ("filesz", "FileSize")):
                d.eq(f"segment {i} {gk}", g[gk], w[wk])
            d.eq(f"segment {i} flags", g["flags"], w["Flags"]["RawFlags"])
        end = max(p["VirtualAddress"] + p["MemSize"] for p in loads)
        d.eq("load_size", got["load_size"], (end + 4095) // 4096 * 4096)

        # ---- symbols (.symtab and .dynsym)
        symdoc = readelf_json(tools, elf, "-s", "--dyn-syms")
        syms = {}
        for key in ("Symbols", "DynamicSymbols"):
            for s in symdoc.get(key, []):
                s = s["Symbol"]
                if s["Section"]["Value"] != "Undefined":
                    syms.setdefault(s["Name"]["Value"], s)

        # ---- relocations (GNU text: the JSON form of -r is broken in LLVM 15)
        relocs = []
        for line in run(tools.readelf, "-r", elf).splitlines():
            tok = line.split()
            if len(tok) < 4 or not re.fullmatch(r"[0-9a-f]{16}", tok[0]):
                continue
            off, rtype = int(tok[0], 16), tok[2]
            if rtype == "R_AMDGPU_RELATIVE64":
                relocs.append({"vaddr": off, "value": int(tok[-1], 16)})
            elif rtype == "R_AMDGPU_ABS64":
                sign = -1 if tok[-2] == "-" else 1
                relocs.append({"vaddr": off, "value": (int(tok[3], 16) + sign * int(tok[-1], 16)) % 2**64})
            elif rtype != "R_AMDGPU_NONE":
                d.errors.append(f"oracle lists relocation {rtype} the loader should have rejected")
        d.eq("relocations", got["relocs"], relocs)
        if tools.expect_relocs is not None:
            d.eq("number of relocations (test expectation)", len(relocs), tools.expect_relocs)

        # ---- metadata
        notes = readelf_json(tools, elf, "--notes")["Notes"]
        texts = [n["NoteSection"]["Note"]["AMDGPU Metadata"] for n in notes
                 if "AMDGPU Metadata" in n["NoteSection"].get("Note", {})]
        if len(texts) != 1:
            sys.exit(f"oracle: expected one AMDGPU metadata note, found {len(texts)}")
        meta = yaml.load(texts[0], Loader=yaml.BaseLoader)
        d.eq("target", got["target"], meta["amdhsa.target"])
        kernels = meta.get("amdhsa.kernels", [])
        d.eq("number of kernels", len(got["kernels"]), len(kernels))
        for gk, mk in zip(got["kernels"], kernels):
            name = mk[".name"]
            p = f"kernel {name}"
            d.eq(f"{p} name", gk["name"], name)
            d.eq(f"{p} symbol", gk["symbol"], mk[".symbol"])
            for field, key in (("group_segment_fixed_size", ".group_segment_fixed_size"),
                               ("private_segment_fixed_size", ".private_segment_fixed_size"),
                               ("kernarg_size", ".kernarg_segment_size"),
                               ("kernarg_segment_align", ".kernarg_segment_align"),
                               ("wavefront_size", ".wavefront_size"),
                               ("sgpr_count", ".sgpr_count"), ("vgpr_count", ".vgpr_count"),
                               ("max_flat_workgroup_size", ".max_flat_workgroup_size")):
                d.eq(f"{p} {field}", gk[field], int(mk[key]))
            args = mk.get(".args", [])
            d.eq(f"{p} number of args", len(gk["args"]), len(args))
            for i, (ga, ma) in enumerate(zip(gk["args"], args)):
                for field, key in (("name", ".name"), ("type_name", ".type_name"),
                                   ("value_kind", ".value_kind"), ("address_space", ".address_space")):
                    d.eq(f"{p} arg {i} {field}", ga[field], ma.get(key, ""))
                d.eq(f"{p} arg {i} offset", ga["offset"], int(ma[".offset"]))
                d.eq(f"{p} arg {i} size", ga["size"], int(ma[".size"]))
                d.eq(f"{p} arg {i} kind", ga["kind"], value_kind_class(ma[".value_kind"]))

            # ---- descriptor: bytes from the section holding the .kd symbol
            kdsym = syms.get(mk[".symbol"])
            if kdsym is None:
                d.errors.append(f"{p}: oracle has no symbol {mk['.symbol']}")
                continue
            d.eq(f"{p} kd_vaddr", gk["kd_vaddr"], kdsym["Value"])
            secname = kdsym["Section"]["Value"]
            shdrs = readelf_json(tools, elf, "-S")["Sections"]
            sec = next(s["Section"] for s in shdrs if s["Section"]["Name"]["Value"] == secname)
            data = section_bytes(tools, elf, secname, tmp)
            at = kdsym["Value"] - sec["Address"]
            kd = data[at:at + 64]
            d.eq(f"{p} descriptor bytes", bytes.fromhex(gk["kd_hex"]), kd)
            group, private, kernarg = struct.unpack_from("<III", kd, 0)
            entry_off, = struct.unpack_from("<q", kd, 16)
            rsrc3, rsrc1, rsrc2 = struct.unpack_from("<III", kd, 44)
            kcp, = struct.unpack_from("<H", kd, 56)
            d.eq(f"{p} descriptor group_segment_fixed_size", gk["group_segment_fixed_size"], group)
            d.eq(f"{p} descriptor private_segment_fixed_size", gk["private_segment_fixed_size"], private)
            d.eq(f"{p} descriptor kernarg_size", gk["kernarg_size"], kernarg)
            d.eq(f"{p} rsrc1", gk["rsrc1"], rsrc1)
            d.eq(f"{p} rsrc2", gk["rsrc2"], rsrc2)
            d.eq(f"{p} rsrc3", gk["rsrc3"], rsrc3)
            d.eq(f"{p} kernel_code_properties", gk["kernel_code_properties"], kcp)
            d.eq(f"{p} wgp_mode", gk["wgp_mode"], bool(rsrc1 >> 29 & 1))
            d.eq(f"{p} wavefront_size vs ENABLE_WAVEFRONT_SIZE32", gk["wavefront_size"],
                 32 if kcp & (1 << 10) else 64)
            uds = mk.get(".uses_dynamic_stack", "false") == "true"
            if got["code_object_version"] >= 5:
                uds = uds or bool(kcp & (1 << 11))
            d.eq(f"{p} uses_dynamic_stack", gk["uses_dynamic_stack"], uds)
            d.eq(f"{p} entry_vaddr", gk["entry_vaddr"], kdsym["Value"] + entry_off)
            fn = syms.get(mk[".symbol"][:-3]) if mk[".symbol"].endswith(".kd") else None
            if fn is None or fn["Type"]["Value"] != "Function":
                d.errors.append(f"{p}: oracle has no function symbol for the kernel")
            else:
                d.eq(f"{p} entry_vaddr vs function symbol", gk["entry_vaddr"], fn["Value"])
                d.eq(f"{p} code_size", gk["code_size"], fn["Size"])

    if tools.self_test_mutate:
        # inverted: the perturbed field must be caught
        if d.errors:
            print(f"self-test: the perturbed {tools.self_test_mutate} was caught: {d.errors[0]}")
            return 0
        print(f"self-test: perturbing {tools.self_test_mutate} went unnoticed")
        return 1
    if d.errors:
        print(f"{tools.file}: {len(d.errors)} difference(s) in {d.checked} checks:")
        for e in d.errors:
            print("  " + e)
        return 1
    print(f"{tools.file}: {d.checked} fields match llvm-readelf/objcopy/bundler")
    return 0


if __name__ == "__main__":
    sys.exit(main())
