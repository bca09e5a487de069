#!/usr/bin/env python3
"""Writes the seed corpus of the API-sequence target (fuzz_api_seq.c):
meaningful D3D12 call sequences in its byte encoding, one file each.

    tests/fuzz/api/gen_corpus.py [CORPUS_DIR [REGRESS_DIR]]
        (default: tests/fuzz/corpus/api_seq and tests/fuzz/regress/api_seq)

The encoding is fuzz_api_seq.c's: a header byte (bit 0 functional mode,
bit 1 DRED, bit 2 Series S), then per operation its index in ops[] and the
bytes it reads. The helpers below spell those bytes; keep them in step
with the harness when an operation changes.
"""
import os
import struct
import sys

# ops[] of fuzz_api_seq.c, in order
(CREATE_BUFFER, RELEASE_BUFFER, MAP, CREATE_LIST, RELEASE_LIST, CLOSE, RESET, SET_PIPELINE, ROOT_ARGS,
 DISPATCH, COPY, BARRIER, SCRATCH, LAUNCH, GFX_LIMITS, RAYS, DRAW, EXECUTE, SIGNAL, WAIT, HOST_FENCE,
 INFO_QUEUE) = range(22)

# pso_kinds[]
VADD, SPILL, STORE_TO, SPIN, PRIVATE_WALK, LDS_DYN, LDS = range(7)
# heaps (the low two bits of create_buffer's byte); 4: ALLOW_UNORDERED_ACCESS
DEFAULT, UPLOAD, READBACK = 0, 1, 2
UAV = 4
# pick_size's table
SIZES = {0: 0, 4: 1, 256: 2, 4096: 3, 65536: 4, 1 << 20: 5, 1 << 32: 6, 1 << 40: 7, 2**64 - 1: 8}
# queues
DIRECT, COMPUTE, COPYQ = 0, 1, 2


