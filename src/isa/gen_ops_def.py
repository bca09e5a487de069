#!/usr/bin/env python3
"""Regenerates xs_isa_ops.def, the RDNA2 (gfx10.3) opcode table.

Run by hand (not at build time) when the table needs to change:

    python3 src/isa/gen_ops_def.py > src/isa/xs_isa_ops.def

Source of truth: the LLVM 15 tools on this machine. For every encoding the
script builds one candidate instruction word per opcode number (a few operand
shapes each, because LLVM's decoder rejects nonzero fields an instruction does
not use), assembles the words into an object with llvm-mc-15, disassembles it
with llvm-objdump-15 --mcpu=gfx1030 and keeps the opcodes that decode. The
mnemonic is what llvm-objdump prints (minus _e32/_e64/_sdwa/_dpp), operand
widths come from the printed register ranges. Issue classes and type flags
follow from the mnemonic (rules below). tests/isa/check_table.py re-checks
every row the other way round (assembles text, compares opcode bits).
"""
import json
import re
import subprocess
import sys
import tempfile
import os

LLVM_MC = 'llvm-mc-15'
OBJDUMP = 'llvm-objdump-15'
NOP = 0xbf800000  # s_nop 0: padding so that a rejected word cannot swallow the next candidate


def V(n):
    return 256 + n


def candidates():
    c = []

    def add(enc, op, *variants):
        for v in variants:
            c.append((enc, op, list(v)))

    for op in range(0x60):  # 0x60.. is the SOPK prefix
        add('SOP2', op, [0x80000000 | op << 23 | 4 << 8 | 2], [0x80000000 | op << 23 | 4 << 8 | 0xff, 0x12345])
    for op in range(0x1d):  # 0x1d..0x1f are the SOP1/SOPC/SOPP prefixes
        add('SOPK', op, [0xb0000000 | op << 23 | 0x10], [0xb0000000 | op << 23 | 0x10, 0x1234])
    for op in range(256):
        add('SOP1', op, [0xbe800000 | op << 8 | 2], [0xbe800000 | op << 8 | 0], [0xbe800000 | op << 8 | 0xff, 0x12345])
    for op in range(128):
        add('SOPC', op, [0xbf000000 | op << 16 | 4 << 8 | 2])
    for op in range(128):
        add('SOPP', op, [0xbf800000 | op << 16 | 0], [0xbf800000 | op << 16 | 1])
    for op in range(256):
        for sd, sb, off, so in ((0, 2, 0x10, 0x7d), (0, 0, 0x10, 0x7d), (0, 0, 0, 0x7d), (0, 0, 0, 0)):
            add('SMEM', op, [0xf4000000 | op << 18 | sd << 6 | sb, so << 25 | off])
    for op in range(0x3e):
        add('VOP2', op, [op << 25 | 2 << 9 | V(1)], [op << 25 | 2 << 9 | V(1), 0x3f800000])
    for op in range(256):
        add('VOP1', op, [0x7e000000 | op << 9 | V(1)], [0x7e000000 | op << 9 | 1], [0x7e000000 | op << 9])
    for op in range(256):
        add('VOPC', op, [0x7c000000 | op << 17 | 2 << 9 | V(1)])
    for op in range(1024):
        for s0, s1, s2 in ((V(1), V(2), V(3)), (V(1), V(2), 0), (V(1), 0, 0), (0, 0, 0), (V(1), V(2), 106)):
            add('VOP3', op, [0xd4000000 | op << 16, s0 | s1 << 9 | s2 << 18])
    for op in range(128):
        for s0, s1, s2 in ((V(1), V(2), V(3)), (V(1), V(2), 0), (V(1), 0, 0)):
            add('VOP3P', op, [0xcc000000 | op << 16 | 1 << 14, s0 | s1 << 9 | s2 << 18 | 3 << 27])
    for op in range(256):
        for gds in (0, 1):
            for a, d0, d1 in ((1, 2, 3), (1, 2, 0), (1, 0, 0), (0, 0, 0)):
                add('DS', op, [0xd8000000 | op << 18 | gds << 17, d1 << 16 | d0 << 8 | a])
    for op in range(256):
        for glc in (0, 1):
            for offen, va, rs, so in ((1, 1, 1, 0x80), (0, 0, 1, 0x80), (0, 0, 0, 0)):
                add('MUBUF', op, [0xe0000000 | (op & 127) << 18 | (op >> 7) << 25 | offen << 12 | glc << 14,
                                  so << 24 | rs << 16 | va])
    for op in range(16):
        add('MTBUF', op, [0xe8000000 | (op & 7) << 16 | 1 << 19 | 1 << 12, 0x80 << 24 | (op >> 3) << 21 | 1 << 16 | 1])
    for op in range(256):
        for dm in (1, 0xf):
            for r128 in (0, 1):
                for ss in (3, 0):
                    for dim in (0, 1, 6):
                        add('MIMG', op, [0xf0000000 | (op & 127) << 18 | (op >> 7) | dm << 8 | r128 << 15 | dim << 3,
                                         ss << 21 | 2 << 16 | 1])
        # NSA forms (image_bvh*_intersect_ray: 11/12 addresses, unorm and r128 set)
        for nsa, extra in ((2, [0x0d0c0b0a, 0x11100f0e]), (3, [0x0d0c0b0a, 0x11100f0e, 0x00141312]),
                           (3, [0x0d0c0b0a, 0x11100f0e, 0x00001312])):
            add('MIMG', op, [0xf0000000 | (op & 127) << 18 | (op >> 7) | 0xf << 8 | 1 << 15 | 1 << 12 | nsa << 1,
                             1 << 16 | 4 << 8 | 9] + extra)
    for seg, name in ((0, 'FLAT'), (1, 'SCRATCH'), (2, 'GLOBAL')):
        for op in range(128):
            for glc in (0, 1):
                for sa, da, ad in ((0x7d, 2, 1), (0x7d, 0, 1), (2, 2, 1), (2, 0, 1), (2, 2, 0), (2, 0, 0)):
                    add(name, op, [0xdc000000 | op << 18 | seg << 14 | glc << 16, sa << 16 | da << 8 | ad])
    for op in range(4):
        add('VINTRP', op, [0xc8000000 | op << 16 | 1])
    add('EXP', 0, [0xf8000000 | 0xf, 0x03020100])
    return c


