#!/usr/bin/env python3
"""Checks every row of src/isa/xs_isa_ops.def against llvm-mc-15.

For each row an assembly line is generated from the mnemonic and a
per-encoding operand template (register widths from the row's flags; a few
alternative shapes per encoding, the first one llvm-mc accepts is used). The
line is assembled with `llvm-mc-15 -arch=amdgcn -mcpu=gfx1030 -show-encoding`
and the test checks that
  * llvm-mc prints the same mnemonic back (minus _e32/_e64/_sdwa/_dpp),
  * the opcode field of the encoding (extracted here, independently of the C
    decoder) equals the row's opcode, in the row's encoding,
  * VOPC/VOP2/VOP1 rows not flagged NOVOP3 also assemble as _e64 with VOP3
    opcode 0x000/0x100/0x180 + op,
  * the C decoder (isa_decode_tool) turns the encoded words back into the row
    with the size llvm-mc produced.
Rows llvm-mc cannot assemble from any template are listed in EXCEPTIONS with
the reason; an exception that starts passing is reported too.

usage: check_table.py <xs_isa_ops.def> <isa_decode_tool> [llvm-mc]
"""
import re
import subprocess
import sys

# mnemonic -> why no template assembles it
EXCEPTIONS = {
    'buffer_wbinvl1': 'disassembler-only row: llvm-objdump-15 prints MUBUF op 0xf1 as buffer_wbinvl1, '
                      'while llvm-mc-15 assembles buffer_wbinvl1 to op 0x71 (= buffer_gl0_inv)',
}

PROMOTE = {'VOPC': 0x000, 'VOP2': 0x100, 'VOP1': 0x180}


def parse_def(path):
    rows = []
    for line in open(path):
        m = re.match(r'XS_ISA_OP\((\w+), (0x[0-9a-f]+), (\w+), (\w+), (.*)\)\s*$', line)
        if m:
            flags = set(re.findall(r'XS_OPF_(\w+?)(?:\((\d+)\))?(?:\||$)', m.group(5)))
            fl = {f for f, _ in flags}
            dw = next((int(n) for f, n in flags if f == 'DW'), 0)
            rows.append(dict(enc=m.group(1), op=int(m.group(2), 16), name=m.group(3), cls=m.group(4),
                             flags=fl, dw=dw))
    return rows


def v(n, w):
    return 'v%d' % n if w == 1 else 'v[%d:%d]' % (n, n + w - 1)


def s(n, w):
    return 's%d' % n if w == 1 else 's[%d:%d]' % (n, n + w - 1)


