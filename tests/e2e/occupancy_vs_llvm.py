#!/usr/bin/env python3
"""Occupancy of `xs12 info --json` against clang-15's resource comments.

  occupancy_vs_llvm.py --xs12 PATH --case LABEL FILE.s FILE.hsaco [--case ...]

For every kernel of the code object (the .s is clang -S of the same source
with the same flags): clang's `; NumVgprs:`, `; ScratchSize:`,
`; LDSByteSize:` and `; Occupancy:` of the KERNEL (from the `; Kernel info:`
block that follows its `.amdhsa_kernel NAME` block; device-library functions
at -O0 carry `; Function info:` blocks, which are skipped), its wave size and
WGP/CU mode from the `.amdhsa_*` directives, and its group size from the
metadata (`.max_flat_workgroup_size`, which clang's figure assumes).

Rules:
  * xs12's vgprs, lds_bytes, scratch_bytes_per_lane, wave_size, mode and
    group_size equal clang's figures;
  * waves_per_simd is the smallest of the by_* figures and limiter names it;
  * limiter != "lds": waves_per_simd == clang's Occupancy (clang-15 is exact
    for the VGPR and wave-slot limits);
  * kernels with LDS: by_lds == the hardware figure computed here from clang's
    LDSByteSize and the group size (capped at the wave slots): WGP mode
    floor(131072 / roundup(lds, 1024)) groups per WGP x waves per group / 4
    SIMDs, CU mode 65536 per CU / 2 SIMDs, floored. clang-15's own figure for
    LDS-limited kernels is waves per CU labelled per SIMD (a FIXME fixed in
    later LLVM, which also counts the 128 KB of a WGP); both are printed.
Exit: 0 pass, 1 fail.
"""
import argparse
import json
import re
import subprocess
import sys

LDS_WGP, LDS_CU, LDS_GRANULE = 131072, 65536, 1024
SIMDS_PER_WGP, SIMDS_PER_CU = 4, 2
LIMITERS = ("wave-slots", "vgpr", "lds", "workgroup")
BY_KEY = {"wave-slots": "by_wave_slots", "vgpr": "by_vgpr", "lds": "by_lds",
          "workgroup": "by_workgroup"}


class Fail(Exception):
    pass


def parse_metadata(lines):
    """Kernel-level keys of the .amdgpu_metadata YAML: {name: {key: value}},
    list values (e.g. .reqd_workgroup_size) as lists of strings."""
    kernels, cur, last_key = [], None, None
    inside = in_kernels = False
    for line in lines:
        if line.strip() == ".amdgpu_metadata":
            inside = True
            continue
        if line.strip() == ".end_amdgpu_metadata":
            inside = False
            continue
        if not inside:
            continue
        if re.match(r"^[A-Za-z]", line):   # a top-level YAML key
            in_kernels = line.startswith("amdhsa.kernels:")
        if not in_kernels:
            continue
        if line.startswith("  - "):
            cur = {}
            kernels.append(cur)
            line = "    " + line[4:]
        elif not line.startswith("    "):
            cur = None
        if cur is None:
            continue
        m = re.match(r"^    \.([a-z_]+):\s*(.*)$", line)
        if m:
            last_key = m.group(1)
            cur[last_key] = m.group(2).strip() or []
            continue
        m = re.match(r"^      - (\S+)\s*$", line)
        if m and last_key and isinstance(cur.get(last_key), list):
            cur[last_key].append(m.group(1))
    return {k.get("name"): k for k in kernels}


