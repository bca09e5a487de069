#!/usr/bin/env python3
"""Differential test of the graphics shader loader against LLVM's tools.

For a VS/PS object (llc-15 amdgcn--amdpal or amdgcn-mesa-mesa3d, built by
`xs12 cc --vs/--ps`), compares `xs12 info --json` with:

  ELF OS/ABI (abi)                  llvm-readelf -h
  entry symbol                      llvm-readelf -s (the GLOBAL FUNC in .text)
  PAL registers, .hardware_stages   llvm-readelf --notes (the YAML dump)
  Mesa registers                    llvm-objcopy --dump-section .AMDGPU.config
  exports (pos/param/mrt, compr,    llvm-objdump -d: the exp lines per target
  mrtz, null), v_interp attributes  and the attrN of v_interp_* lines
  REL32 relocations                 llvm-readelf -r: S + A - P recomputed here
                                    from the object's bytes, compared with the
                                    loader's image (gfx_image)
  wave size                         --wave64 given to this script (the build flag)

Exit 0 if all match; 1 with the differences. --self-test-mutate FIELD
perturbs one field of the loader's answer and passes only if a difference
is then found (the comparison itself can fail).
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


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--xs12', required=True)
    ap.add_argument('--image', required=True)
    ap.add_argument('--readelf', required=True)
    ap.add_argument('--objdump', required=True)
    ap.add_argument('--objcopy', required=True)
    ap.add_argument('--wave64', action='store_true')
    ap.add_argument('--expect-relocs', type=int, default=0)
    ap.add_argument('--self-test-mutate')
    ap.add_argument('obj')
    a = ap.parse_args()
    obj = Path(a.obj)
    info = json.loads(run(a.xs12, 'info', '--json', str(obj)))
    if a.self_test_mutate:
        v = info[a.self_test_mutate]
        info[a.self_test_mutate] = (not v) if isinstance(v, bool) else (
            v + 1 if isinstance(v, int) else v + [31] if isinstance(v, list) else v + 'x')
    diffs = []

    def check(what, got, want):
        if got != want:
            diffs.append(f'{what}: xs12 {got!r}, LLVM tools {want!r}')

    data = obj.read_bytes()
    hdr = run(a.readelf, '-h', str(obj))
    m = re.search(r'OS/ABI:\s+(\S+)', hdr)
    osabi = m.group(1) if m else ''
    # readelf-15 prints these two as hex numbers (0x41 ELFOSABI_AMDGPU_PAL, 0x42 _MESA3D)
    abi = {'41': 'pal', 'AMDGPU_PAL': 'pal', '42': 'mesa', 'AMDGPU_MESA3D': 'mesa'}.get(osabi, osabi)
    check('abi', info['abi'], abi)

    # sections (name -> (offset, size)) and symbols
    secs = {}
    for line in run(a.readelf, '-S', '-W', str(obj)).splitlines():
        m = re.match(r'\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)', line)
        if m:
            secs[m.group(2)] = (int(m.group(1)), int(m.group(3), 16), int(m.group(4), 16))
    text_idx = secs['.text'][0]
    funcs = []
    syms = []
    for line in run(a.readelf, '-s', '-W', str(obj)).splitlines():
        m = re.match(r'\s*\d+:\s+([0-9a-f]+)\s+(\d+)\s+(\S+)\s+(\S+)\s+\S+\s+(\S+)\s*(\S*)', line)
        if m:
            syms.append(m.groups())
            if m.group(3) == 'FUNC' and m.group(4) == 'GLOBAL' and m.group(5) == str(text_idx):
                funcs.append((m.group(6), int(m.group(1), 16), int(m.group(2))))
    check('entry', [info['entry']], [f[0] for f in funcs])
    if funcs:
        check('entry_offset', info['entry_offset'], funcs[0][1])
        if funcs[0][2]:
            check('code_size', info['code_size'], funcs[0][2])

    # registers
    lanes = 64 if a.wave64 else 32
    check('wave_size', info['wave_size'], lanes)
    if abi == 'pal':
        notes = run(a.readelf, '--notes', str(obj))
        doc = yaml.safe_load(notes[notes.index('---'):notes.index('...', notes.index('---'))])
        pl = doc['amdpal.pipelines'][0]
        regs = {int(k) * 4: int(v) for k, v in pl['.registers'].items()}
        (stage_name, hs), = pl['.hardware_stages'].items()
        check('stage', info['stage'], stage_name.lstrip('.'))
        check('entry (metadata)', info['entry'], hs['.entry_point'])
        check('sgprs', info['sgprs'], hs['.sgpr_count'])
        check('scratch_bytes_per_lane', info['scratch_bytes_per_lane'], hs['.scratch_memory_size'])
        gran = 4 if a.wave64 else 8
        check('vgprs', info['vgprs'], -(-hs['.vgpr_count'] // gran) * gran)
        rsrc1 = regs.get(0xB128 if stage_name == '.vs' else 0xB028)
        check('rsrc1', info['rsrc1'], rsrc1)
        check('rsrc2', info['rsrc2'], regs.get(0xB12C if stage_name == '.vs' else 0xB02C, 0))
    else:
        with tempfile.TemporaryDirectory() as td:
            out = Path(td) / 'config.bin'
            run(a.objcopy, '--dump-section', f'.AMDGPU.config={out}', str(obj), str(Path(td) / 'o'))
            raw = out.read_bytes()
        regs = dict(struct.iter_unpack('<II', raw))
        stage = 'vs' if 0xB128 in regs else 'ps'
        check('stage', info['stage'], stage)
        rsrc1 = regs[0xB128 if stage == 'vs' else 0xB028]
        # the loader adds FLOAT_MODE 0xF0, DX10_CLAMP, MEM_ORDERED (bit 27 VS, 25 PS)
        check('rsrc1', info['rsrc1'], rsrc1 | 0xF0 << 12 | 1 << 21 | (1 << 27 if stage == 'vs' else 1 << 25))
        check('vgprs', info['vgprs'], ((rsrc1 & 0x3F) + 1) * (4 if a.wave64 else 8))
        wavesize = (regs.get(0x286E8, 0) >> 12) & 0x1FFF
        check('scratch_bytes_per_wave', info['scratch_bytes_per_wave'], wavesize * 1024)
        check('scratch_bytes_per_lane', info['scratch_bytes_per_lane'], wavesize * 1024 // lanes)
        check('rsrc2.SCRATCH_EN', info['rsrc2'] & 1, 1 if wavesize else 0)
        for pseudo in (4, 8):
            regs.pop(pseudo, None)
    stage = info['stage']
    if stage == 'ps':
        check('ps_input_ena', info['ps_input_ena'], regs.get(0x286CC, 0))
        check('ps_input_addr', info['ps_input_addr'], regs.get(0x286D0, 0))
    skip = {0xB128, 0xB028, 0xB12C, 0xB02C, 0x286CC, 0x286D0}
    check('registers', sorted((r['reg'], r['value']) for r in info['registers']),
          sorted((k, v) for k, v in regs.items() if k not in skip))

    # the code: exp targets and v_interp attributes
    dis = run(a.objdump, '-d', '--mcpu=gfx1030', str(obj))
    pos, par, mrt, compr, attrs = set(), set(), set(), set(), set()
    mrtz = null = False
    exec_writes, exp_lines = [], []
    for n_line, line in enumerate(dis.splitlines()):
        m = re.match(r'\s*s_\w+ (exec(?:_lo|_hi)?),\s*(\S+)', line)
        if m and not (line.strip().startswith('s_mov') and m.group(2) == m.group(1)):
            exec_writes.append(n_line)
        if re.match(r'\s*exp ', line):
            exp_lines.append(n_line)
        m = re.match(r'\s*exp (\w+?)(\d*) .*', line)
        if m:
            t, n = m.group(1), m.group(2)
            if t == 'pos':
                pos.add(int(n))
            elif t == 'param':
                par.add(int(n))
            elif t == 'mrt' and n:
                mrt.add(int(n))
                if ' compr' in line:
                    compr.add(int(n))
            elif t == 'mrtz':
                mrtz = True
            elif t == 'null':
                null = True
        m = re.search(r'v_interp_\w+ .*attr(\d+)\.', line)
        if m:
            attrs.add(int(m.group(1)))
    if stage == 'vs':
        check('pos', info['pos'], sorted(pos))
        check('params', info['params'], sorted(par))
    else:
        check('mrt', info['mrt'], sorted(mrt))
        check('mrt_compr', info['mrt_compr'], sorted(compr))
        check('writes_z', info['writes_z'], mrtz)
        check('kills', info['kills'], null or bool(exec_writes and exp_lines and exec_writes[0] < exp_lines[-1]))
        check('interp', info['interp'], sorted(attrs))
        check('num_interp', info['num_interp'], max(attrs) + 1 if attrs else 0)

    # relocations: S + A - P with the image layout (.rodata 256-aligned after .text)
    relocs = []
    for line in run(a.readelf, '-r', '-W', str(obj)).splitlines():
        m = re.match(r'([0-9a-f]{16})\s+[0-9a-f]+\s+(R_AMDGPU_REL32_(LO|HI))\s+([0-9a-f]+)\s+(\S+)', line)
        if m:
            relocs.append((int(m.group(1), 16), m.group(3), int(m.group(4), 16), m.group(5)))
    check('relocation count', len(relocs), a.expect_relocs)
    with tempfile.TemporaryDirectory() as td:
        img_path = Path(td) / 'image.bin'
        subprocess.run([a.image, str(obj), str(img_path)], check=True, capture_output=True)
        img = img_path.read_bytes()
    _, toff, tsize = secs['.text']
    rodata_off = (tsize + 255) & ~255
    check('image .text (unrelocated words)', bytes(
        b for i, b in enumerate(data[toff:toff + tsize])
        if not any(r[0] <= i < r[0] + 4 for r in relocs)),
        bytes(b for i, b in enumerate(img[:tsize]) if not any(r[0] <= i < r[0] + 4 for r in relocs)))
    if '.rodata' in secs:
        _, roff, rsize = secs['.rodata']
        check('image .rodata', img[rodata_off:rodata_off + rsize], data[roff:roff + rsize])
    for off, kind, sval, sname in relocs:
        base = rodata_off if sname in ('.rodata', ) or any(
            s[5] == sname and s[4] == str(secs.get('.rodata', (-1,))[0]) for s in syms) else 0
        addend = struct.unpack_from('<i', data, toff + off)[0]
        v = (base + sval + addend - off) & (2**64 - 1)
        want = v & 0xFFFFFFFF if kind == 'LO' else v >> 32
        check(f'relocated word at .text+0x{off:x} ({kind})', struct.unpack_from('<I', img, off)[0], want)

    if a.self_test_mutate:
        if diffs:
            print(f'self-test: the mutation of {a.self_test_mutate} was caught:', diffs[0])
            return 0
        print(f'self-test: mutating {a.self_test_mutate} went unnoticed')
        return 1
    for d in diffs:
        print(d)
    if not diffs:
        print(f'{obj.name}: {info["stage"]} {info["abi"]}, all fields match LLVM tools')
    return 1 if diffs else 0


if __name__ == '__main__':
    sys.exit(main())
