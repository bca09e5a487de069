#!/usr/bin/env python3
"""LLVM's constant folder as an oracle for the interpreter.

LLVM folds some llvm.amdgcn.* intrinsics at -O2 (ConstantFolding.cpp and the
AMDGPU InstCombine rules), with semantics its authors took from the hardware.
For each builtin below this test compiles one OpenCL kernel that applies it to
constant inputs (clang-15 -O2 -emit-llvm: the stored values are LLVM's) and
one that applies it to the same inputs read from buffers, which `xs12 run`
executes for gfx1030 (the interpreter's values). The two must be equal to the
bit; a NaN matches any NaN (LLVM's folded NaN payloads are its own). Inputs
LLVM declines to fold are counted, not compared.

usage: test_fold_oracle.py --xs12 XS12 --clang CLANG --device-libs DIR
Exit 77 (skip) without clang."""
import argparse, itertools, os, random, re, struct, subprocess, sys, tempfile

F = lambda x: struct.unpack('<I', struct.pack('<f', x))[0]
SPECIAL = [0x00000000, 0x80000000, F(1.0), F(-1.0), F(0.5), F(-2.0), F(3.0), F(-3.0), 0x7f800000, 0xff800000,
           0x7fc00000, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff]

# name: (expression over a, b, c as floats/uints; the C types of the inputs; inputs)
def grid3(vals):
    return list(itertools.product(vals, vals, vals))

def rand_f(rng, n):
    out = []
    for _ in range(n):
        e = rng.choice([0, 1, 100, 126, 127, 128, 150, 254, 255])
        out.append((rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23))
    return out

def cases():
    rng = random.Random(12345)
    small = [0x00000000, 0x80000000, F(1.0), F(-1.0), F(-2.0), 0x7f800000, 0xff800000, 0x7fc00000]
    trip = grid3(small) + [tuple(rand_f(rng, 3)) for _ in range(300)]
    # ties between components of equal magnitude and opposite signs
    trip += [(F(x), F(y), F(z)) for x, y, z in itertools.product([2.0, -2.0, 1.0], repeat=3)]
    one = [(v,) for v in SPECIAL + rand_f(rng, 200)]
    # fmed3 without NaNs: with one, the ISA's V_MED3_F32 is the min3 of the
    # three (IEEE mode quiets a signalling NaN first), which the interpreter
    # does; LLVM's fold takes minnum of the other two instead, a rule of its own.
    # Nor two zeros: LLVM 15's APFloat maxnum does not order -0 below +0 (it
    # returns its second argument), the interpreter's V_MAX_F32 does
    two_med = [t for t in [tuple(rand_f(rng, 3)) for _ in range(300)] + grid3(SPECIAL[:10])
               if not any(is_nan(v) for v in t) and sum((v & 0x7fffffff) == 0 for v in t) < 2]
    perm = [(rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32) & 0x0f0f0f0f | rng.choice([0, 0x0c0c0c0c]))
            for _ in range(200)]
    bfe = [(rng.getrandbits(32), rng.randrange(0, 40), rng.randrange(0, 40)) for _ in range(200)]
    ldexp = [(v, rng.choice([-300, -150, -126, -1, 0, 1, 10, 127, 200, 300])) for v in SPECIAL + rand_f(rng, 100)]
    cls = [(v, m) for v in SPECIAL + rand_f(rng, 20) for m in (1, 2, 4, 8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x3ff)]
    return {
        # builtin call: (result type, argument types, inputs)
        '__builtin_amdgcn_cubeid(a, b, c)': ('float', ('float', 'float', 'float'), trip),
        '__builtin_amdgcn_cubesc(a, b, c)': ('float', ('float', 'float', 'float'), trip),
        '__builtin_amdgcn_cubetc(a, b, c)': ('float', ('float', 'float', 'float'), trip),
        '__builtin_amdgcn_cubema(a, b, c)': ('float', ('float', 'float', 'float'), trip),
        '__builtin_amdgcn_fractf(a)': ('float', ('float',), one),
        '__builtin_amdgcn_frexp_mantf(a)': ('float', ('float',), one),
        '__builtin_amdgcn_frexp_expf(a)': ('int', ('float',), one),
        '__builtin_amdgcn_fmed3f(a, b, c)': ('float', ('float', 'float', 'float'), two_med),
        '__builtin_amdgcn_ldexpf(a, b)': ('float', ('float', 'int'), ldexp),
        '__builtin_amdgcn_class(a, b)': ('int', ('float', 'int'), cls),
        # rcp without denormals in or out: V_RCP_F32 flushes them whatever
        # MODE says, LLVM's fold does not (a TODO in its InstCombine says so)
        '__builtin_amdgcn_rcpf(a)': ('float', ('float',), [v for v in one + [(x,) for x in rand_f(rng, 1500)] if 0 < (v[0] >> 23 & 0xff) < 253
                                                          or (v[0] & 0x7fffffff) in (0, 0x7f800000)
                                                          or is_nan(v[0])]),
        '__builtin_amdgcn_cvt_pkrtz(a, b)': ('half2', ('float', 'float'), [tuple(rand_f(rng, 2)) for _ in range(200)]
                                             + list(itertools.product(SPECIAL, SPECIAL[:6]))),
        # (LLVM folds sin and cos at multiples of 1/8 revolution only)
        '__builtin_amdgcn_sinf(a)': ('float', ('float',), [(F(x / 8),) for x in range(-40, 41)]),
        '__builtin_amdgcn_cosf(a)': ('float', ('float',), [(F(x / 8),) for x in range(-40, 41)]),
        '__builtin_amdgcn_perm(a, b, c)': ('uint', ('uint', 'uint', 'uint'), perm),
        '__builtin_amdgcn_ubfe(a, b, c)': ('uint', ('uint', 'uint', 'uint'), bfe),
        '__builtin_amdgcn_sbfe(a, b, c)': ('int', ('int', 'uint', 'uint'), bfe),
    }