def parse_asm(path):
    """{kernel: dict(vgprs, scratch, lds, occupancy, wave, mode, group)}"""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    meta = parse_metadata(lines)
    out = {}
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*\.amdhsa_kernel\s+(\S+)", lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        k = {}
        i += 1
        while i < len(lines) and ".end_amdhsa_kernel" not in lines[i]:
            d = re.match(r"^\s*\.amdhsa_(wavefront_size32|workgroup_processor_mode)\s+(\d+)", lines[i])
            if d:
                k[d.group(1)] = int(d.group(2))
            i += 1
        while i < len(lines) and not lines[i].startswith("; Kernel info:"):
            if re.match(r"^\s*\.amdhsa_kernel\s", lines[i]):
                raise Fail("%s: no '; Kernel info:' after .amdhsa_kernel %s" % (path, name))
            i += 1
        while i < len(lines) and lines[i].startswith(";"):
            c = re.match(r"^; (NumVgprs|ScratchSize|LDSByteSize|Occupancy):\s*(\d+)", lines[i])
            if c:
                k[c.group(1)] = int(c.group(2))
            i += 1
        missing = [x for x in ("NumVgprs", "ScratchSize", "LDSByteSize", "Occupancy",
                               "wavefront_size32", "workgroup_processor_mode") if x not in k]
        if missing:
            raise Fail("%s: kernel %s: clang's output lacks %s" % (path, name, missing))
        md = meta.get(name)
        if md is None:
            raise Fail("%s: kernel %s is not in .amdgpu_metadata" % (path, name))
        # clang's occupancy assumes groups of .max_flat_workgroup_size threads
        # (with reqd_work_group_size, clang sets it to that product).
        group = int(md.get("max_flat_workgroup_size", "0") or 0)
        if group <= 0:
            raise Fail("%s: kernel %s: no .max_flat_workgroup_size in the metadata" % (path, name))
        reqd = md.get("reqd_workgroup_size")
        if isinstance(reqd, list) and len(reqd) == 3 and \
                int(reqd[0]) * int(reqd[1]) * int(reqd[2]) != group:
            raise Fail("%s: kernel %s: .reqd_workgroup_size %s disagrees with "
                       ".max_flat_workgroup_size %d" % (path, name, reqd, group))
        out[name] = dict(vgprs=k["NumVgprs"], scratch=k["ScratchSize"], lds=k["LDSByteSize"],
                         occupancy=k["Occupancy"], wave=32 if k["wavefront_size32"] else 64,
                         mode="wgp" if k["workgroup_processor_mode"] else "cu", group=group)
    if not out:
        raise Fail("%s: no .amdhsa_kernel block" % path)
    return out