def templates(r):
    m, f, dw = r['name'], r['flags'], r['dw'] or 1
    D = 2 if 'D64' in f else 1
    S0 = 2 if 'S0_64' in f else 1
    S1 = 2 if 'S1_64' in f else 1
    S2 = 2 if 'S2_64' in f else 1
    e = r['enc']
    if e == 'SOP2':
        return ['%s %s, %s, %s' % (m, s(0, D), s(2, S0), s(4, S1))]
    if e == 'SOPK':
        return ['%s s0, 0x10' % m, '%s 0x10' % m, '%s s[0:1], 4' % m, '%s s0, hwreg(HW_REG_MODE)' % m,
                '%s hwreg(HW_REG_MODE), s0' % m, '%s hwreg(HW_REG_MODE), 0x1234' % m, '%s null, 0x1' % m,
                '%s s0, 4' % m]
    if e == 'SOP1':
        return ['%s %s, %s' % (m, s(0, D), s(2, S0)), '%s %s' % (m, s(0, D)), '%s %s' % (m, s(2, S0)),
                '%s %s, s2' % (m, s(0, D))]
    if e == 'SOPC':
        return ['%s %s, %s' % (m, s(2, S0), s(4, S1))]
    if e == 'SOPP':
        return [m, '%s 1' % m, '%s 0x1' % m]
    if e == 'SMEM':
        t = []
        for w in dict.fromkeys((dw, 1, 2, 4, 8, 16)):
            t += ['%s %s, s[2:3], 0x10' % (m, s(0, w)), '%s %s, s[4:7], 0x10' % (m, s(0, w))]
        return t + [m, '%s s[0:1]' % m, '%s 0, s[2:3], 0x10' % m, '%s 0, s[4:7], 0x10' % m]
    if e == 'VOP1':
        return ['%s_e32 %s, %s' % (m, v(0, D), v(1, S0)), '%s s0, v1' % m, m, '%s %s, %s' % (m, v(0, D), v(1, S0))]
    if e == 'VOP2':
        return ['%s_e32 %s, %s, %s' % (m, v(0, D), v(1, S0), v(2, S1)), '%s_e32 v0, vcc_lo, v1, v2, vcc_lo' % m,
                '%s_e32 v0, v1, v2, vcc_lo' % m, '%s v0, v1, 0x1234, v2' % m, '%s v0, v1, v2, 0x1234' % m,
                '%s v0, v1, v2' % m]
    if e == 'VOPC':
        return ['%s_e32 vcc_lo, %s, %s' % (m, v(1, S0), v(2, S1)), '%s_e32 %s, %s' % (m, v(1, S0), v(2, S1))]
    if e == 'VOP3':
        a, b, c, d = v(1, S0), v(3, S1), v(5, S2), v(8, D)
        return ['%s %s, %s, %s, %s' % (m, d, a, b, c), '%s %s, %s, %s' % (m, d, a, b), '%s %s, %s' % (m, d, a),
                '%s %s, s0, %s, %s, %s' % (m, d, a, b, c), '%s %s, s0, %s, %s' % (m, d, a, b),
                '%s s0, v1, s1' % m, '%s v0, s1, s2' % m, '%s v0, v2, attr1.x, v3' % m, '%s v0, v2, attr1.x' % m,
                '%s v[0:3], v[4:5], v12, v[6:9]' % m, '%s v[0:1], v[4:5], v12, v[6:7]' % m, '%s v0, v1, s1, s2' % m]
    if e == 'VOP3P':
        return ['%s v0, v1, v2, v3' % m, '%s v0, v1, v2' % m]
    if e == 'VINTRP':
        return ['%s v0, v1, attr0.x' % m, '%s v0, p10, attr0.x' % m]
    if e == 'DS':
        t = []
        for d in dict.fromkeys((dw, 2 * dw)):
            t += ['%s %s, v1' % (m, v(0, d)), '%s %s, v1, %s' % (m, v(0, d), v(2, dw)),
                  '%s %s, v1, %s, %s' % (m, v(0, d), v(2, dw), v(4, dw)), '%s %s' % (m, v(0, d))]
        t += ['%s v1, %s' % (m, v(2, dw)), '%s v1, %s, %s' % (m, v(2, dw), v(4, dw)), '%s v1' % m, m]
        return t + [x + ' gds' for x in t]
    if e == 'MUBUF':
        t = []
        for d in dict.fromkeys((dw, 2 * dw, 1, 2, 3, 4)):
            t += ['%s %s, v1, s[4:7], 0 offen' % (m, v(0, d)), '%s %s, v1, s[4:7], 0 offen glc' % (m, v(0, d))]
        return t + [m]
    if e == 'MTBUF':
        return ['%s %s, v1, s[4:7], 0 format:[BUF_FMT_32_FLOAT] offen' % (m, v(0, d))
                for d in dict.fromkeys((dw, 1, 2, 3, 4))]
    if e == 'MIMG':
        t = []
        for d in (1, 2, 4):
            for a in (1, 2, 3, 4, 5, 8):
                t += ['%s %s, %s, s[8:15], s[16:19] dmask:0x%x dim:SQ_RSRC_IMG_1D' % (m, v(0, d), v(10, a),
                                                                                    (1 << d) - 1),
                      '%s %s, %s, s[8:15] dmask:0x%x dim:SQ_RSRC_IMG_1D' % (m, v(0, d), v(10, a), (1 << d) - 1),
                      '%s %s, %s, s[8:15] dmask:0x%x dim:SQ_RSRC_IMG_1D glc' % (m, v(0, d), v(10, a),
                                                                               (1 << d) - 1)]
            t += ['%s %s, v[10:13], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D' % (m, v(0, 4))]
        for a in (2, 3, 4, 5, 8):
            t += ['%s v[0:3], %s, s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D' % (m, v(10, a)),
                  '%s v[0:3], %s, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA' % (m, v(10, a))]
        nsa = lambda k: '[' + ', '.join('v%d' % (10 + i) for i in range(k)) + ']'
        t += ['%s v[0:3], v[10:17], s[4:7] a16' % m, '%s v[0:3], %s, s[4:7]' % (m, nsa(11)),
              '%s v[0:3], %s, s[4:7]' % (m, nsa(12))]
        return t
    if e in ('FLAT', 'GLOBAL', 'SCRATCH'):
        t = []
        for d in dict.fromkeys((dw, 2 * dw)):
            if e == 'FLAT':
                t += ['%s %s, v[1:2]' % (m, v(0, d)), '%s v[1:2], %s' % (m, v(4, d)),
                      '%s %s, v[1:2], %s glc' % (m, v(0, dw), v(4, d))]
            elif e == 'GLOBAL':
                t += ['%s %s, v[1:2], off' % (m, v(0, d)), '%s v[1:2], %s, off' % (m, v(4, d)),
                      '%s %s, v[1:2], %s, off glc' % (m, v(0, dw), v(4, d)), '%s %s, s[2:3]' % (m, v(0, d)),
                      '%s v1, s[2:3]' % m]
            else:
                t += ['%s %s, v1, off' % (m, v(0, d)), '%s v1, %s, off' % (m, v(4, d))]
        return t
    if e == 'EXP':
        return ['exp mrt0 v0, v1, v2, v3']
    return []