def lit(ty, bits):
    if ty == 'float':
        return f'as_float(0x{bits:08x}u)'
    if ty == 'int':
        return f'(int)0x{bits & 0xffffffff:08x}u' if bits >= 0 else f'({bits})'
    return f'0x{bits & 0xffffffff:08x}u'

def out_cast(ty, expr):
    return f'as_uint({expr})' if ty in ('float', 'half2') else f'(uint)({expr})'

def folded(clang, flags, tmp, call, rty, atys, inputs):
    """LLVM's values: one store per input, or None where a call is left."""
    body = []
    for i, args in enumerate(inputs):
        e = call
        for name, ty, v in zip('abc', atys, args):
            e = re.sub(rf'\b{name}\b', lit(ty, v), e)
        body.append(f'  o[{i}] = {out_cast(rty, e)};')
    src = os.path.join(tmp, 'fold.cl')
    with open(src, 'w') as f:
        f.write('kernel void k(global uint *o) {\n' + '\n'.join(body) + '\n}\n')
    ir = subprocess.run([clang] + flags + ['-O2', '-S', '-emit-llvm', src, '-o', '-'], capture_output=True,
                        text=True, check=True).stdout
    ptr = {'%0': 0}   # the GEPs off the argument (%0 is o itself)
    for m in re.finditer(r'(%\d+) = getelementptr inbounds i32, ptr addrspace\(1\) %0, i64 (\d+)', ir):
        ptr[m.group(1)] = int(m.group(2))
    got = [None] * len(inputs)
    for m in re.finditer(r'store i32 (-?\d+), ptr addrspace\(1\) (%\d+)', ir):
        if m.group(2) in ptr:
            got[ptr[m.group(2)]] = int(m.group(1)) & 0xffffffff
    return got

def executed(clang, flags, xs12, tmp, call, rty, atys, inputs):
    n = len(inputs)
    groups = (n + 63) // 64
    params = ', '.join(f'global const {ty} *{name}_' for name, ty in zip('abc', atys))
    loads = ' '.join(f'{ty} {name} = {name}_[i];' for name, ty in zip('abc', atys))
    src = os.path.join(tmp, 'run.cl')
    with open(src, 'w') as f:
        f.write(f'kernel void k({params}, global uint *o, uint n) {{\n  size_t i = get_global_id(0);\n'
                f'  if (i >= n) return;\n  {loads}\n  o[i] = {out_cast(rty, call)};\n}}\n')
    co = os.path.join(tmp, 'run.hsaco')
    subprocess.run([clang] + flags + ['-O2', src, '-o', co], check=True)
    args = []
    for k in range(len(atys)):
        path = os.path.join(tmp, f'in{k}.bin')
        with open(path, 'wb') as f:
            f.write(struct.pack(f'<{groups * 64}I', *([v[k] & 0xffffffff for v in inputs] + [0] * (groups * 64 - n))))
        args += ['--arg', f'in:{path}']
    out = os.path.join(tmp, 'o.bin')
    args += ['--arg', f'out:{out}:{groups * 64 * 4}', '--arg', f'u32:{n}']
    subprocess.run([xs12, 'run', co, '--groups', str(groups), '--block', '64', '--functional', '--threads', '1'] + args,
                   check=True, capture_output=True)
    with open(out, 'rb') as f:
        return list(struct.unpack(f'<{n}I', f.read(4 * n)))

def is_nan(bits):
    return (bits & 0x7f800000) == 0x7f800000 and (bits & 0x7fffff) != 0

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--xs12', required=True)
    ap.add_argument('--clang', required=True)
    ap.add_argument('--device-libs', required=True)
    o = ap.parse_args()
    if not os.path.exists(o.clang):
        return 77
    flags = ['-target', 'amdgcn-amd-amdhsa', '-mcpu=gfx1030', '-x', 'cl', '-cl-std=CL1.2',
             '--rocm-device-lib-path=' + o.device_libs, '-Xclang', '-finclude-default-header']
    bad = 0
    with tempfile.TemporaryDirectory(prefix='xs12_fold_') as tmp:
        for call, (rty, atys, inputs) in cases().items():
            want = folded(o.clang, flags, tmp, call, rty, atys, inputs)
            got = executed(o.clang, flags, o.xs12, tmp, call, rty, atys, inputs)
            nfold = sum(w is not None for w in want)
            wrong = [(i, w, g) for i, (w, g) in enumerate(zip(want, got))
                     if w is not None and w != g and not (rty == 'float' and is_nan(w) and is_nan(g))]
            print(f'{call}: {len(inputs)} inputs, {nfold} folded by LLVM, {len(wrong)} differ')
            for i, w, g in wrong[:8]:
                print(f'  inputs {" ".join(f"0x{v & 0xffffffff:08x}" for v in inputs[i])}: '
                      f'LLVM 0x{w:08x}, xs12 0x{g:08x}')
            # the oracle must have answered for most inputs, or the test tests nothing
            if nfold < len(inputs) // 2:
                print(f'  LLVM folded too few of them')
                bad += 1
            bad += len(wrong) > 0
    print(f'{bad} builtins wrong')
    return 1 if bad else 0

if __name__ == '__main__':
    sys.exit(main())
