#!/usr/bin/env python3
"""`xs12 pm4` end to end.

usage: test_cli.py XS12 DATA_DIR VADD.hsaco

- data/sample.txt prints exactly data/sample.expected (the golden text), exit 0;
  the same dwords as a raw little-endian .bin print the same;
- --json parses, has every packet and no error;
- data/malformed.txt prints data/malformed.expected (what decoded), then exits 1
  with the error naming the dword on stderr; --json reports the same error;
- a raw stream cut inside a packet, a type-0 packet, a bad hex token, a file of
  a size that is not a whole number of dwords: exit 1 with a specific message;
- usage errors exit 2; --help exits 0; an empty stream prints nothing;
- a recording over 64 MiB (the limit of a raw stream, read whole) is decoded:
  a recording is read batch by batch; a raw stream over it is refused;
- stdout on a full device: exit 1 with a message, not 0.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

XS12, DATA, VADD = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
failures = []


def run(*args):
    p = subprocess.run([XS12, 'pm4', *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL:', what)


def hex_dwords(path):
    words = []
    for line in open(path):
        line = line.split('#', 1)[0]
        words += [int(t, 16) for t in line.replace(',', ' ').split()]
    return words


def diff(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return f'line {i + 1}:\n  got:  {x!r}\n  want: {y!r}'
    return f'{len(al)} lines vs {len(bl)} expected'


sample = os.path.join(DATA, 'sample.txt')
expected = open(os.path.join(DATA, 'sample.expected')).read()
words = hex_dwords(sample)

rc, out, err = run(sample)
check(rc == 0, f'sample.txt: exit {rc}, stderr {err!r}')
check(out == expected, 'sample.txt output differs from sample.expected: ' + (diff(out, expected) if out != expected else ''))
check(err == '', f'sample.txt: unexpected stderr {err!r}')

with tempfile.TemporaryDirectory() as tmp:
    def write_bin(name, ws, extra=b''):
        path = os.path.join(tmp, name)
        with open(path, 'wb') as f:
            f.write(struct.pack('<%dI' % len(ws), *ws) + extra)
        return path

    # Raw little-endian dwords: same text.
    rc, out, err = run(write_bin('sample.bin', words))
    check(rc == 0 and out == expected, f'sample.bin: exit {rc}, output same as .txt: {out == expected}')

    # JSON.
    rc, out, err = run(sample, '--json')
    check(rc == 0, f'--json: exit {rc}')
    try:
        j = json.loads(out)
        check(j['error'] is None, '--json: error should be null')
        check(j['dwords'] == len(words), f"--json: dwords {j['dwords']} != {len(words)}")
        check(len(j['packets']) == 23, f"--json: {len(j['packets'])} packets, want 23")
        p0 = j['packets'][2]
        check(p0['name'] == 'SET_SH_REG' and p0['count'] == 1 and p0['header'] == '0xc0017600',
              f'--json: packet 2 header {p0}')
        reg = p0['decoded'][1]
        check(reg['name'] == 'COMPUTE_TMPRING_SIZE' and reg['address'] == '0x0b860' and
              reg['fields'] == {'WAVES': 208, 'WAVESIZE': 3}, f'--json: register item {reg}')
        last = j['packets'][-1]
        check(last['type'] == 2, '--json: last packet is the type-2 filler')
        # Every dword is covered exactly once by the packets.
        covered = sum(1 + len(p.get('body', [])) for p in j['packets'])
        check(covered == len(words), f'--json: packets cover {covered} of {len(words)} dwords')
    except (ValueError, KeyError, IndexError) as e:
        check(False, f'--json: bad JSON: {e}')

    # Malformed stream: prefix printed, error names the dword, exit 1.
    mal = os.path.join(DATA, 'malformed.txt')
    rc, out, err = run(mal)
    check(rc == 1, f'malformed.txt: exit {rc}, want 1')
    want = open(os.path.join(DATA, 'malformed.expected')).read()
    check(out == want, 'malformed.txt: output differs from malformed.expected: ' + (diff(out, want) if out != want else ''))
    check('dword 5: RELEASE_MEM body has 5 dwords, gfx10 needs 7' in err, f'malformed.txt: stderr {err!r}')
    rc, out, err = run(mal, '--json')
    check(rc == 1, f'malformed.txt --json: exit {rc}')
    try:
        j = json.loads(out)
        check(j['error'] and j['error']['dword'] == 5 and 'RELEASE_MEM body has 5 dwords' in j['error']['message'],
              f"malformed --json error {j.get('error')}")
        check(len(j['packets']) == 2, 'malformed --json: the 2 packets before the error')
    except (ValueError, KeyError) as e:
        check(False, f'malformed --json: bad JSON: {e}')

    # Raw stream cut inside the RELEASE_MEM that starts at dword 39.
    cut = write_bin('cut.bin', words[:43])
    rc, out, err = run(cut)
    check(rc == 1 and 'dword 39: RELEASE_MEM count 6 needs 7 body dwords, but the stream ends after 3' in err,
          f'cut.bin: exit {rc}, stderr {err!r}')
    check(out == expected[:len(out)] and '    38  00008041' in out, 'cut.bin: prints the packets before dword 39')

    # A type-0 packet after the first packet.
    t0 = write_bin('type0.bin', words[:3] + [0x00002E18, 0])
    rc, out, err = run(t0)
    check(rc == 1 and 'dword 3: type-0 packet' in err, f'type0.bin: exit {rc}, stderr {err!r}')

    # Unknown opcode (PFP_SYNC_ME 0x42 is not one xs12 decodes).
    unk = write_bin('unknown.bin', [0xC0004200, 0])
    rc, out, err = run(unk)
    check(rc == 1 and 'dword 0: unknown PM4 opcode 0x42' in err, f'unknown.bin: stderr {err!r}')

    # Odd size.
    odd = write_bin('odd.bin', words[:2], b'\x00\x00')
    rc, out, err = run(odd)
    check(rc == 1 and '10 bytes is not a whole number of dwords' in err, f'odd.bin: exit {rc}, stderr {err!r}')

    # Bad hex token, with its line.
    bad = os.path.join(tmp, 'bad.txt')
    open(bad, 'w').write('# comment\nc0004600 00000407\nc0017600 0x218 zz\n')
    rc, out, err = run(bad)
    check(rc == 1 and "bad.txt:3: 'zz' is not a hex dword" in err, f'bad.txt: exit {rc}, stderr {err!r}')
    long_tok = os.path.join(tmp, 'long.txt')
    open(long_tok, 'w').write('123456789\n')
    rc, out, err = run(long_tok)
    check(rc == 1 and "long.txt:1: '123456789'" in err, f'long.txt: stderr {err!r}')

    # Hex text variants: 0x prefix, commas, several per line, upper case.
    alt = os.path.join(tmp, 'alt.txt')
    open(alt, 'w').write('0xC0017600,0x00000218 , 0X30D0  # tmpring\n')
    rc, out, err = run(alt)
    check(rc == 0 and 'WAVESIZE = 3 (3 KiB)' in out, f'alt.txt: exit {rc}, stderr {err!r}')

    # Empty streams.
    empty = os.path.join(tmp, 'empty.txt')
    open(empty, 'w').write('# nothing\n')
    rc, out, err = run(empty)
    check(rc == 0 and out == '', f'empty.txt: exit {rc}, output {out!r}')
    rc, out, err = run(write_bin('empty.bin', []))
    check(rc == 0 and out == '', f'empty.bin: exit {rc}')

    # A recording of 65 MiB: a vadd run whose first buffer is 65 MiB of
    # random bytes (a recording stores memory as it is, so this size on disk).
    big = os.path.join(tmp, 'big.bin')
    with open(big, 'wb') as f:
        f.write(os.urandom(65 << 20))
    small = write_bin('small.bin', [0] * 4)
    rec = os.path.join(tmp, 'big.xsrec')
    p = subprocess.run([XS12, 'run', VADD, '--groups', '1', '--block', '4', '--arg', f'in:{big}', '--arg',
                        f'in:{small}', '--arg', f'out:{os.path.join(tmp, "o.bin")}:16', '--arg', 'u32:4',
                        '--record', rec], capture_output=True, text=True, timeout=60)
    size = os.path.getsize(rec) if os.path.exists(rec) else 0
    check(p.returncode == 0 and size > 64 << 20, f'a recording of {size} bytes, over 64 MiB ({p.stderr.strip()})')
    rc, out, err = run(rec)
    check(rc == 0 and out.startswith('# batch 1, queue 0: command buffer') and 'DISPATCH_DIRECT' in out,
          f'a recording over 64 MiB is decoded: exit {rc}, stderr {err.strip()!r}')
    rc, out, err = run(big)
    check(rc == 1 and 'is over the limit of 67108864 bytes' in err, f'a raw stream over 64 MiB: exit {rc}, {err!r}')
    os.unlink(big)
    os.unlink(rec)

    # Missing file.
    rc, out, err = run(os.path.join(tmp, 'nope.bin'))
    check(rc == 1 and 'cannot open' in err, f'missing file: exit {rc}, stderr {err!r}')

# stdout on a full device: the decoded text is lost, so not exit 0.
with open('/dev/full', 'w') as full:
    p = subprocess.run([XS12, 'pm4', sample], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
check(p.returncode == 1 and 'xs12: writing to standard output failed' in p.stderr,
      f'pm4 > /dev/full: exit {p.returncode}, {p.stderr!r}')

# Usage.
rc, out, err = run()
check(rc == 2 and 'expected one command-stream file' in err, f'no FILE: exit {rc}')
rc, out, err = run(sample, '--bogus')
check(rc == 2 and "unknown option '--bogus'" in err, f'unknown option: exit {rc}, {err!r}')
rc, out, err = run('--help')
check(rc == 0 and out.startswith('usage: xs12 pm4 FILE [--json]'), f'--help: exit {rc}')

if failures:
    print(f'{len(failures)} failure(s)')
    sys.exit(1)
print('xs12 pm4: all checks passed')
