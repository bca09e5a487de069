#!/usr/bin/env python3
"""Decoder tests against the LLVM 15 tools.

1. Every instruction of every kernel given on the command line (the
   kernels/ build products), as llvm-objdump-15 prints it: the decoder must
   name the same instruction and give the same size, and the interpreter
   must have a body for it.
2. Hand-written cases covering every encoding and the modifier forms
   (literal, VOP3b sdst, DPP16, DPP8, SDWA, DS two offsets, MUBUF
   offen/idxen, global saddr, scratch, MIMG NSA, ...): each line is assembled
   with llvm-mc-15 and the decoded fields must equal the expectation written
   next to it (operand encoding: SGPR n = n, VGPR n = 256 + n, VCC 106,
   EXEC 126, NULL 125, inline 0..64 = 128 + n, literal 255).

usage: test_decode.py <isa_decode_tool> <llvm-mc> <llvm-objdump> <kernel.hsaco>...
"""
import re
import subprocess
import sys

# xs_inst.mods bits (xs_isa.h XS_MOD_*)
ABS = [1 << 0, 1 << 1, 1 << 2]
NEG = [1 << 3, 1 << 4, 1 << 5]
OPSEL = [1 << 6, 1 << 7, 1 << 8, 1 << 9]
OPSEL_HI = [1 << 10, 1 << 11, 1 << 12]
NEG_HI = [1 << 13, 1 << 14, 1 << 15]
CLAMP = 1 << 16
OMOD = lambda n: n << 17
GLC, SLC, DLC, OFFEN, IDXEN, LDS, TFE, GDS = (1 << b for b in range(19, 27))
SDWA, DPP16, DPP8, DPP8_FI, LIT = 1 << 27, 1 << 28, 1 << 29, 1 << 30, 1 << 31
V = lambda n: 256 + n
VCC, EXEC, NULL, M0, LITERAL = 106, 126, 125, 124, 255
I = lambda n: 128 + n if n >= 0 else 192 - n