def opcode_bits(enc, words):
    w0 = words[0]
    w1 = words[1] if len(words) > 1 else 0
    return {
        'SOP2': lambda: (w0 >> 23) & 0x7f, 'SOPK': lambda: (w0 >> 23) & 0x1f, 'SOP1': lambda: (w0 >> 8) & 0xff,
        'SOPC': lambda: (w0 >> 16) & 0x7f, 'SOPP': lambda: (w0 >> 16) & 0x7f, 'SMEM': lambda: (w0 >> 18) & 0xff,
        'VOP2': lambda: (w0 >> 25) & 0x3f, 'VOP1': lambda: (w0 >> 9) & 0xff, 'VOPC': lambda: (w0 >> 17) & 0xff,
        'VOP3': lambda: (w0 >> 16) & 0x3ff, 'VOP3P': lambda: (w0 >> 16) & 0x7f,
        'VINTRP': lambda: (w0 >> 16) & 3, 'DS': lambda: (w0 >> 18) & 0xff,
        'MUBUF': lambda: ((w0 >> 18) & 0x7f) | ((w0 >> 25) & 1) << 7,
        'MTBUF': lambda: ((w0 >> 16) & 7) | ((w1 >> 21) & 1) << 3,
        'MIMG': lambda: ((w0 >> 18) & 0x7f) | (w0 & 1) << 7,
        'FLAT': lambda: (w0 >> 18) & 0x7f, 'GLOBAL': lambda: (w0 >> 18) & 0x7f,
        'SCRATCH': lambda: (w0 >> 18) & 0x7f, 'EXP': lambda: 0,
    }[enc]()


# Format prefix of dword 0 per encoding, as (shift, value): checks that
# llvm-mc put the row in the encoding the table says.
PREFIX = {'SOP2': (30, 2), 'SOPK': (28, 0xb), 'SOP1': (23, 0x17d), 'SOPC': (23, 0x17e), 'SOPP': (23, 0x17f),
          'SMEM': (26, 0x3d), 'VOP2': (31, 0), 'VOP1': (25, 0x3f), 'VOPC': (25, 0x3e), 'VOP3': (26, 0x35),
          'VOP3P': (23, 0x198), 'VINTRP': (26, 0x32), 'DS': (26, 0x36), 'MUBUF': (26, 0x38),
          'MTBUF': (26, 0x3a), 'MIMG': (26, 0x3c), 'FLAT': (26, 0x37), 'GLOBAL': (26, 0x37),
          'SCRATCH': (26, 0x37), 'EXP': (26, 0x3e)}
SEG = {'FLAT': 0, 'SCRATCH': 1, 'GLOBAL': 2}


def strip(name):
    for suf in ('_e32', '_e64', '_sdwa', '_dpp'):
        if name.endswith(suf):
            return name[:-len(suf)]
    return name