def enumerate_llvm():
    cands = candidates()
    with tempfile.TemporaryDirectory() as d:
        src, obj = os.path.join(d, 'c.s'), os.path.join(d, 'c.o')
        with open(src, 'w') as f:
            f.write('.text\n')
            for _, _, ws in cands:
                f.write('.long ' + ', '.join('0x%08x' % w for w in ws + [NOP] * 6) + '\n')
        subprocess.run([LLVM_MC, '-arch=amdgcn', '-mcpu=gfx1030', '-filetype=obj', src, '-o', obj], check=True)
        out = subprocess.run([OBJDUMP, '-d', '--mcpu=gfx1030', obj], capture_output=True, text=True,
                             check=True).stdout
    got = {}
    for line in out.splitlines():
        m = re.match(r'\s+(.*?)\s*// ([0-9A-F]{12}): ((?:[0-9A-F]{8} ?)+)(?:<.*>)?$', line)
        if m and not m.group(1).startswith('.long'):
            got[int(m.group(2), 16)] = (m.group(1), len(m.group(3).split()))
    res = {}
    pos = 0
    for enc, op, ws in cands:
        g = got.get(pos)
        if g and g[1] == len(ws) and (enc, op) not in res:
            res[(enc, op)] = g[0]
        pos += 4 * len(ws) + 24
    return res


def split_ops(text):
    """'v_add_f32_e32 v0, v1, v2' -> ('v_add_f32', 'e32', ['v0', 'v1', 'v2'])"""
    parts = text.split(None, 1)
    name = parts[0]
    form = ''
    for suf in ('_e32', '_e64', '_sdwa', '_dpp'):
        if name.endswith(suf):
            name, form = name[:-len(suf)], suf[1:]
    ops = []
    if len(parts) > 1:
        depth = 0
        cur = ''
        for ch in parts[1]:
            if ch in '[(':
                depth += 1
            elif ch in '])':
                depth -= 1
            if ch == ',' and depth == 0:
                ops.append(cur.strip())
                cur = ''
            else:
                cur += ch
        if cur.strip():
            ops.append(cur.strip())
    return name, form, ops