# (assembly, wave64, expected fields); src is a list of the leading sources
CASES = [
    ('s_add_u32 s1, s2, 0x12345678', False,
     dict(op='s_add_u32', enc='SOP2', size=8, dst=1, src=[2, LITERAL], lit=0x12345678, mods=LIT)),
    ('s_mov_b64 s[4:5], -1', False, dict(op='s_mov_b64', enc='SOP1', size=4, dst=4, src=[I(-1)])),
    ('s_movk_i32 s3, 0xfff0', False, dict(op='s_movk_i32', enc='SOPK', size=4, dst=3, imm=-16)),
    ('s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xabcd', False,
     dict(op='s_setreg_imm32_b32', enc='SOPK', size=8, imm=0x1801, lit=0xabcd, mods=LIT)),
    ('s_cmp_lt_u32 s0, 64', False, dict(op='s_cmp_lt_u32', enc='SOPC', size=4, src=[0, I(64)])),
    ('s_branch -3', False, dict(op='s_branch', enc='SOPP', size=4, imm=-3)),
    ('s_waitcnt_vscnt null, 0x0', False, dict(op='s_waitcnt_vscnt', enc='SOPK', size=4, dst=NULL)),
    ('s_load_dwordx4 s[8:11], s[4:5], 0x10', False,
     dict(op='s_load_dwordx4', enc='SMEM', size=8, dst=8, src=[4, NULL], imm=0x10)),
    ('s_load_dword s3, s[6:7], s9 offset:-8', False,
     dict(op='s_load_dword', enc='SMEM', size=8, dst=3, src=[6, 9], imm=-8)),
    ('s_buffer_load_dword s0, s[4:7], 0x4 glc', False,
     dict(op='s_buffer_load_dword', enc='SMEM', size=8, dst=0, src=[4, NULL], imm=4, mods=GLC)),
    ('v_mov_b32 v1, 0x12345678', False,
     dict(op='v_mov_b32', enc='VOP1', size=8, dst=V(1), src=[LITERAL], lit=0x12345678, mods=LIT)),
    ('v_mov_b32 v1, 0.15915494', False, dict(op='v_mov_b32', enc='VOP1', size=4, dst=V(1), src=[248])),
    ('v_readfirstlane_b32 s7, v3', False, dict(op='v_readfirstlane_b32', enc='VOP1', size=4, dst=7, src=[V(3)])),
    ('v_add_nc_u32 v2, s4, v3', False, dict(op='v_add_nc_u32', enc='VOP2', size=4, dst=V(2), src=[4, V(3)])),
    ('v_cndmask_b32 v0, v1, v2, vcc_lo', False,
     dict(op='v_cndmask_b32', enc='VOP2', size=4, dst=V(0), src=[V(1), V(2), VCC])),
    ('v_cndmask_b32_e64 v0, v1, v2, s[4:5]', True,
     dict(op='v_cndmask_b32', enc='VOP3', size=8, dst=V(0), src=[V(1), V(2), 4])),
    ('v_add_co_ci_u32_e32 v1, vcc_lo, v2, v3, vcc_lo', False,
     dict(op='v_add_co_ci_u32', enc='VOP2', size=4, dst=V(1), sdst=VCC, src=[V(2), V(3), VCC])),
    ('v_add_co_ci_u32_e64 v1, s6, v2, v3, s8', False,
     dict(op='v_add_co_ci_u32', enc='VOP3', size=8, dst=V(1), sdst=6, src=[V(2), V(3), 8])),
    ('v_add_co_u32 v5, s[10:11], v6, 17', True,
     dict(op='v_add_co_u32', enc='VOP3', size=8, dst=V(5), sdst=10, src=[V(6), I(17)])),
    ('v_mad_u64_u32 v[2:3], null, v4, v5, v[6:7]', False,
     dict(op='v_mad_u64_u32', enc='VOP3', size=8, dst=V(2), sdst=NULL, src=[V(4), V(5), V(6)])),
    ('v_fmac_f32 v9, v1, v2', False, dict(op='v_fmac_f32', enc='VOP2', size=4, dst=V(9), src=[V(1), V(2), V(9)])),
    ('v_fmamk_f32 v0, v1, 0x40400000, v2', False,
     dict(op='v_fmamk_f32', enc='VOP2', size=8, dst=V(0), src=[V(1), LITERAL, V(2)], lit=0x40400000, mods=LIT)),
    ('v_fmaak_f32 v0, v1, v2, 0x40400000', False,
     dict(op='v_fmaak_f32', enc='VOP2', size=8, dst=V(0), src=[V(1), V(2), LITERAL], lit=0x40400000, mods=LIT)),
    ('v_add_f32_e64 v5, -|v1|, s3 clamp mul:2', False,
     dict(op='v_add_f32', enc='VOP3', size=8, dst=V(5), src=[V(1), 3], mods=ABS[0] | NEG[0] | CLAMP | OMOD(1))),
    ('v_add3_u32 v0, 0x1234, v1, 0x1234', False,
     dict(op='v_add3_u32', enc='VOP3', size=12, dst=V(0), src=[LITERAL, V(1), LITERAL], lit=0x1234, mods=LIT)),
    ('v_fma_f16 v1, v2, v3, v4 op_sel:[1,0,0,1]', False,
     dict(op='v_fma_f16', enc='VOP3', size=8, dst=V(1), src=[V(2), V(3), V(4)], mods=OPSEL[0] | OPSEL[3])),
    ('v_add_nc_u16 v1, v2, v3 op_sel:[1,0,1]', False,
     dict(op='v_add_nc_u16', enc='VOP3', size=8, dst=V(1), src=[V(2), V(3)], mods=OPSEL[0] | OPSEL[3])),
    ('v_readlane_b32 s5, v7, s2', False, dict(op='v_readlane_b32', enc='VOP3', size=8, dst=5, src=[V(7), 2])),
    ('v_writelane_b32 v4, s1, 3', False, dict(op='v_writelane_b32', enc='VOP3', size=8, dst=V(4), src=[1, I(3)])),
    ('v_lshlrev_b64 v[0:1], 3, v[2:3]', False,
     dict(op='v_lshlrev_b64', enc='VOP3', size=8, dst=V(0), src=[I(3), V(2)])),
    ('v_cmp_gt_i32 vcc_lo, 0, v4', False, dict(op='v_cmp_gt_i32', enc='VOPC', size=4, sdst=VCC, src=[I(0), V(4)])),
    ('v_cmp_eq_u64_e64 s[4:5], v[0:1], v[2:3]', True,
     dict(op='v_cmp_eq_u64', enc='VOP3', size=8, sdst=4, src=[V(0), V(2)])),
    ('v_cmpx_gt_u32 s1, v0', False, dict(op='v_cmpx_gt_u32', enc='VOPC', size=4, sdst=EXEC, src=[1, V(0)])),
    ('v_cmpx_lt_f32_e64 -v1, v2', False,
     dict(op='v_cmpx_lt_f32', enc='VOP3', size=8, sdst=EXEC, src=[V(1), V(2)], mods=NEG[0])),
    ('v_and_b32_sdwa v1, v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:DWORD',
     False, dict(op='v_and_b32', enc='VOP2', size=8, dst=V(1), src=[V(2), V(3)], mods=SDWA, ext=0x06011502)),
    ('v_mov_b32_sdwa v0, s1 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1', False,
     dict(op='v_mov_b32', enc='VOP1', size=8, dst=V(0), src=[1], mods=SDWA)),
    ('v_add_f32_sdwa v0, -v1, |v2| dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD', False,
     dict(op='v_add_f32', enc='VOP2', size=8, dst=V(0), src=[V(1), V(2)], mods=SDWA | NEG[0] | ABS[1])),
    ('v_cmp_eq_u32_sdwa s5, v1, v2 src0_sel:BYTE_1 src1_sel:WORD_0', False,
     dict(op='v_cmp_eq_u32', enc='VOPC', size=8, sdst=5, src=[V(1), V(2)], mods=SDWA)),
    ('v_cmp_eq_u32_sdwa vcc_lo, v1, v2 src0_sel:BYTE_1 src1_sel:WORD_0', False,
     dict(op='v_cmp_eq_u32', enc='VOPC', size=8, sdst=VCC, src=[V(1), V(2)], mods=SDWA)),
    ('v_add_f32_dpp v0, v1, v2 quad_perm:[1,2,3,0] row_mask:0xa bank_mask:0x5 bound_ctrl:0 fi:1', False,
     dict(op='v_add_f32', enc='VOP2', size=8, dst=V(0), src=[V(1), V(2)], mods=DPP16, ext=0xa50c3901)),
    ('v_mov_b32_dpp v3, v4 row_shr:1 row_mask:0xf bank_mask:0xf', False,
     dict(op='v_mov_b32', enc='VOP1', size=8, dst=V(3), src=[V(4)], mods=DPP16, ext=0xff011104)),
    ('v_add_f32_dpp v0, v1, v2 dpp8:[1,2,3,0,4,5,6,7] fi:1', False,
     dict(op='v_add_f32', enc='VOP2', size=8, dst=V(0), src=[V(1), V(2)], mods=DPP8 | DPP8_FI)),
    ('v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[1,0] neg_hi:[0,1]', False,
     dict(op='v_pk_add_f16', enc='VOP3P', size=8, dst=V(0), src=[V(1), V(2)],
          mods=OPSEL[0] | OPSEL_HI[1] | OPSEL_HI[2] | NEG[0] | NEG_HI[1])),   # unused src2: op_sel_hi 1
    ('v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,0,1]', False,
     dict(op='v_fma_mix_f32', enc='VOP3P', size=8, dst=V(0), src=[V(1), V(2), V(3)],
          mods=OPSEL_HI[0] | OPSEL_HI[2])),
    ('v_interp_p1_f32 v0, v1, attr2.z', False,
     dict(op='v_interp_p1_f32', enc='VINTRP', size=4, dst=V(0), src=[V(1)], ext=2 | 2 << 6)),
    ('ds_write2_b32 v1, v2, v3 offset0:4 offset1:8', False,
     dict(op='ds_write2_b32', enc='DS', size=8, src=[V(1), V(2), V(3)], imm=0x0804, ext=8)),
    ('ds_read2st64_b32 v[4:5], v1 offset1:1', False,
     dict(op='ds_read2st64_b32', enc='DS', size=8, dst=V(4), src=[V(1)], imm=0x100, ext=1)),
    ('ds_read_b32 v0, v1 offset:4660', False, dict(op='ds_read_b32', enc='DS', size=8, dst=V(0), src=[V(1)], imm=4660)),
    ('ds_add_rtn_u32 v0, v1, v2 gds', False,
     dict(op='ds_add_rtn_u32', enc='DS', size=8, dst=V(0), src=[V(1), V(2)], mods=GDS)),
    ('buffer_load_dword v5, v1, s[8:11], s3 offen offset:16', False,
     dict(op='buffer_load_dword', enc='MUBUF', size=8, dst=V(5), src=[V(1), 8, 3], imm=16, mods=OFFEN)),
    ('buffer_store_dwordx2 v[2:3], v[6:7], s[4:7], 0 idxen offen offset:4095 glc slc dlc', False,
     dict(op='buffer_store_dwordx2', enc='MUBUF', size=8, dst=V(2), src=[V(6), 4, I(0)], imm=4095,
          mods=IDXEN | OFFEN | GLC | SLC | DLC)),
    ('buffer_load_ubyte v1, off, s[0:3], s4 offset:65', False,
     dict(op='buffer_load_ubyte', enc='MUBUF', size=8, dst=V(1), src=[V(0), 0, 4], imm=65)),
    ('buffer_gl0_inv', False, dict(op='buffer_gl0_inv', enc='MUBUF', size=8)),
    ('tbuffer_load_format_x v0, v1, s[4:7], 0 format:[BUF_FMT_32_FLOAT] offen offset:4', False,
     dict(op='tbuffer_load_format_x', enc='MTBUF', size=8, dst=V(0), src=[V(1), 4, I(0)], imm=4,
          mods=OFFEN, ext=22)),
    ('global_load_dword v0, v[1:2], off offset:-16', False,
     dict(op='global_load_dword', enc='GLOBAL', size=8, dst=V(0), src=[V(1), V(0), NULL], imm=-16)),
    ('global_load_dwordx4 v[4:7], v1, s[2:3] offset:2047', False,
     dict(op='global_load_dwordx4', enc='GLOBAL', size=8, dst=V(4), src=[V(1), V(0), 2], imm=2047)),
    ('global_store_short v[1:2], v3, off glc', False,
     dict(op='global_store_short', enc='GLOBAL', size=8, src=[V(1), V(3), NULL], mods=GLC)),
    ('global_atomic_add v0, v[1:2], v3, off glc', False,
     dict(op='global_atomic_add', enc='GLOBAL', size=8, dst=V(0), src=[V(1), V(3), NULL], mods=GLC)),
    ('flat_load_dword v0, v[1:2] offset:16', False,
     dict(op='flat_load_dword', enc='FLAT', size=8, dst=V(0), src=[V(1), V(0), NULL], imm=16)),
    ('scratch_load_dword v0, v1, off offset:-16', False,
     dict(op='scratch_load_dword', enc='SCRATCH', size=8, dst=V(0), src=[V(1), V(0), NULL], imm=-16)),
    ('scratch_store_dword off, v2, s3 offset:8', False,
     dict(op='scratch_store_dword', enc='SCRATCH', size=8, src=[NULL, V(2), 3], imm=8)),
    ('scratch_load_dword v0, off, off offset:16', False,
     dict(op='scratch_load_dword', enc='SCRATCH', size=8, dst=V(0), src=[NULL, V(0), NULL], imm=16)),
    ('image_sample v[0:3], v[1:2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D', False,
     dict(op='image_sample', enc='MIMG', size=8, dst=V(0), src=[V(1), 8, 16], ext=0xf | 1 << 4)),
    ('image_bvh_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19], s[4:7]', False,
     dict(op='image_bvh_intersect_ray', enc='MIMG', size=20, dst=V(4), src=[V(9), 4])),
    ('exp mrt0 v0, v1, v2, v3 done vm', False, dict(op='exp', enc='EXP', size=8, src=[V(0), V(1), V(2), V(3)])),
]

