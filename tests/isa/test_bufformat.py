#!/usr/bin/env python3
"""The gfx10 buffer FORMAT numbers of the interpreter's table (buf_formats[] in
src/isa/xs_isa_exec_vmem.c) against llvm-mc-15, which names each number in
the MTBUF syntax: every entry must be the format LLVM calls by that name.
Exit 77 (skip) without llvm-mc-15."""
import re, shutil, subprocess, sys, os

src = sys.argv[1]
mc = shutil.which('llvm-mc-15') or '/usr/lib/llvm-15/bin/llvm-mc'
if not os.path.exists(mc):
    sys.exit(77)
table = dict((int(n), name) for n, name in re.findall(r'\[(\d+)\] = \{ "([0-9A-Z_]+)"', open(src).read()))
assert len(table) >= 40, f'only {len(table)} formats parsed from {src}'
lines = ''.join(f'tbuffer_load_format_x v0, v0, s[0:3], format:{n}, 0 idxen\n' for n in sorted(table))
out = subprocess.run([mc, '-arch=amdgcn', '-mcpu=gfx1030'], input=lines, capture_output=True, text=True,
                     check=True).stdout
got = [m for m in re.findall(r'tbuffer_load_format_x[^\n]*', out)]
assert len(got) == len(table), out
bad = 0
for n, text in zip(sorted(table), got):
    m = re.search(r'format:\[BUF_FMT_([0-9A-Z_]+)\]', text)
    llvm = m.group(1) if m else '8_UNORM'   # the default format (1) is not printed
    if llvm != table[n]:
        print(f'FORMAT {n}: xs12 says {table[n]}, llvm-mc-15 says {llvm}')
        bad += 1
print(f'{len(table)} formats checked, {bad} wrong')
sys.exit(1 if bad else 0)