def regcount(o):
    o = o.split()[0] if o else o
    m = re.match(r'^[vs]\[(\d+):(\d+)\]$', o)
    if m:
        return int(m.group(2)) - int(m.group(1)) + 1
    if re.match(r'^[vs]\d+$', o) or o in ('vcc_lo', 'vcc_hi', 'exec_lo', 'exec_hi', 'm0', 'null'):
        return 1
    if o in ('vcc', 'exec'):
        return 2
    return 0


VOP3B = {'v_add_co_u32', 'v_sub_co_u32', 'v_subrev_co_u32', 'v_add_co_ci_u32', 'v_sub_co_ci_u32',
         'v_subrev_co_ci_u32', 'v_div_scale_f32', 'v_div_scale_f64', 'v_mad_u64_u32', 'v_mad_i64_i32'}
TRANS = re.compile(r'^v_(exp|log|rcp|rcp_iflag|rsq|sqrt|sin|cos)(_legacy)?_f(16|32)$')
BRANCHES = re.compile(r'^s_(branch|cbranch_.*|setpc_b64|swappc_b64|rfe_b64|call_b64|subvector_loop_.*)$')
INTERNAL = re.compile(r'^s_(nop|waitcnt.*|barrier|sleep|clause|code_end|inst_prefetch|wait_idle|setprio|'
                      r'icache_inv|endpgm.*|sethalt|setkill|incperflevel|decperflevel|ttracedata.*|wakeup|'
                      r'version)$')
MSG = re.compile(r'^s_(sendmsg.*|trap)$')


# Named after 16-bit elements, but 32-bit operands and result: v_sad_u16
# sums the absolute differences of the two packed u16 halves of S0 and S1
# and adds the u32 S2, a 32-bit result (ISA V_SAD_U16; llvm-mc-15 rejects
# op_sel on it). The name rule would make it a 16-bit op (op_sel, the
# result cut to 16 bits and merged into the destination's other half).
# v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 read u8 bytes and write packed u16
# SADs in 64 bits: no 16-bit source either (llvm-mc-15 rejects op_sel).
WORD_NAMED = {'v_sad_u16', 'v_qsad_pk_u16_u8', 'v_mqsad_pk_u16_u8'}


