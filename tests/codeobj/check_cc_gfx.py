#!/usr/bin/env python3
"""xs12 cc --vs/--ps on bodies the samples do not cover: a VS result of 24
dwords (returned through an sret pointer) at -O0 and -O2 with a helper
function, a PS taking frag_coord/front_face before its attributes, and
bodies that break the conventions (each refused with a message naming the
problem). Exports are checked with llvm-objdump-15, not with xs12 itself."""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

xs12, objdump = sys.argv[1], sys.argv[2]
BIG_VS = """typedef struct { float4 pos; float4 a, b, c, d, e; } VSOut;
static float sq(float x) { return x * x; }
VSOut vs_main(float4 p, float4 q, uint instance_id, uint vertex_id)
{ VSOut o; o.pos = p; o.a = q; o.b = q * sq((float)vertex_id); o.c = p + q;
  o.d = (float4)((float)instance_id); o.e = p * 2.0f; return o; }
"""
FC_PS = """float4 ps_main(float4 frag_coord, uint front_face, float4 a0, float4 a1)
{ return a1 + frag_coord * (front_face ? 1.0f : -1.0f) + a0; }
"""
BAD = [
    ('vs', 'typedef struct { float4 pos; } VSOut;\nVSOut vs_main(int count) { VSOut o; o.pos = (float4)(count); return o; }\n',
     "parameter 'count': a uint parameter must be named vertex_id or instance_id"),
    ('ps', 'float4 main2(float4 c) { return c; }\n', 'ps_main: no such function'),
    ('ps', 'float ps_main(float4 c) { return c.x; }\n', 'returns float4 or a struct of 1..8 float4'),
    ('vs', 'typedef struct { float4 pos; } VSOut;\nVSOut vs_main(__global const float *data) { VSOut o; o.pos = (float4)(data[0]); return o; }\n',
     "parameter 'data': a pointer parameter must be named root"),
]
fails = []
with tempfile.TemporaryDirectory() as td:
    td = Path(td)

    def cc(stage, text, *flags):
        src = td / f'b.{stage}.cl'
        src.write_text(text)
        out = td / 'o.o'
        if out.exists():
            out.unlink()
        r = subprocess.run([xs12, 'cc', '--' + stage, str(src), '-o', str(out), *flags],
                           capture_output=True, text=True)
        return r, out

    def exps(out):
        d = subprocess.run([objdump, '-d', '--mcpu=gfx1030', str(out)], capture_output=True, text=True).stdout
        return sorted(m.group(1) for m in re.finditer(r'\bexp (\w+)', d))

    for opt in ('-O0', '-O2'):
        for abi in ('pal', 'mesa'):
            r, out = cc('vs', BIG_VS, opt, '--abi', abi)
            if r.returncode:
                fails.append(f'big VS {opt} {abi}: {r.stderr.strip()}')
            elif exps(out) != ['param0', 'param1', 'param2', 'param3', 'param4', 'pos0']:
                fails.append(f'big VS {opt} {abi}: exports {exps(out)}')
            r, out = cc('ps', FC_PS, opt, '--abi', abi)
            if r.returncode:
                fails.append(f'frag_coord PS {opt} {abi}: {r.stderr.strip()}')
            elif exps(out) != ['mrt0']:
                fails.append(f'frag_coord PS {opt} {abi}: exports {exps(out)}')
    for stage, text, want in BAD:
        r, out = cc(stage, text)
        if r.returncode == 0 or want not in r.stderr:
            fails.append(f'bad body {text[:40]!r}: rc {r.returncode}, stderr {r.stderr.strip()!r}, want {want!r}')
for f in fails:
    print(f)
print('ok' if not fails else f'{len(fails)} failures')
sys.exit(1 if fails else 0)
