#!/usr/bin/env python3
"""Checks the PM4 register database against src/gpu/xs_gpu_regs.h.

xs_gpu_regs.h is the source of register addresses and field positions. For
every macro it defines:
  R_<ADDR>_<NAME> <value>          the database has register NAME at that byte
                                   address (and <ADDR> equals the value);
  S_/G_/C_<ADDR>_<FIELD> XS_FIELD_*(x, lo, width)
                                   the register at <ADDR> has FIELD at bit lo
                                   with that width (Mesa names a field macro by
                                   the first register of its type, so FIELD must
                                   also be in every register sharing it).
Field macros of pseudo-registers with no R_ macro (the V# words 0x8F04 and
0x8F0C) are skipped and listed.

usage: check_regdb.py [--self-test] PM4_REGDB_DUMP XS_GPU_REGS_H
--self-test: perturbs one field width and one address in a copy of the
header text and passes only if the check then fails (the check can fail).
"""
import re
import subprocess
import sys

R_RE = re.compile(r'^#define\s+R_([0-9A-F]{6})_(\w+)\s+(0x[0-9A-Fa-f]+)\b', re.M)
F_RE = re.compile(r'^#define\s+([SGC])_([0-9A-F]{6})_(\w+?)(?:\(x\))?\s+XS_FIELD_[SGC]\(\s*(?:x\s*,\s*)?'
                  r'(\d+)\s*,\s*(\d+)\s*\)', re.M)

ANY_F_RE = re.compile(r'^#define\s+([SGC]_[0-9A-F]{6}_\w+?)(?:\(x\))?\s', re.M)


def load_db(dump):
    out = subprocess.run([dump], check=True, capture_output=True, text=True).stdout
    regs, fields = {}, {}
    for line in out.splitlines():
        p = line.split()
        if p[0] == 'reg':
            regs[int(p[1], 16)] = (p[2], p[3])
        elif p[0] == 'field':
            fields.setdefault(int(p[1], 16), {})[p[2]] = (int(p[3]), int(p[4]))
    return regs, fields


def check(header_text, regs, fields):
    errors, notes = [], []
    r_macros = {}
    for m in R_RE.finditer(header_text):
        tag, name, value = int(m.group(1), 16), m.group(2), int(m.group(3), 16)
        r_macros[tag] = name
        if tag != value:
            errors.append(f'R_{m.group(1)}_{name} is 0x{value:x}, its name says 0x{tag:x}')
        if value not in regs:
            errors.append(f'R_{m.group(1)}_{name}: no register at 0x{value:x} in the database')
        elif regs[value][0] != name:
            errors.append(f'R_{m.group(1)}_{name}: the database calls 0x{value:x} {regs[value][0]}')
    if not r_macros:
        errors.append('no R_ macros found in the header')

    nfields = 0
    skipped = set()
    for m in F_RE.finditer(header_text):
        kind, tag, fname = m.group(1), int(m.group(2), 16), m.group(3)
        lo, width = int(m.group(4)), int(m.group(5))
        nfields += 1
        if tag not in r_macros:
            skipped.add(f'{m.group(2)}')
            continue
        # Registers sharing this field type: same database field list as the tag register.
        regfields = fields.get(tag, {})
        if fname not in regfields:
            errors.append(f'{kind}_{m.group(2)}_{fname}: {r_macros[tag]} has no field {fname} in the database')
            continue
        if regfields[fname] != (lo, width):
            errors.append(f'{kind}_{m.group(2)}_{fname}: header says bit {lo} width {width}, the database '
                          f'says bit {regfields[fname][0]} width {regfields[fname][1]}')
    parsed = {m.group(0).split()[1].split('(')[0] for m in F_RE.finditer(header_text)}
    for m in ANY_F_RE.finditer(header_text):
        if m.group(1) not in parsed:
            errors.append(f'{m.group(1)}: not of the form XS_FIELD_S/G/C(x, lo, width); cannot check it')
    if nfields == 0:
        errors.append('no field macros found in the header')
    if skipped:
        notes.append('skipped field macros of pseudo-registers without an R_ macro: ' +
                     ', '.join(sorted(skipped)))
    return errors, notes, len(r_macros), nfields


def main():
    args = sys.argv[1:]
    self_test = False
    if args and args[0] == '--self-test':
        self_test = True
        args = args[1:]
    dump, header = args
    regs, fields = load_db(dump)
    text = open(header).read()
    if self_test:
        mutations = [
            (r'(S_00B860_WAVESIZE\(x\)\s+XS_FIELD_S\(x, 12, )13', r'\g<1>14'),
            (r'(#define R_00B84C_COMPUTE_PGM_RSRC2 )0xB84C', r'\g<1>0xB850'),
            (r'(G_00B848_DEBUG_MODE\(x\)\s+XS_FIELD_G\(x, )22', r'\g<1>23'),
        ]
        for pat, rep in mutations:
            mutated, n = re.subn(pat, rep, text)
            if n != 1:
                print(f'self-test: pattern {pat!r} matched {n} times; update the self-test')
                return 1
            errors, _, _, _ = check(mutated, regs, fields)
            if not errors:
                print(f'self-test: mutation {pat!r} was not detected')
                return 1
            print(f'self-test: mutation detected: {errors[0]}')
        return 0
    errors, notes, nr, nf = check(text, regs, fields)
    for n in notes:
        print(n)
    for e in errors:
        print('MISMATCH:', e)
    print(f'{nr} R_ macros and {nf} field macros of {header} checked against {len(regs)} registers')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
