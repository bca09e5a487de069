#!/usr/bin/env python3
"""Every instruction llc-15 emits for the graphics shaders of tests/isa/gfx
(amdpal and mesa3d, wave32 and wave64) decodes to the mnemonic llvm-objdump-15
prints and has an interpreter body (isa_decode_tool's impl=1). s_code_end is
padding after s_endpgm and never runs. Exit 77 without llc-15."""
import os, re, shutil, subprocess, sys, tempfile

tool, llc, objdump, *sources = sys.argv[1:]
if not os.path.exists(llc):
    sys.exit(77)
bad = checked = 0
with tempfile.TemporaryDirectory() as tmp:
    for src in sources:
        for triple in ('amdgcn--amdpal', 'amdgcn-mesa-mesa3d'):
            for attr in ([], ['-mattr=+wavefrontsize64']):
                obj = os.path.join(tmp, 'x.o')
                subprocess.run([llc, '-mtriple=' + triple, '-mcpu=gfx1030', '-filetype=obj', *attr, src, '-o', obj],
                               check=True)
                dis = subprocess.run([objdump, '-d', '--mcpu=gfx1030', obj], capture_output=True, text=True,
                                     check=True).stdout
                insts = re.findall(r'^\s+([a-z_0-9]+)[^\n]*//\s*[0-9A-Fa-f]+:((?: [0-9A-Fa-f]{8})+)', dis, re.M)
                lines = '\n'.join(words.strip() for m, words in insts if m != 's_code_end')
                out = subprocess.run([tool], input=lines + '\n', capture_output=True, text=True, check=True).stdout
                names = [m for m, _ in insts if m != 's_code_end']
                for want, got in zip(names, out.splitlines()):
                    checked += 1
                    mn = got.split()[0]
                    base = re.sub(r'_e(32|64)$', '', want)
                    if mn != base or 'impl=1' not in got:
                        print(f'{os.path.basename(src)} {triple} {attr}: {want}: xs12 {got}')
                        bad += 1
print(f'{checked} instructions checked, {bad} not executed as llvm-objdump-15 reads them')
sys.exit(1 if bad or not checked else 0)