def hw_lds_waves_per_simd(lds, group, wave, mode):
    """Waves per SIMD allowed by LDS on the hardware (None: no LDS, no limit)."""
    if lds <= 0:
        return None
    alloc = -(-lds // LDS_GRANULE) * LDS_GRANULE
    waves_per_group = -(-group // wave)
    if mode == "wgp":
        return (LDS_WGP // alloc) * waves_per_group // SIMDS_PER_WGP
    return (LDS_CU // alloc) * waves_per_group // SIMDS_PER_CU


def xs12_info(xs12, hsaco):
    # clang knows no scratch ring: give the kernels the largest one (32 slots
    # per CU, SPEC S1.13), which never limits below the wave slots, so that
    # the figures compared are the SPI's resource limits alone.
    try:
        p = subprocess.run([xs12, "info", "--json", "--scratch-waves", "1664", hsaco], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Fail("xs12 info --json %s: %s" % (hsaco, e))
    if p.returncode != 0:
        raise Fail("xs12 info --json %s exited %d:\n%s" % (hsaco, p.returncode,
                                                          p.stderr.decode(errors="replace")))
    try:
        j = json.loads(p.stdout.decode(errors="replace"))
    except ValueError as e:
        raise Fail("xs12 info --json %s: not JSON (%s):\n%s"
                   % (hsaco, e, p.stdout.decode(errors="replace")[:2000]))
    if not isinstance(j, dict) or not isinstance(j.get("kernels"), list):
        raise Fail("xs12 info --json %s: no \"kernels\" list" % hsaco)
    return j


def check_kernel(label, name, clang, xk, problems):
    def need(cond, msg):
        if not cond:
            problems.append("%s %s: %s" % (label, name, msg))
        return cond

    occ = xk.get("occupancy")
    if not need(isinstance(occ, dict), "no \"occupancy\" object"):
        return
    missing = [k for k in ("vgprs", "lds_bytes", "scratch_bytes_per_lane", "wave_size", "mode",
                           "group_size") if k not in xk]
    missing += ["occupancy." + k for k in ("waves_per_simd", "limiter", "by_wave_slots",
                                           "by_vgpr", "by_lds", "by_workgroup") if k not in occ]
    if not need(not missing, "missing keys %s" % missing):
        return
    need(xk["wave_size"] == clang["wave"], "wave_size %r, clang %d" % (xk["wave_size"], clang["wave"]))
    need(xk["mode"] == clang["mode"], "mode %r, clang %r" % (xk["mode"], clang["mode"]))
    need(xk["group_size"] == clang["group"],
         "group_size %r, metadata %d" % (xk["group_size"], clang["group"]))
    need(xk["vgprs"] == clang["vgprs"], "vgprs %r, clang NumVgprs %d" % (xk["vgprs"], clang["vgprs"]))
    need(xk["lds_bytes"] == clang["lds"],
         "lds_bytes %r, clang LDSByteSize %d" % (xk["lds_bytes"], clang["lds"]))
    need(xk["scratch_bytes_per_lane"] == clang["scratch"],
         "scratch_bytes_per_lane %r, clang ScratchSize %d"
         % (xk["scratch_bytes_per_lane"], clang["scratch"]))

    lim = occ["limiter"]
    if occ.get("by_scratch") is not None:
        need(occ["by_scratch"] >= occ["by_wave_slots"],
             "by_scratch %r below the wave slots with the largest ring" % occ["by_scratch"])
    if not need(lim in LIMITERS, "limiter %r is not one of %s" % (lim, LIMITERS)):
        return
    figures = {l: occ[BY_KEY[l]] for l in LIMITERS}
    low = min(figures.values())
    need(occ["waves_per_simd"] == low,
         "waves_per_simd %r is not the smallest by_* figure %s" % (occ["waves_per_simd"], figures))
    need(figures[lim] == occ["waves_per_simd"],
         "limiter %r but %s is %r, waves_per_simd %r"
         % (lim, BY_KEY[lim], figures[lim], occ["waves_per_simd"]))

    hw = hw_lds_waves_per_simd(clang["lds"], clang["group"], clang["wave"], clang["mode"])
    if hw is not None:
        cap = occ["by_wave_slots"]
        need(min(occ["by_lds"], cap) == min(hw, cap),
             "by_lds %r, hardware %d (LDS %d B, group %d, wave%d, %s mode)"
             % (occ["by_lds"], hw, clang["lds"], clang["group"], clang["wave"], clang["mode"]))
    if lim != "lds":
        ok = need(occ["waves_per_simd"] == clang["occupancy"],
                  "waves_per_simd %r (limiter %s), clang-15 Occupancy %d%s"
                  % (occ["waves_per_simd"], lim, clang["occupancy"],
                     "; clang-15 counts LDS waves per CU: is its figure LDS-limited?"
                     if clang["lds"] else ""))
        print("%s %s: waves/SIMD clang-15 %d, xs12 %d (limiter %s)%s"
              % (label, name, clang["occupancy"], occ["waves_per_simd"], lim,
                 "" if ok else "  <-- MISMATCH"))
    else:
        need(hw is not None, "limiter is lds but clang's LDSByteSize is 0")
        print("%s %s: clang-15 %d (per CU), xs12 %d (per SIMD, %s mode); hardware figure %s"
              % (label, name, clang["occupancy"], occ["waves_per_simd"], clang["mode"].upper(),
                 hw))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--xs12", required=True)
    ap.add_argument("--case", nargs=3, action="append", required=True,
                    metavar=("LABEL", "FILE.s", "FILE.hsaco"))
    args = ap.parse_args()
    problems = []
    for label, asm, hsaco in args.case:
        try:
            clang = parse_asm(asm)
            info = xs12_info(args.xs12, hsaco)
        except Fail as e:
            problems.append("%s: %s" % (label, e))
            continue
        xs = {k.get("name"): k for k in info["kernels"] if isinstance(k, dict)}
        if set(xs) != set(clang):
            problems.append("%s: kernels differ: clang %s, xs12 %s"
                            % (label, sorted(clang), sorted(xs)))
        for name in sorted(set(xs) & set(clang)):
            check_kernel(label, name, clang[name], xs[name], problems)
    if problems:
        print("FAIL:\n  " + "\n  ".join(problems))
        return 1
    print("PASS (%d code objects)" % len(args.case))
    return 0


if __name__ == "__main__":
    sys.exit(main())