KEYS = ('dst', 'sdst', 'imm', 'mods', 'ext', 'lit')


def decode(tool, lines):
    out = subprocess.run([tool], input='\n'.join(lines) + '\n', capture_output=True, text=True, check=True)
    res = []
    for line in out.stdout.splitlines():
        f = line.split()
        if f[0] == 'invalid':
            res.append(None)
            continue
        d = dict(op=f[0], enc=f[1], size=int(f[2]))
        for kv in f[3:]:
            k, v = kv.split('=')
            if k == 'src':
                d['src'] = [int(x) for x in v.split(',')]
            else:
                d[k] = int(v, 0)
        res.append(d)
    return res


def assemble(mc, line, w64):
    args = [mc, '-arch=amdgcn', '-mcpu=gfx1030', '-show-encoding']
    if w64:
        args.append('-mattr=+wavefrontsize64')
    r = subprocess.run(args, input=line + '\n', capture_output=True, text=True)
    m = re.search(r'; encoding: \[(.*)\]', r.stdout)
    if not m:
        return None, r.stderr.strip()
    b = [int(x, 16) for x in m.group(1).split(',')]
    return [int.from_bytes(bytes(b[i:i + 4]), 'little') for i in range(0, len(b), 4)], None


def main():
    tool, mc, objdump = sys.argv[1:4]
    kernels = sys.argv[4:]
    errors = []
    # 1. real kernels
    lines, expect = [], []
    for k in kernels:
        out = subprocess.run([objdump, '-d', '--mcpu=gfx1030', k], capture_output=True, text=True,
                             check=True).stdout
        for l in out.splitlines():
            m = re.match(r'\s+(\S+).*// [0-9A-F]{12}: ((?:[0-9A-F]{8} ?)+)', l)
            if not m or m.group(1).startswith('.'):
                continue
            name = m.group(1)
            for suf in ('_e32', '_e64', '_sdwa', '_dpp'):
                if name.endswith(suf):
                    name = name[:-len(suf)]
            ws = m.group(2).split()
            lines.append(' '.join(ws))
            expect.append((name, 4 * len(ws), l.strip(), k))
    for (name, size, text, k), d in zip(expect, decode(tool, lines)):
        if d is None or d['op'] != name or d['size'] != size:
            errors.append('%s: %s -> %s' % (k, text, d))
        elif not d['impl']:
            errors.append('%s: %s is not implemented by the interpreter' % (k, text))
    print('kernels: %d instructions from %d code objects checked' % (len(expect), len(kernels)))
    # 2. hand-written cases
    words = []
    for asm, w64, _ in CASES:
        ws, err = assemble(mc, asm, w64)
        if ws is None:
            errors.append('llvm-mc rejects case "%s": %s' % (asm, err))
            words.append('0x0')
        else:
            words.append(' '.join('0x%08x' % w for w in ws))
    for (asm, _, exp), d in zip(CASES, decode(tool, words)):
        if d is None:
            errors.append('%s: does not decode' % asm)
            continue
        for k, v in exp.items():
            if k == 'src':
                if d['src'][:len(v)] != v:
                    errors.append('%s: src %s, expected %s' % (asm, d['src'][:len(v)], v))
            elif k == 'mods':
                if d['mods'] != v:
                    errors.append('%s: mods 0x%x, expected 0x%x' % (asm, d['mods'], v))
            elif d.get(k) != v:
                errors.append('%s: %s %s, expected %s' % (asm, k, d.get(k), v))
        if 'mods' not in exp and d['mods'] != 0:
            errors.append('%s: mods 0x%x, expected none' % (asm, d['mods']))
    print('cases: %d assembled and checked' % len(CASES))
    # 3. words that are no instruction
    bad = decode(tool, ['0xffffffff 0xffffffff', '0xdc00c000 0x0', '0xcc800000 0x0'])
    for w, d in zip(('0xffffffff', 'FLAT seg 3', 'VOP3P prefix with bit 23 set'), bad):
        if d is not None:
            errors.append('%s decodes as %s' % (w, d['op']))
    for e in errors:
        print('FAIL', e)
    sys.exit(1 if errors else 0)


if __name__ == '__main__':
    main()