def flags_for(enc, name, ops, has_vop3):
    f = []
    w = [regcount(o) for o in ops]
    # Source type: the last type token of the mnemonic (v_cvt_f32_u32 reads u32,
    # v_cvt_u32_f32 reads f32). Float types select float inline constants
    # (64/16-bit forms) and float abs/neg modifiers.
    # Destination type: the first type token (v_cvt_f32_u32 writes f32); float
    # results take omod/clamp. 16-bit sources/results take op_sel.
    if name.startswith('v_'):
        ty = re.findall(r'_([fiub])(16|32|64)', name)
        if name in WORD_NAMED:
            ty = [('u', '32')]
        if ty and ty[-1][0] == 'f':
            f.append('F' + ty[-1][1])
        if ty and ty[-1][1] == '16' and not name.startswith('v_pk_') and enc != 'VOP3P':
            f.append('SRC16')
        packed = '_pk' in name or enc == 'VOP3P'
        if ty and ty[0][0] == 'f' and not name.startswith('v_cmp') and (not packed or name == 'v_fma_mix_f32'):
            f.append('DF' + ty[0][1])
        if ty and ty[0][1] == '16' and not packed and not name.startswith('v_cmp'):
            f.append('DST16')
    # 64-bit operands of signed type take a sign-extended 32-bit literal
    # (LLVM D70274: the hardware zero-extends the literal of the others)
    if '_i64' in name and enc in ('SOP2', 'SOP1', 'SOPC', 'VOPC', 'VOP3'):
        f.append('I64')
    if enc in ('SOP2', 'SOP1', 'SOPK', 'SOPC'):
        dst = None
        srcs = []
        if enc == 'SOPC':
            srcs = w
        elif enc == 'SOPK':
            dst = w[0] if w else None
        elif enc == 'SOP1' and name in ('s_setpc_b64', 's_rfe_b64'):
            srcs = w
        elif enc == 'SOP1' and name == 's_getpc_b64':
            dst = w[0]
        else:
            dst, srcs = (w[0] if w else None), w[1:]
        if dst == 2:
            f.append('D64')
        for i, s in enumerate(srcs[:2]):
            if s == 2:
                f.append('S%d_64' % i)
        if BRANCHES.match(name):
            f.append('BRANCH')
    elif enc == 'SOPP':
        if BRANCHES.match(name):
            f.append('BRANCH')
    elif enc in ('VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P'):
        if enc == 'VOPC' or name.startswith('v_cmp'):
            f.append('CMP')
            if name.startswith('v_cmpx'):
                f.append('CMPX')
            srcs = w[-2:]
            dst = None
        else:
            dst = w[0] if ops else None
            srcs = w[1:]
            if name in VOP3B:
                f.append('SDST')
                srcs = w[2:]
        if name in ('v_cndmask_b32', 'v_add_co_ci_u32', 'v_sub_co_ci_u32', 'v_subrev_co_ci_u32'):
            f.append('LMASK_IN')
            srcs = srcs[:2] + [0]
        if dst == 2:
            f.append('D64')
        for i, s in enumerate(srcs[:3]):
            if s == 2:
                f.append('S%d_64' % i)
        if enc in ('VOP1', 'VOP2', 'VOPC') and not has_vop3:
            f.append('NOVOP3')
        if name in ('v_fmamk_f32', 'v_fmaak_f32', 'v_fmamk_f16', 'v_fmaak_f16'):
            f.append('KIMM')
    elif enc in ('SMEM',):
        if name.startswith('s_load') or name.startswith('s_buffer_load'):
            f.append('LOAD')
            f.append('DW(%d)' % w[0])
    elif enc in ('DS', 'MUBUF', 'MTBUF', 'FLAT', 'GLOBAL', 'SCRATCH', 'MIMG'):
        base = name
        if 'atomic' in base or base.startswith('ds_') and re.search(
                r'_(add|sub|rsub|inc|dec|min|max|and|or|xor|mskor|wrxchg|wrxchg2|wrxchg2st64|cmpst|wrap|condxchg32|'
                r'fadd|consume|append|ordered|gws)', base):
            f.append('ATOMIC')
        elif 'store' in base or base.startswith('ds_write'):
            f.append('STORE')
        elif 'load' in base or base.startswith('ds_read') or base.startswith('image_') or base.startswith('ds_swizzle') \
                or base.startswith('ds_permute') or base.startswith('ds_bpermute'):
            f.append('LOAD')
        n = mem_dwords(name)
        if n:
            f.append('DW(%d)' % n)
    return f


def mem_dwords(name):
    """Dwords per element of a memory instruction, from its name."""
    m = re.search(r'dwordx(\d)', name)
    if m:
        return int(m.group(1))
    m = re.search(r'_b(32|64|96|128)$|_b(32|64)_|_[fiu](32|64)$', name)
    if m:
        bits = int(next(g for g in m.groups() if g))
        return bits // 32
    if re.search(r'_x2$', name):
        return 2
    if re.search(r'dword|byte|short|_b16|_b8|_u8|_i8|_u16|_i16|_csub$|_format_d16_(x|xy)$', name):
        return 1
    m = re.search(r'format_(?:d16_)?(x|xy|xyz|xyzw)$', name)
    if m:
        n = len(m.group(1))
        return (n + 1) // 2 if '_d16_' in name else n
    if re.search(r'_(swap|cmpswap|add|sub|smin|umin|smax|umax|and|or|xor|inc|dec|fcmpswap|fmin|fmax)$', name):
        return 1
    return 0


def has_rtn(name):
    return '_rtn' in name or name in ('ds_append', 'ds_consume', 'ds_ordered_count', 'ds_swizzle_b32',
                                      'ds_permute_b32', 'ds_bpermute_b32', 'ds_read_addtid_b32')