def size(n):
    if n in SIZES:
        return bytes([SIZES[n]])
    if n < 0x10000 * 4 and n % 4 == 0:
        return bytes([0x80]) + struct.pack('<H', n // 4)
    return bytes([0xf0]) + struct.pack('<Q', n)


def va_null():
    return bytes([0])


def va_buf(slot, off=0):
    if off:
        return bytes([3 | slot << 3]) + struct.pack('<H', off)
    return bytes([1 | slot << 3])


def va_stale(k=0):
    return bytes([5 | k << 3])


def va_any(v):
    return bytes([6]) + struct.pack('<Q', v)


def op(code, *parts):
    return bytes([code]) + b''.join(p if isinstance(p, bytes) else bytes([p]) for p in parts)


def create_buffer(slot, heap, n):
    return op(CREATE_BUFFER, slot, heap, size(n))


def create_list(slot, queue):
    return op(CREATE_LIST, slot, queue)


def set_pipeline(slot, pso):
    return op(SET_PIPELINE, slot, pso)


def root(slot, kind, index, va=None, c0=0, c1=0):
    """kind: 0 UAV, 1 SRV, 2 CBV, 3 one constant (c0 at offset c1)"""
    return op(ROOT_ARGS, slot, kind | index << 3, va if va is not None else va_null(),
              struct.pack('<IIII', c0, c1, 0, 0))


def dispatch(slot, x, two_rows=False):
    return op(DISPATCH, slot, 1 if two_rows else 0, x)


def close(slot):
    return op(CLOSE, slot)


def execute(queue, *slots):
    how = queue | (4 if len(slots) == 2 else 0)
    return op(EXECUTE, how, *slots)


def signal(queue, fence, which=0):
    """which: 0 the next value, 1 the current one, 2 one beyond"""
    return op(SIGNAL, fence << 2 | queue << 4, which)


def wait(queue, fence, beyond=False):
    return op(WAIT, fence << 2 | queue << 4, 0 if beyond else 2)


def host_wait(fence):
    """SetEventOnCompletion(the fence's current value) and a 5 ms wait"""
    return op(HOST_FENCE, 3 | fence << 2, 1)


def completed(fence):
    return op(HOST_FENCE, 0 | fence << 2, 1)


def scratch(slot, flags, va, n, per_wave_sel):
    """per_wave_sel: index of per_wave[] (0, 256, 1024, 4096, 64K, 8191K, 16M)"""
    return op(SCRATCH, slot, flags & 7, va, size(n), per_wave_sel)


def launch(slot, flags, lds, x, y):
    return op(LAUNCH, slot, 0, flags, lds, x, y - 1)


def rays(slot, out, scratch_va, scratch_size, w, h, plain=False):
    how = 4 if plain else 0
    return op(RAYS, slot, how, out, va_null(), scratch_va, size(scratch_size), w, h, 0)


def gfx_limits(slot, members):
    """members: 15 small values (or None for the default)"""
    b = b''
    for m in members:
        b += bytes([0]) if m is None else bytes([1, m])
    return op(GFX_LIMITS, slot, 0, b)


def draw(slot, vertices):
    return op(DRAW, slot, 4, vertices, 0)  # a triangle list


SEQS = {}

# S1: private_spill with the title's own scratch, on the direct queue
SEQS['scratch_dispatch'] = bytes([0]) + b''.join([
    create_buffer(0, UPLOAD, 4096), create_buffer(1, DEFAULT | UAV, 65536), create_buffer(2, DEFAULT | UAV, 1 << 20),
    create_list(0, DIRECT),
    scratch(0, 1, va_buf(2), 1 << 20, 4),
    set_pipeline(0, SPILL), root(0, 1, 0, va_buf(0)), root(0, 0, 1, va_buf(1)), root(0, 3, 2, c0=1024),
    dispatch(0, 4), close(0), execute(DIRECT, 0), signal(DIRECT, 0), host_wait(0), completed(0),
])

# Two queues ordered by a fence: vadd on the direct queue, then a copy of
# its output on the compute queue after a Wait for the direct queue's signal
SEQS['two_queues_fence'] = bytes([1]) + b''.join([
    create_buffer(0, DEFAULT | UAV, 65536), create_buffer(1, DEFAULT | UAV, 65536),
    create_buffer(2, READBACK, 65536),
    create_list(0, DIRECT), create_list(1, COMPUTE),
    set_pipeline(0, VADD), root(0, 1, 0, va_buf(0)), root(0, 1, 1, va_buf(0)), root(0, 0, 2, va_buf(1)),
    root(0, 3, 3, c0=4096), dispatch(0, 16),
    close(0), execute(DIRECT, 0), signal(DIRECT, 0),
    op(COPY, 1, 0, 2, 1, size(0), size(0), size(4096)), close(1),
    wait(COMPUTE, 0), execute(COMPUTE, 1), signal(COMPUTE, 1), host_wait(1),
    op(MAP, 2, 0, size(4), 0x5a, size(0), size(0)),
])

# S2: DispatchRaysX with the title's ray scratch (rt_basic's rg_index),
# and the same grid through DispatchRays
SEQS['dispatch_rays_x'] = bytes([0]) + b''.join([
    create_buffer(0, DEFAULT | UAV, 65536), create_buffer(1, DEFAULT | UAV, 1 << 20),
    create_list(0, DIRECT),
    rays(0, va_buf(0), va_buf(1), 1 << 20, 16, 4),
    rays(0, va_buf(0), va_null(), 0, 8, 2, plain=True),
    close(0), execute(DIRECT, 0), signal(DIRECT, 0), host_wait(0),
])

# Misuse the layer catches: S1.2's flags of 0, a Close that fails and the
# failed list executed, a Dispatch on a copy list, an open list executed,
# a draw without a graphics pipeline
SEQS['misuse'] = bytes([0]) + b''.join([
    create_buffer(0, DEFAULT | UAV, 65536),
    create_list(0, DIRECT), create_list(1, COPYQ), create_list(2, DIRECT),
    scratch(0, 0, va_buf(0), 65536, 3), close(0), execute(DIRECT, 0),
    set_pipeline(1, VADD), dispatch(1, 1), close(1), execute(COPYQ, 1),
    execute(DIRECT, 2),
    draw(2, 3), close(2), execute(DIRECT, 2),
    execute(COMPUTE, 2),  # a direct list on the compute queue
    signal(DIRECT, 0), host_wait(0),
])

# A store into a released buffer with DRED on: a VM fault removes the
# device; fences read UINT64_MAX, Signal fails
SEQS['vm_fault_dred'] = bytes([2]) + b''.join([
    create_buffer(0, DEFAULT | UAV, 65536), create_buffer(1, DEFAULT | UAV, 65536),
    op(RELEASE_BUFFER, 1),
    create_list(0, COMPUTE),
    set_pipeline(0, STORE_TO), root(0, 0, 0, va_stale(0)), dispatch(0, 2),
    close(0), execute(COMPUTE, 0), signal(COMPUTE, 0), host_wait(0), completed(0),
    signal(DIRECT, 1), completed(1),
])

# A queue waits for a value nothing signals: a deadlock, detected at the
# end's drain (the device is removed, every wait returns)
SEQS['deadlock'] = bytes([1]) + b''.join([
    wait(DIRECT, 2, beyond=True), signal(DIRECT, 0), wait(COMPUTE, 0), signal(COMPUTE, 1),
])

# A kernel that never ends: the 1 ms GPU-time watchdog removes the device
SEQS['hang'] = bytes([0]) + b''.join([
    create_buffer(0, DEFAULT | UAV, 4096), create_buffer(1, DEFAULT | UAV, 4096),
    create_list(0, DIRECT), set_pipeline(0, SPIN), root(0, 0, 0, va_buf(0)), root(0, 0, 1, va_buf(1)),
    dispatch(0, 2), close(0), execute(DIRECT, 0), signal(DIRECT, 0), host_wait(0),
])

# S3: launch parameters (LDS and group size) for lds_reduce_dyn
SEQS['launch_params'] = bytes([0]) + b''.join([
    create_buffer(0, DEFAULT | UAV, 65536), create_buffer(1, DEFAULT | UAV, 4096),
    create_list(0, COMPUTE), launch(0, 3, 2, 128, 1),
    set_pipeline(0, LDS_DYN), root(0, 1, 0, va_buf(0)), root(0, 0, 1, va_buf(1)), dispatch(0, 4),
    close(0), execute(COMPUTE, 0), signal(COMPUTE, 0), host_wait(0),
])

# S4: graphics shader limits on a direct list, then a draw the layer refuses
SEQS['gfx_limits'] = bytes([0]) + b''.join([
    create_list(0, DIRECT), gfx_limits(0, [22, 1, None, None, 2, 8, None, None, None, 4] + [None] * 5),
    draw(0, 3), close(0), op(RESET, 0, 1), gfx_limits(0, [None] * 15), close(0), execute(DIRECT, 0),
    signal(DIRECT, 0), host_wait(0),
])

# The info queue: limits of one message and of none, messages read into
# too small a buffer
SEQS['info_queue'] = bytes([0]) + b''.join([
    op(INFO_QUEUE, 1 | 1 << 2), create_list(0, DIRECT), scratch(0, 0, va_null(), 0, 0),
    op(INFO_QUEUE, 8), op(INFO_QUEUE, 1), scratch(0, 0, va_null(), 0, 0), op(INFO_QUEUE, 0),
    op(INFO_QUEUE, 1 | 3 << 2),
])

# Findings, as sequences (regress/api_seq; the fuzzer's own inputs sit
# beside them): vadd on a COPY list ran on the copy queue before
# COMPUTE_LIST_TYPE (the harness checks a COPY list ran no dispatch)
REGRESS = {}
REGRESS['copy-list-dispatch'] = bytes([0]) + b''.join([
    create_buffer(0, DEFAULT | UAV, 65536), create_list(0, COPYQ),
    set_pipeline(0, VADD), root(0, 1, 0, va_buf(0)), root(0, 1, 1, va_buf(0)), root(0, 0, 2, va_buf(0)),
    root(0, 3, 3, c0=64), dispatch(0, 1), close(0), execute(COPYQ, 0), signal(COPYQ, 0), host_wait(0),
])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', 'corpus', 'api_seq')
    regress = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, '..', 'regress', 'api_seq')
    for folder, seqs in ((out, SEQS), (regress, REGRESS)):
        os.makedirs(folder, exist_ok=True)
        for name, data in seqs.items():
            with open(os.path.join(folder, name), 'wb') as f:
                f.write(data)
        print(f'{len(seqs)} sequences in {folder}')


if __name__ == '__main__':
    main()
