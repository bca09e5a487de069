#!/usr/bin/env python3
"""`xs12 disasm` against llvm-objdump-15 -d --mcpu=gfx1030.

1. Kernels: every code object given on the command line (all keys of the
   meson dict kernel_targets). Offload bundles are unbundled with
   clang-offload-bundler for llvm-objdump (xs12 reads the bundle itself).
   The whole output must be identical, line by line, apart from the line
   naming the input file.
2. Synthetic: one instruction per opcode-table row (the operand templates of
   check_table.py, assembled with llvm-mc-15), the VOP3 (_e64) form of every
   VOP1/VOP2/VOPC row, and variants built from their encodings: every
   single-bit flip of each encoding (other registers, constants, modifiers,
   other opcodes and undecodable words), SDWA / DPP16 / DPP8 forms of every
   e32 row, and VOP3 sources replaced by inline float constants and
   literals. All are assembled into one object with llvm-mc-15 and both
   disassemblies must be identical, including the ".long" lines llvm-objdump
   prints for words it does not decode.

EXCEPTIONS lists instruction words left out of the comparison, with the
reason; it is empty. Words on which llvm-objdump-15 itself crashes (e.g.
SDWA selects of 7 with otherwise valid operands) are not generated.

usage: test_disasm.py --xs12 X --objdump O --mc M --bundler B --def OPS.def FILE...
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_table  # noqa: E402  (operand templates, parse_def, assemble)

NOP = 0xbf800000  # s_nop 0: padding after each synthetic candidate
BUNDLE_MAGIC = b'__CLANG_OFFLOAD_BUNDLE__'

BVH_OPS = (0xe6, 0xe7)  # image_bvh_intersect_ray / _bvh64_: fixed NSA layout

# instruction words (first dword, hex) -> why they are not compared
EXCEPTIONS = {}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def first_difference(ref, mine, what):
    """Compares two disassemblies line by line (the file-name line excluded);
    returns a message for the first difference or None."""
    ra = [l for l in ref.splitlines() if 'file format' not in l]
    ma = [l for l in mine.splitlines() if 'file format' not in l]
    for i in range(max(len(ra), len(ma))):
        r = ra[i] if i < len(ra) else '<end of output>'
        m = ma[i] if i < len(ma) else '<end of output>'
        if r != m:
            ctx = '\n'.join('    ' + l for l in ra[max(0, i - 3):i])
            return ('%s: first difference at line %d\n%s\n  llvm-objdump: %s\n  xs12 disasm:  %s' %
                    (what, i + 1, ctx, r, m))
    return None


def count_insts(text):
    return sum(1 for l in text.splitlines() if l.startswith('\t') and '//' in l and not l.startswith('\t.'))


def amdgpu_elf(path):
    with open(path, 'rb') as f:
        head = f.read(20)
    return head[:4] == b'\x7fELF' and int.from_bytes(head[18:20], 'little') == 224


def check_kernels(args, files, tmp):
    errors, ninst = [], 0
    for path in files:
        elf = path
        if not amdgpu_elf(path):
            # a bundle (or a host object with .hip_fatbin): the gfx10.3 entry for llvm-objdump
            ls = run([args.bundler, '--list', '--type=o', '--input=' + path])
            targets = [t for t in ls.stdout.split() if re.search(r'gfx103\d', t)]
            if ls.returncode != 0 or not targets:
                errors.append('%s: clang-offload-bundler finds no gfx10.3 entry: %s' % (path, ls.stderr.strip()))
                continue
            elf = os.path.join(tmp, os.path.basename(path) + '.elf')
            r = run([args.bundler, '--unbundle', '--type=o', '--input=' + path, '--targets=' + targets[0],
                     '--output=' + elf])
            if r.returncode != 0:
                errors.append('%s: unbundling failed: %s' % (path, r.stderr.strip()))
                continue
        ref = run([args.objdump, '-d', '--mcpu=gfx1030', elf])
        mine = run([args.xs12, 'disasm', path])
        if ref.returncode != 0 or mine.returncode != 0:
            errors.append('%s: llvm-objdump rc %d, xs12 disasm rc %d: %s' %
                          (path, ref.returncode, mine.returncode, mine.stderr.strip()))
            continue
        d = first_difference(ref.stdout, mine.stdout, path)
        if d:
            errors.append(d)
        ninst += count_insts(ref.stdout)
    return errors, ninst


def synthetic_words(args):
    """The instruction encodings of the synthetic check (lists of dwords)."""
    rows = check_table.parse_def(args.defs)
    lines, owner = [], []
    for i, r in enumerate(rows):
        for t in check_table.templates(r):
            lines.append(t)
            owner.append(i)
    asm = check_table.assemble(lines, args.mc)
    chosen = {}
    for k, res in enumerate(asm):
        i = owner[k]
        if res is not None and i not in chosen and check_table.strip(res[0].split()[0]) == rows[i]['name']:
            chosen[i] = res
    # VOP3 forms of the VOP1/VOP2/VOPC rows (as check_table.py builds them)
    e64_lines = []
    for i, r in enumerate(rows):
        if r['enc'] in check_table.PROMOTE and 'NOVOP3' not in r['flags'] and i in chosen:
            parts = chosen[i][0].split(None, 1)
            ops = parts[1] if len(parts) > 1 else ''
            ops = re.sub(r'\b(dst_sel|dst_unused|src0_sel|src1_sel):\S+', '', ops).strip()
            if r['enc'] == 'VOPC' or (r['enc'] == 'VOP2' and ('LMASK_IN' in r['flags'] or 'SDST' in r['flags'])):
                ops = ops.replace('vcc_lo', 's4')
            e64_lines.append('%s_e64 %s' % (check_table.strip(parts[0]), ops))
    e64 = [x for x in check_table.assemble(e64_lines, args.mc) if x is not None]
    base = [(rows[i]['enc'], chosen[i][1]) for i in sorted(chosen)] + [('VOP3', w) for _, w in e64]
    nrows = len(chosen)

    words = []
    for enc, w in base:
        words.append(list(w))
        # every single-bit flip of the first two dwords
        for b in range(64 if len(w) >= 2 else 32):
            x = list(w)
            x[b // 32] ^= 1 << (b % 32)
            words.append(x)
        if enc in ('VOP1', 'VOP2', 'VOPC') and len(w) == 1:
            w0 = w[0] & ~0x1ff
            vop1 = enc == 'VOP1'
            # SDWA dwords: src0, dst_sel/dst_unused/clamp (or VOPC sdst), src0_sel and
            # modifiers, src1_sel and modifiers (VOP1: none); no select is 7
            sdwas = [0x00060601, 0x00150c02, 0x0016031f, 0x00062481, 0x00080503, 0x00864d04]
            if not vop1:
                sdwas = [x | y for x in sdwas for y in (0x06000000, 0x25000000, 0x8c000000)]
            for sdwa in sdwas:
                words.append([w0 | 0xf9, sdwa])
            for dpp in (0xff00e401, 0xff011b02, 0x3508c103, 0xf1414004, 0xaf015f05, 0xff163606, 0x5f0d2107):
                words.append([w0 | 0xfa, dpp])
            for dpp8 in (0x00fac601, 0x0011a802):
                words.append([w0 | 0xe9, dpp8])
                words.append([w0 | 0xea, dpp8])
            for src in (0xf0, 0xf3, 0xf8, 0x80, 0xc1, 0xff):
                words.append([w0 | src, 0x3f800000])
                words.append([w0 | src, 0x00001234])
        if enc == 'MIMG' and len(w) == 2 and ((w[0] >> 18) & 0x7f | (w[0] & 1) << 7) not in BVH_OPS:
            # NSA forms: 1..3 address dwords over dims, a16, data sizes, d16 / tfe
            # (LLVM keeps its first variant when the counts do not fit)
            x0 = w[0] & ~(0xf << 8 | 7 << 3 | 6 | 1 << 16)
            x1 = w[1] & ~(3 << 30)
            for nsa in (1, 2, 3):
                for dim in (0, 2, 5, 6):
                    for a16 in (0, 1):
                        for dm, d16, tfe in ((1, 0, 0), (15, 0, 1), (7, 1, 0)):
                            words.append([x0 | nsa << 1 | dim << 3 | dm << 8 | tfe << 16, x1 | a16 << 30 | d16 << 31] +
                                         [0x04030201 + 0x10101010 * k for k in range(nsa)])
        if enc in ('VOP3', 'VOP3P') and len(w) == 2:
            for i in range(3):
                if (w[1] >> (9 * i)) & 0x1ff:
                    for src in (0xf0, 0xf1, 0xf8, 0xff, 0x6a, 0x7e):
                        x = [w[0], (w[1] & ~(0x1ff << (9 * i))) | src << (9 * i)]
                        for lit in (0x3f000000, 0x00003c00, 0x12345678):
                            words.append(x + [lit])
    return [ws for ws in words if '%08x' % ws[0] not in EXCEPTIONS], nrows, len(base)


def check_synthetic(args, tmp):
    words, nrows, nbase = synthetic_words(args)
    src, obj = os.path.join(tmp, 'synthetic.s'), os.path.join(tmp, 'synthetic.o')
    with open(src, 'w') as f:
        f.write('.text\n')
        for ws in words:
            f.write('.long ' + ', '.join('0x%08x' % w for w in ws + [NOP, NOP]) + '\n')
    r = run([args.mc, '-arch=amdgcn', '-mcpu=gfx1030', '-filetype=obj', src, '-o', obj])
    if r.returncode != 0:
        return ['llvm-mc failed: ' + r.stderr[:2000]], 0, 0, 0
    ref = run([args.objdump, '-d', '--mcpu=gfx1030', obj])
    mine = run([args.xs12, 'disasm', obj])
    if ref.returncode != 0 or mine.returncode != 0:
        return ['synthetic object: llvm-objdump rc %d, xs12 disasm rc %d %s' %
                (ref.returncode, mine.returncode, mine.stderr.strip())], 0, 0, 0
    d = first_difference(ref.stdout, mine.stdout, 'synthetic object (%s)' % src)
    ninst = count_insts(ref.stdout) - 2 * len(words)  # without the s_nop padding
    nlong = sum(1 for l in ref.stdout.splitlines() if l.startswith('\t.long'))
    return ([d] if d else []), ninst, nlong, nrows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--xs12', required=True)
    ap.add_argument('--objdump', required=True)
    ap.add_argument('--mc', required=True)
    ap.add_argument('--bundler', required=True)
    ap.add_argument('--def', dest='defs', required=True)
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        kerr, kinst = check_kernels(args, args.files, tmp)
        serr, sinst, slong, nrows = check_synthetic(args, tmp)
        if serr:
            # keep the object for a closer look
            keep = os.path.join(os.getcwd(), 'test_disasm_synthetic.s')
            try:
                with open(os.path.join(tmp, 'synthetic.s')) as a, open(keep, 'w') as b:
                    b.write(a.read())
                serr.append('(assembly kept in %s)' % keep)
            except OSError:
                pass
    print('%d code objects: %d instructions identical' % (len(args.files), kinst))
    print('synthetic: %d opcode-table rows and variants: %d instructions and %d undecodable words '
          'identical; %d exceptions' % (nrows, sinst, slong, len(EXCEPTIONS)))
    for e in kerr + serr:
        print('FAIL', e)
    sys.exit(1 if kerr or serr else 0)


if __name__ == '__main__':
    main()