def assemble(lines, mc):
    """-> list (per input line) of (text, words) or None when llvm-mc rejects it."""
    src = '\n'.join(lines) + '\n'
    r = subprocess.run([mc, '-arch=amdgcn', '-mcpu=gfx1030', '-show-encoding'], input=src,
                       capture_output=True, text=True)
    bad = set(int(x) for x in re.findall(r'<stdin>:(\d+):\d+: error', r.stderr))
    outs = []
    for line in r.stdout.splitlines():
        mm = re.match(r'\s*(.*?)\s*; encoding: \[(.*)\]', line)
        if mm:
            b = [int(x, 16) for x in mm.group(2).split(',')]
            words = [int.from_bytes(bytes(b[i:i + 4]), 'little') for i in range(0, len(b), 4)]
            outs.append((mm.group(1), words))
    res, oi = [], 0
    for i in range(1, len(lines) + 1):
        if i in bad:
            res.append(None)
        else:
            res.append(outs[oi])
            oi += 1
    if oi != len(outs):
        sys.exit('internal: llvm-mc output does not line up with its input')
    return res


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = parse_def(sys.argv[1])
    tool = sys.argv[2]
    mc = sys.argv[3] if len(sys.argv) > 3 else 'llvm-mc-15'
    lines, owner = [], []
    for i, r in enumerate(rows):
        for t in templates(r):
            lines.append(t)
            owner.append(i)
    asm = assemble(lines, mc)
    chosen = {}
    for k, res in enumerate(asm):
        i = owner[k]
        if res is None or i in chosen:
            continue
        if strip(res[0].split()[0]) == rows[i]['name']:
            chosen[i] = res
    errors = []
    # e64 forms of VOPC/VOP2/VOP1
    e64_lines, e64_rows = [], []
    for i, r in enumerate(rows):
        if r['enc'] in PROMOTE and 'NOVOP3' not in r['flags'] and i in chosen:
            text = chosen[i][0]
            parts = text.split(None, 1)
            base = strip(parts[0])
            ops = parts[1] if len(parts) > 1 else ''
            ops = re.sub(r'\b(dst_sel|dst_unused|src0_sel|src1_sel):\S+', '', ops).strip()
            if r['enc'] == 'VOP2' and 'LMASK_IN' in r['flags'] and 'SDST' not in r['flags']:
                ops = ops.replace('vcc_lo', 's4')
            elif r['enc'] == 'VOP2' and 'SDST' in r['flags']:
                ops = ops.replace('vcc_lo', 's4')
            elif r['enc'] == 'VOPC':
                ops = ops.replace('vcc_lo', 's4')
            e64_lines.append('%s_e64 %s' % (base, ops))
            e64_rows.append(i)
    e64 = assemble(e64_lines, mc) if e64_lines else []
    # decode everything with the C decoder
    dec_in = [' '.join('0x%08x' % w for w in chosen[i][1]) for i in sorted(chosen)]
    dec_in += [' '.join('0x%08x' % w for w in res[1]) if res else '0x0' for res in e64]
    out = subprocess.run([tool], input='\n'.join(dec_in) + '\n', capture_output=True, text=True,
                         check=True).stdout.splitlines()
    dec = dict(zip(sorted(chosen), out[:len(chosen)]))
    dec64 = out[len(chosen):]

    for i, r in enumerate(rows):
        name = r['name']
        if i not in chosen:
            if name not in EXCEPTIONS:
                errors.append('%s: no template assembles with llvm-mc (%s)' % (name, templates(r)[:2]))
            continue
        if name in EXCEPTIONS:
            continue
        text, words = chosen[i]
        sh, val = PREFIX[r['enc']]
        if (words[0] >> sh) != val or (r['enc'] in SEG and ((words[0] >> 14) & 3) != SEG[r['enc']]):
            errors.append('%s: llvm-mc encodes it outside %s: %s' % (name, r['enc'], text))
            continue
        got = opcode_bits(r['enc'], words)
        if got != r['op']:
            errors.append('%s: table opcode 0x%x, llvm-mc encodes 0x%x (%s)' % (name, r['op'], got, text))
        f = dec[i].split()
        if f[0] != name or int(f[2]) != 4 * len(words) or f[1] != r['enc']:
            errors.append('%s: decoder gives "%s" for %s (%d bytes)' % (name, dec[i], text, 4 * len(words)))
    for k, i in enumerate(e64_rows):
        r = rows[i]
        res = e64[k]
        if res is None:
            errors.append('%s: _e64 form does not assemble: %s' % (r['name'], e64_lines[k]))
            continue
        text, words = res
        want = PROMOTE[r['enc']] + r['op']
        if (words[0] >> 26) != 0x35 or ((words[0] >> 16) & 0x3ff) != want:
            errors.append('%s: _e64 encodes VOP3 opcode 0x%x, expected 0x%x (%s)' %
                          (r['name'], (words[0] >> 16) & 0x3ff, want, text))
        f = dec64[k].split()
        if f[0] != r['name'] or f[1] != 'VOP3':
            errors.append('%s: decoder gives "%s" for %s' % (r['name'], dec64[k], text))
    checked = len([i for i in chosen if rows[i]['name'] not in EXCEPTIONS])
    print('%d rows, %d assembled and checked, %d e64 forms checked, %d exceptions' %
          (len(rows), checked, len(e64_rows), len([r for r in rows if r['name'] in EXCEPTIONS])))
    for e in errors:
        print('FAIL', e)
    sys.exit(1 if errors else 0)


if __name__ == '__main__':
    main()