def iclass_for(enc, name, flags):
    if enc in ('SOP2', 'SOP1', 'SOPK', 'SOPC', 'SOPP'):
        if BRANCHES.match(name):
            return 'BRANCH'
        if MSG.match(name):
            return 'MSG'
        if INTERNAL.match(name):
            return 'INTERNAL'
        return 'SALU'
    if enc == 'SMEM':
        return 'SMEM'
    if enc in ('VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P', 'VINTRP'):
        if name in ('v_nop', 'v_pipeflush', 'v_clrexcp'):
            return 'VALU'
        if '_f64' in name or name in ('v_div_scale_f64', 'v_div_fmas_f64'):
            return 'VALU_DP'
        if TRANS.match(name):
            return 'VALU_TRANS'
        return 'VALU'
    if enc == 'DS':
        return 'LDS'
    if enc == 'EXP':
        return 'EXPORT'
    if name in ('buffer_gl0_inv', 'buffer_gl1_inv', 'buffer_wbinvl1'):
        return 'INTERNAL'
    if 'ATOMIC' in flags:
        return 'VMEM_ATOMIC'
    if 'STORE' in flags:
        return 'VMEM_STORE'
    return 'VMEM_LOAD'


ORDER = ['SOP2', 'SOPK', 'SOP1', 'SOPC', 'SOPP', 'SMEM', 'VOP2', 'VOP1', 'VOPC', 'VOP3', 'VOP3P', 'VINTRP',
         'DS', 'MUBUF', 'MTBUF', 'MIMG', 'FLAT', 'GLOBAL', 'SCRATCH', 'EXP']
PROMOTE = {'VOPC': 0x000, 'VOP2': 0x100, 'VOP1': 0x180}


def main():
    res = enumerate_llvm()
    names = {}
    for (enc, op), text in res.items():
        names[(enc, op)] = split_ops(text)
    rows = []
    seen = set()
    for enc in ORDER:
        for op in sorted(o for (e, o) in names if e == enc):
            name, form, ops = names[(enc, op)]
            if enc == 'VOP3':
                # promoted VOPC/VOP2/VOP1 forms are rows of their native encoding
                promoted = False
                for e2, base in PROMOTE.items():
                    if base <= op < base + (0x40 if e2 == 'VOP2' else 0x100) and (e2, op - base) in names \
                            and names[(e2, op - base)][0] == name:
                        promoted = True
                # VINTRP ops also have a VOP3 form (v_interp_*_e64 at 0x200 + op)
                if ('VINTRP', op - 0x200) in names and names[('VINTRP', op - 0x200)][0] == name:
                    promoted = True
                if promoted:
                    continue
            if name in seen:
                sys.exit('duplicate mnemonic %s' % name)
            seen.add(name)
            has_vop3 = False
            if enc in PROMOTE:
                n3 = names.get(('VOP3', PROMOTE[enc] + op))
                has_vop3 = bool(n3 and n3[0] == name)
            fl = flags_for(enc, name, ops, has_vop3)
            rows.append((enc, op, name, iclass_for(enc, name, fl), fl))
    print('/* The RDNA2 (gfx10.3) opcode table: one line per instruction.')
    print(' *   XS_ISA_OP(encoding, opcode, mnemonic, issue class, flags)')
    print(' * Generated by src/isa/gen_ops_def.py from llvm-objdump-15 --mcpu=gfx1030 (every opcode')
    print(' * number of every encoding disassembled); checked by tests/isa/check_table.py, which')
    print(' * assembles each mnemonic with llvm-mc-15 and compares the opcode bits.')
    print(' * VOPC/VOP2/VOP1 rows also exist in VOP3 form at opcode 0x000/0x100/0x180 + op')
    print(' * unless flagged NOVOP3. Encoding and class columns are XS_ENC_/XS_IC_ names')
    print(' * without the prefix; flags are XS_OPF_* bits (xs_isa.h). */')
    for enc, op, name, ic, fl in rows:
        fs = '|'.join('XS_OPF_' + x for x in fl) if fl else '0'
        print('XS_ISA_OP(%s, 0x%03x, %s, %s, %s)' % (enc, op, name, ic, fs))
    print('%d rows' % len(rows), file=sys.stderr)


if __name__ == '__main__':
    main()
