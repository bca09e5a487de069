"""Cases of run_e2e.py for the kernel corpus (kernels/corpus): one case per
kernel, named 'corpus/<kernel>'. Each case generates its inputs with
random.Random(seed) (edge values first: NaN, infinities, denormals, -0,
INT_MIN, shift counts >= the width ...) and says how each output is
compared with PoCL:

  * bits      byte for byte (integers; floats where IEEE 754 / OpenCL C
              define one result: add, sub, mul, fma, division, conversions,
              rounding, fmod, ... see the kernels' comments)
  * float     bit for bit, except that any NaN equals any NaN (IEEE 754
              leaves the payload of a computed NaN open: x86 gives
              0xffc00000, AMD 0x7fc00000)
  * ulp       per column: |result - exact| <= bound ulp of the exact
              result, for xs12 and for the oracle alike, with the exact
              result computed here in double precision (see ulp_err).
              The bounds are OpenCL 1.2 tables 7.1 (float) and 7.2
              (double); they are the contract, whatever either
              implementation achieves in practice.
  * masked    bytes, except padding bytes (unspecified contents)
  * joint     order-independent invariants over several outputs (atomics)

The OpenCL C sources disable contraction (FP_CONTRACT OFF) and fuse only
through fma(), so PoCL runs without -cl-mad-enable (pocl_opts '').
"""
import math
import os
import struct

INF = math.inf
NAN = math.nan
FLT_MAX = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]
FLT_MIN = 2.0 ** -126
FLT_DEN = 2.0 ** -149
DBL_MAX = 1.7976931348623157e308
INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1
LONG_MIN, LONG_MAX = -2 ** 63, 2 ** 63 - 1


# ---- value helpers -----------------------------------------------------------

def f32(v):
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(INF, v)


def f16(v):
    try:
        return struct.unpack("<e", struct.pack("<e", v))[0]
    except OverflowError:
        return math.copysign(INF, v)


def u2f(u):
    return struct.unpack("<f", struct.pack("<I", u & 0xFFFFFFFF))[0]


def f2u(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def u2d(u):
    return struct.unpack("<d", struct.pack("<Q", u & (2 ** 64 - 1)))[0]


def s32(v):
    v &= 0xFFFFFFFF
    return v - 2 ** 32 if v >= 2 ** 31 else v


def s64(v):
    v &= 2 ** 64 - 1
    return v - 2 ** 64 if v >= 2 ** 63 else v


def pack(fmt, values):
    return struct.pack("<%d%s" % (len(values), fmt), *values)


def unpack(fmt, data):
    n = len(data) // struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (n, fmt), data[:n * struct.calcsize(fmt)]))


SNAN32 = u2f(0x7FA00000)   # signalling NaN (Python keeps the bits through pack)
F32_EDGE = [0.0, -0.0, 1.0, -1.0, INF, -INF, NAN, u2f(0xFFC00000), u2f(0x7FC12345), FLT_MAX,
            -FLT_MAX, FLT_MIN, -FLT_MIN, FLT_DEN, -FLT_DEN, u2f(0x007FFFFF), -u2f(0x00012345),
            0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 0.49999997, 2.0 ** 23, 2.0 ** 23 + 1, -2.0 ** 24,
            2.0 ** 31, -2.0 ** 31, 2.0 ** 32, -2.0 ** 32 - 512, 2.0 ** 63, 1e10, -1e-10,
            f32(0.1), f32(math.pi), f32(-math.e), 100.0, 65504.0, 65520.0, f32(6.1e-5),
            f32(5.9604645e-8), 255.5, -128.5, 4294967040.0, 2147483520.0]
F32_EDGE = [f32(v) for v in F32_EDGE]   # the values the kernels see (binary32)
I32_EDGE = [0, 1, -1, 2, -2, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, 0x7FFF, -0x8000, 0xFFFF,
            0x10000, 0x55555555, s32(0xAAAAAAAA), 0x12345678, -0x12345678, 0xFFFFFF, 0x800000,
            -0x800000, 31, 32, 33, 63, 64, 65, 70, 127, 128, 255, 256, -129]
I64_EDGE = [0, 1, -1, LONG_MAX, LONG_MIN, LONG_MAX - 1, LONG_MIN + 1, INT_MAX, INT_MIN,
            2 ** 32, -2 ** 32, 2 ** 32 - 1, 0x5555555555555555, s64(0xAAAAAAAAAAAAAAAA),
            0x123456789ABCDEF0, 63, 64, 65, 127, 128, 140, 1000000007, -3]
F64_EDGE = [0.0, -0.0, 1.0, -1.0, INF, -INF, NAN, u2d(0xFFF8000000000000), DBL_MAX, -DBL_MAX,
            2.0 ** -1022, -2.0 ** -1022, 5e-324, -5e-324, u2d(0x000FFFFFFFFFFFFF), 0.5, -0.5,
            1.5, 2.5, -2.5, 2.0 ** 52, 2.0 ** 52 + 1, 2.0 ** 53, 2.0 ** 63, -2.0 ** 63, 2.0 ** 64,
            2.0 ** 31, -2.0 ** 31 - 0.5, 4294967295.5, 0.1, math.pi, -math.e, 1e300, 1e-300,
            3.4028235677973366e38, 3.4028235e38 * 1.0000001, 1.1754942e-38, 1.401298464324817e-45,
            7.006492321624085e-46, 1e-310]


def rand_f32(rng, lo=-1e6, hi=1e6):
    """A random binary32: mostly uniform in [lo, hi], some raw bit patterns."""
    r = rng.random()
    if r < 0.25:
        while True:
            v = u2f(rng.getrandbits(32))
            if not math.isnan(v) and not math.isinf(v):
                return v
    if r < 0.4:
        return f32(rng.uniform(-4.0, 4.0))
    return f32(rng.uniform(lo, hi))


def rand_f64(rng):
    r = rng.random()
    if r < 0.25:
        while True:
            v = u2d(rng.getrandbits(64))
            if not math.isnan(v) and not math.isinf(v):
                return v
    if r < 0.4:
        return rng.uniform(-4.0, 4.0)
    return rng.uniform(-1e9, 1e9)


def pairs(edge, n, rng, gen):
    """Two lists of n values: all pairs of edge values first, then random."""
    a, b = [], []
    for x in edge:
        for y in edge:
            a.append(x)
            b.append(y)
    a, b = a[:n], b[:n]
    while len(a) < n:
        a.append(gen(rng))
        b.append(gen(rng))
    return a, b


def singles(edge, n, rng, gen):
    v = list(edge[:n])
    while len(v) < n:
        v.append(gen(rng))
    return v


# ---- ulp error -----------------------------------------------------------------
FMT = {"f16": (11, -13, f16), "f32": (24, -125, f32), "f64": (53, -1021, lambda v: v)}


def ulp_err(got, exact, kind):
    """|got - exact| in ulps of the exact result's binade (OpenCL 7.4: an ulp
    is the gap between the two floating-point numbers nearest the exact
    value). NaN must give NaN; an infinite or overflowing exact result must
    be matched exactly by its correctly rounded value."""
    p, emin, rnd = FMT[kind]
    if math.isnan(exact):
        return 0.0 if math.isnan(got) else INF
    if math.isnan(got):
        return INF
    if got == 0.0 and rnd(exact) == 0.0:
        # zeros: the sign must be that of the exact result (7.5.1 edge cases)
        return 0.0 if math.copysign(1, got) == math.copysign(1, exact) else INF
    if got == rnd(exact):
        return 0.0
    if math.isinf(exact) or math.isinf(got):
        return INF
    e = math.frexp(exact)[1] if exact != 0.0 else emin
    ulp = math.ldexp(1.0, max(e, emin) - p)
    return abs(got - exact) / ulp


# ---- comparisons ---------------------------------------------------------------

class Out:
    """One output buffer: its file, byte size and how it is compared.

    fmt: struct code of the elements; mode: 'bits', 'float', 'ulp', 'masked',
    'custom' (custom(pocl, xs) -> message or None), 'joint' (compared by the
    case's joint function). For 'ulp': exact = list of exact results (one per element),
    bound = per column list (element index % len(bound)); None in bound
    means that column compares like 'float' against PoCL instead.
    """

    def __init__(self, file, nbytes, fmt="I", mode="bits", exact=None, bound=None, kind="f32",
                 mask=None, custom=None, note=""):
        self.file, self.nbytes, self.fmt, self.mode = file, nbytes, fmt, mode
        self.exact, self.bound, self.kind, self.mask = exact, bound, kind, mask
        self.custom, self.note = custom, note

    def spec(self):
        return "out:{o}%s:%d" % (self.file, self.nbytes)

    def _bound(self, i):
        return self.bound[i % len(self.bound)]

    def _err(self, i, got):
        """(ok, ulp error) of element i against its exact result."""
        b = self._bound(i)
        col = i % len(self.bound)
        if col in getattr(self, "loose_zero", ()) and got == 0.0 and self.exact[i] == 0.0:
            return True, 0.0
        err = ulp_err(got, self.exact[i], self.kind)
        if err <= b:
            return True, err
        a = getattr(self, "abs_cols", {}).get(i % len(self.bound))
        if a is not None and math.isfinite(got) and abs(got - self.exact[i]) <= a:
            return True, err
        return False, err

    def oracle(self, pocl):
        """Checks PoCL against the exact results (ulp columns only)."""
        if self.mode != "ulp":
            return None
        got = unpack(self.fmt, pocl)
        skip = getattr(self, "skip", None)
        lax = getattr(self, "oracle_lax", ())
        for i, (g, x) in enumerate(zip(got, self.exact)):
            b = self._bound(i)
            if b is None or (skip and skip(i)) or i % len(self.bound) in lax:
                continue
            ok, err = self._err(i, g)
            if not ok:
                return ("%s[%d] (column %d): PoCL %r, exact %r: %.3g ulp > %g"
                        % (self.file, i, i % len(self.bound), g, x, err, b))
        return None

    def compare(self, pocl, xs):
        if len(pocl) != len(xs):
            return "%s: size differs: PoCL %d bytes, xs12 %d bytes" % (self.file, len(pocl), len(xs))
        if self.mode == "custom":
            return self.custom(pocl, xs)
        if self.mode == "masked":
            diffs = [i for i in range(len(xs)) if self.mask[i % len(self.mask)] and pocl[i] != xs[i]]
            if not diffs:
                return None
            i = diffs[0]
            return "%s: %d bytes differ outside padding; first at byte %d: PoCL 0x%02x, xs12 0x%02x" % (
                self.file, len(diffs), i, pocl[i], xs[i])
        if self.mode == "bits":
            if pocl == xs:
                return None
        p, x = unpack(self.fmt, pocl), unpack(self.fmt, xs)
        bad = []
        skip = getattr(self, "skip", None)
        for i, (a, b) in enumerate(zip(p, x)):
            if skip and skip(i):
                continue
            bound = self._bound(i) if self.mode == "ulp" else None
            if bound is not None:
                ok, err = self._err(i, b)
                if not ok:
                    bad.append((i, "xs12 %r, exact %r: %.3g ulp > %g (PoCL %r)"
                                % (b, self.exact[i], err, bound, a)))
            elif self.mode in ("float", "ulp") and isinstance(a, float):
                lz = getattr(self, "loose_zero", ())
                if lz and a == 0.0 and b == 0.0 and i % (self.cols if hasattr(self, "cols") else 1) in lz:
                    continue
                if not (math.isnan(a) and math.isnan(b)) and \
                        struct.pack("<" + self.fmt, a) != struct.pack("<" + self.fmt, b):
                    bad.append((i, "PoCL %r (%s), xs12 %r (%s)" % (a, hexf(self.fmt, a), b,
                                                                  hexf(self.fmt, b))))
            elif a != b or (isinstance(a, float) and struct.pack("<" + self.fmt, a) !=
                            struct.pack("<" + self.fmt, b)):
                bad.append((i, "PoCL %r (%s), xs12 %r (%s)" % (a, hexf(self.fmt, a), b,
                                                              hexf(self.fmt, b))))
        if not bad:
            return None
        cols = self.bound and len(self.bound) or getattr(self, "cols", None)
        lines = ["%s: %d of %d elements differ%s" % (self.file, len(bad), len(p), self.note)]
        for i, msg in bad[:8]:
            col = " (column %d)" % (i % cols) if cols else ""
            lines.append("    [%d]%s: %s" % (i, col, msg))
        return "\n".join(lines)


def hexf(fmt, v):
    data = struct.pack("<" + fmt, v)
    return "0x" + data[::-1].hex()


def cols(out, k):
    out.cols = k
    return out


class Ctx:
    """Writes input files into the work directory, collects arg specs."""

    def __init__(self, d):
        self.d, self.specs, self.outs = d, [], {}

    def inp(self, name, fmt, values):
        path = os.path.join(self.d, name)
        with open(path, "wb") as f:
            f.write(pack(fmt, values))
        self.specs.append("in:" + path)

    def raw_in(self, name, data):
        path = os.path.join(self.d, name)
        with open(path, "wb") as f:
            f.write(data)
        self.specs.append("in:" + path)

    def inout(self, key, name, fmt, values, out):
        path = os.path.join(self.d, name)
        with open(path, "wb") as f:
            f.write(pack(fmt, values))
        self.specs.append("inout:%s:{o}%s" % (path, out.file))
        self.outs[key] = out

    def out(self, key, out):
        self.specs.append(out.spec())
        self.outs[key] = out
        return out

    def arg(self, spec):
        self.specs.append(spec)

    def done(self, check=None, joint=None):
        """joint(pocl, xs): a comparison over all outputs (dicts of bytes)."""
        if joint is None:
            return self.specs, self.outs, check
        return self.specs, self.outs, check, joint


# ---- reference functions (double precision, C99 Annex F special cases) ----------

def _call(fn, *a):
    try:
        return fn(*a)
    except ValueError:
        return NAN
    except OverflowError:
        return INF


def is_odd_int(y):
    return math.isfinite(y) and y == math.floor(y) and abs(y) < 2 ** 53 and int(y) % 2 == 1


def r_pow(x, y):
    if y == 0.0 or x == 1.0:
        return 1.0
    if math.isnan(x) or math.isnan(y):
        return NAN
    if x == 0.0:
        if y < 0:
            return math.copysign(INF, x) if is_odd_int(y) else INF
        return math.copysign(0.0, x) if is_odd_int(y) else 0.0
    if x == -1.0 and math.isinf(y):
        return 1.0
    try:
        return math.pow(x, y)
    except ValueError:
        return NAN
    except OverflowError:
        return -INF if (x < 0 and is_odd_int(y)) else INF


def r_powr(x, y):
    if math.isnan(x) or math.isnan(y) or x < 0:
        return NAN
    if x == 0.0:
        if y == 0.0:
            return NAN
        return INF if y < 0 else 0.0
    if math.isinf(x) and y == 0.0:
        return NAN
    if x == 1.0:
        return NAN if math.isinf(y) else 1.0
    if y == 0.0:
        return 1.0
    return r_pow(x, y)


def r_pown(x, n):
    if n == 0:
        return 1.0
    if math.isnan(x):
        return NAN
    if x == 0.0:
        if n < 0:
            return math.copysign(INF, x) if n % 2 else INF
        return math.copysign(0.0, x) if n % 2 else 0.0
    try:
        return float(x) ** n
    except OverflowError:
        return -INF if (x < 0 and n % 2) else INF
    except ZeroDivisionError:
        return INF


def r_cbrt(x):
    if math.isnan(x) or math.isinf(x) or x == 0.0:
        return x
    return math.cbrt(x)


def r_log(fn, x):
    if math.isnan(x) or x < 0:
        return NAN
    if x == 0.0:
        return -INF
    if math.isinf(x):
        return INF
    return fn(x)


def r_log1p(x):
    if math.isnan(x) or x < -1:
        return NAN
    if x == -1:
        return -INF
    if math.isinf(x):
        return INF
    return math.log1p(x)


def r_exp(fn, x):
    if math.isnan(x):
        return NAN
    if x == -INF:
        return 0.0 if fn is not math.expm1 else -1.0
    return _call(fn, x)


def r_exp10(x):
    if math.isnan(x):
        return NAN
    if x == -INF:
        return 0.0
    if x > 400:
        return INF
    return 10.0 ** x


def r_trig(fn, x):
    if math.isnan(x) or math.isinf(x):
        return NAN
    return fn(x)


def r_sinpi(x):
    if math.isnan(x) or math.isinf(x):
        return NAN
    if abs(x) >= 2 ** 24 or x == 0.0:
        return math.copysign(0.0, x)
    r = math.fmod(x, 2.0)                 # exact
    if r > 1.0:
        r -= 2.0
    elif r < -1.0:
        r += 2.0
    if r > 0.5:
        r = 1.0 - r
    elif r < -0.5:
        r = -1.0 - r
    if r == 0.0:
        return math.copysign(0.0, x)
    return math.sin(math.pi * r)


def r_cospi(x):
    if math.isnan(x) or math.isinf(x):
        return NAN
    ax = abs(x)
    if ax >= 2 ** 24:          # even integers
        return 1.0
    return r_sinpi(ax + 0.5)   # exact argument: ax < 2^24


def r_asin(fn, x):
    if math.isnan(x) or abs(x) > 1:
        return NAN
    return fn(x)


def r_atan(x):
    return NAN if math.isnan(x) else math.atan(x)


def r_atan2(y, x):
    if math.isnan(x) or math.isnan(y):
        return NAN
    return math.atan2(y, x)


def r_sqrt(x):
    if math.isnan(x) or x < 0:
        return NAN
    return math.sqrt(x)


def r_rsqrt(x):
    if math.isnan(x) or x < 0:
        return NAN
    if x == 0.0:
        return math.copysign(INF, x)
    if math.isinf(x):
        return 0.0
    return 1.0 / math.sqrt(x)


def r_hypot(x, y):
    if math.isinf(x) or math.isinf(y):
        return INF
    if math.isnan(x) or math.isnan(y):
        return NAN
    return math.hypot(x, y)


def r_rootn3(x):
    return r_cbrt(x)


def r_hyp(fn, x):
    if math.isnan(x):
        return NAN
    if math.isinf(x):
        if fn is math.sinh:
            return x
        if fn is math.cosh:
            return INF
        if fn is math.tanh:
            return math.copysign(1.0, x)
        if fn is math.asinh:
            return x
        if fn is math.erf:
            return math.copysign(1.0, x)
        if fn is math.erfc:
            return 0.0 if x > 0 else 2.0
    if fn is math.acosh and x < 1:
        return NAN
    if fn is math.atanh:
        if abs(x) > 1:
            return NAN
        if abs(x) == 1:
            return math.copysign(INF, x)
    return _call(fn, x) if fn is not math.sinh else (
        _call(fn, x) if abs(x) < 710 else math.copysign(INF, x))


def col_exact(a, fns, k):
    """exact[i*k + j] = fns[j](a[i])"""
    out = []
    for v in a:
        for j in range(k):
            out.append(fns[j](v))
    return out


# ---- integer kernels ---------------------------------------------------------------

N = 1024
G = str(N // 64)


def i32_inputs(rng, n=N, edge=I32_EDGE):
    return pairs(edge, n, rng, lambda r: s32(r.getrandbits(32)))


def setup_int_k(k, nb=2):
    def setup(rng, d):
        c = Ctx(d)
        a, b = i32_inputs(rng)
        c.inp("a.bin", "i", a)
        if nb > 1:
            c.inp("b.bin", "i", b)
        c.out("out", cols(Out("out.bin", 4 * N * k, "i"), k))
        return c.done()
    return setup


def setup_int_divrem(rng, d):
    c = Ctx(d)
    a, b = i32_inputs(rng)
    for i in range(N):
        if b[i] == 0 or (a[i] == INT_MIN and b[i] == -1):   # unspecified in OpenCL C 6.3
            b[i] = 7
        # clang-15 -O0 lowers (char)x / (char)y through the 24-bit float
        # division and sign-extends the quotient from 8 bits, so
        # (char)-128 / (char)-1 gives -128, not 128: a compiler bug that
        # real hardware shares. Keep that one pair out.
        if (a[i] & 0xFF) == 0x80 and ((b[i] | 1) & 0xFF) == 0xFF:
            b[i] ^= 2
    c.inp("a.bin", "i", a)
    c.inp("b.bin", "i", b)
    c.out("out", cols(Out("out.bin", 4 * N * 8, "i"), 8))
    return c.done()


def i64_inputs(rng, n=N):
    return pairs(I64_EDGE, n, rng, lambda r: s64(r.getrandbits(64)) >> r.randrange(64))


def setup_long_divrem(rng, d):
    c = Ctx(d)
    a, b = i64_inputs(rng)
    for i in range(N):
        if b[i] == 0 or (a[i] == LONG_MIN and b[i] == -1):
            b[i] = 3
    c.inp("a.bin", "q", a)
    c.inp("b.bin", "q", b)
    c.out("out", cols(Out("out.bin", 8 * N * 6, "q"), 6))
    return c.done()


def setup_long_arith(rng, d):
    c = Ctx(d)
    a, b = i64_inputs(rng)
    c.inp("a.bin", "q", a)
    c.inp("b.bin", "q", b)
    c.out("out", cols(Out("out.bin", 8 * N * 16, "q"), 16))
    return c.done()


def setup_long_mixed(rng, d):
    c = Ctx(d)
    a, b = i32_inputs(rng)
    c.inp("a.bin", "i", a)
    c.inp("b.bin", "i", b)
    c.out("out", cols(Out("out.bin", 8 * N * 8, "q"), 8))
    return c.done()


# ---- float kernels -------------------------------------------------------------------

def f32_inputs(rng, n=N, edge=F32_EDGE, lo=-1e6, hi=1e6):
    return pairs(edge, n, rng, lambda r: rand_f32(r, lo, hi))


def setup_f32_basic(rng, d):
    c = Ctx(d)
    a, b = f32_inputs(rng)
    z = singles(list(reversed(F32_EDGE)) * 3, N, rng, rand_f32)
    c.inp("a.bin", "f", a)
    c.inp("b.bin", "f", b)
    c.inp("c.bin", "f", z)
    c.out("out", cols(Out("out.bin", 4 * N * 10, "f", "float"), 10))
    return c.done()


def setup_f32_k(k, nb=2, outfmt="f", mode="float"):
    def setup(rng, d):
        c = Ctx(d)
        a, b = f32_inputs(rng)
        c.inp("a.bin", "f", a)
        if nb > 1:
            c.inp("b.bin", "f", b)
        c.out("out", cols(Out("out.bin", 4 * N * k, outfmt, mode), k))
        return c.done()
    return setup


def setup_f32_round(rng, d):
    c = Ctx(d)
    a = singles(F32_EDGE, N, rng, rand_f32)
    c.inp("a.bin", "f", a)
    o = c.out("out", cols(Out("out.bin", 4 * N * 14, "f", "float"), 14))
    # nextafter(-min denormal, 0) is a zero; the device library builds it
    # from the bits as +0 where glibc (PoCL) gives -0: the sign is not
    # checked in that column.
    o.loose_zero = {13}
    return c.done()


def setup_f32_div(rng, d):
    c = Ctx(d)
    a, b = f32_inputs(rng)
    c.inp("a.bin", "f", a)
    c.inp("b.bin", "f", b)
    o = c.out("out", cols(Out("out.bin", 4 * N * 4, "f", "float"), 4))
    # Column 1 is 1.0f / y. At -O2 clang-15 emits its 2.5-ulp fast path for
    # it (v_rcp_f32 with a 2^-32 pre-scale for |y| > 2^96), and v_rcp_f32
    # flushes a denormal y to 0 (ISA: "denormals are flushed"), so real
    # hardware returns inf there: skip 1/y for denormal y. x / y (column 0)
    # keeps denormal divisors (the v_div_scale sequence handles them).
    o.skip = lambda i: i % 4 == 1 and b[i // 4] != 0.0 and abs(b[i // 4]) < FLT_MIN
    return c.done()


def setup_f32_minmax(rng, d):
    c = Ctx(d)
    a, b = f32_inputs(rng)
    for i in range(N):   # fmin/fmax(-0, +0) may return either zero (6.12.2)
        if a[i] == 0.0 and b[i] == 0.0:
            b[i] = 1.0
    c.inp("a.bin", "f", a)
    c.inp("b.bin", "f", b)
    c.out("out", cols(Out("out.bin", 4 * N * 8, "f", "float"), 8))
    return c.done()


def setup_f32_to_int(rng, d):
    c = Ctx(d)
    a = singles(F32_EDGE + [f32(v + 0.5) for v in range(-6, 7)] + [-0.5000001, 0.5000001,
                                                                   2147483648.0, -2147483904.0,
                                                                   9.2233715e18, -9.223373e18,
                                                                   1.8446743e19, 32767.5,
                                                                   -32768.5, 65535.5, 127.5],
                N, rng, lambda r: rand_f32(r, -3e9, 3e9))
    # No NaN: the device library's _sat conversions clamp with fmax/fmin
    # (v_max/v_med3: a NaN operand yields the bound) before v_cvt_i32_f32,
    # so convert_int_sat(NaN) is INT_MIN on gfx1030, not 0 as 6.2.3.3 says.
    # The v_cvt NaN rule itself is tested in tests/isa (cvt.s).
    a = [1.0 if math.isnan(v) else v for v in a]
    c.inp("a.bin", "f", a)
    c.out("out", cols(Out("out.bin", 4 * N * 16, "i"), 16))
    return c.done()


def setup_int_to_f32(rng, d):
    c = Ctx(d)
    a = singles(I32_EDGE + [16777217, -16777217, 2 ** 30 + 1, 0x7FFFFFC0, 0x7FFFFFBF], N, rng,
                lambda r: s32(r.getrandbits(32)))
    b = singles(I64_EDGE + [2 ** 53 + 1, 2 ** 24 + 1, -(2 ** 40) - 1, 0x7FFFFF8000000001], N, rng,
                lambda r: s64(r.getrandbits(64)) >> r.randrange(64))
    c.inp("a.bin", "i", a)
    c.inp("b.bin", "q", b)
    c.out("out", cols(Out("out.bin", 4 * N * 12, "f", "float"), 12))
    return c.done()


def setup_f32_bitcast(rng, d):
    c = Ctx(d)
    a = singles(F32_EDGE, N, rng, rand_f32)
    b = singles(F64_EDGE, N, rng, rand_f64)
    c.inp("a.bin", "f", a)
    c.inp("d.bin", "d", b)
    c.out("out", cols(Out("out.bin", 4 * N * 8, "I"), 8))
    return c.done()


def setup_f64_k(k, nin, outfmt="d", mode="float"):
    def setup(rng, d):
        c = Ctx(d)
        a, b = pairs(F64_EDGE, N, rng, rand_f64)
        z = singles(list(reversed(F64_EDGE)) * 3, N, rng, rand_f64)
        c.inp("a.bin", "d", a)
        if nin > 1:
            c.inp("b.bin", "d", b)
        if nin > 2:
            c.inp("c.bin", "d", z)
        c.out("out", cols(Out("out.bin", 8 * N * k, outfmt, mode), k))
        return c.done()
    return setup


def setup_f64_conv(rng, d):
    c = Ctx(d)
    a = singles(F64_EDGE + [0.5 + k for k in range(-4, 4)], N, rng, rand_f64)
    a = [1.0 if math.isnan(v) else v for v in a]   # see setup_f32_to_int
    b = singles(I64_EDGE + [2 ** 53 + 1, -(2 ** 53) - 3, 0x7FC0000012345678, 0x7F800001,
                            0xFFC00000], N, rng, lambda r: s64(r.getrandbits(64)) >> r.randrange(64))
    c.inp("a.bin", "d", a)
    c.inp("b.bin", "q", b)
    c.out("out", cols(Out("out.bin", 8 * N * 14, "q"), 14))
    return c.done()


# OpenCL 1.2 table 7.2 bounds (ulp) for the double functions of f64_math, in
# kernel order: exp, log, sin, cos, pow, atan2, cbrt, exp2, log2, tanh. The
# reference is glibc's double libm (<= 1 ulp), hence + 1.
F64_MATH_BOUND = [3 + 1, 3 + 1, 4 + 1, 4 + 1, 16 + 1, 6 + 1, 2 + 1, 3 + 1, 3 + 1, 5 + 1]


def setup_f64_math(rng, d):
    c = Ctx(d)
    a, b = pairs(F64_EDGE[:20], N, rng, lambda r: r.uniform(-40.0, 40.0) if r.random() < 0.8
                 else rand_f64(r))
    c.inp("a.bin", "d", a)
    c.inp("b.bin", "d", b)
    exact = []
    for x, y in zip(a, b):
        exact += [r_exp(math.exp, x), r_log(math.log, abs(x)), r_trig(math.sin, x),
                  r_trig(math.cos, x), r_pow(abs(x), y), r_atan2(x, y), r_cbrt(x),
                  r_exp(math.exp2, y), r_log(math.log2, abs(y)), r_hyp(math.tanh, x)]
    c.out("out", Out("out.bin", 8 * N * 10, "d", "ulp", exact, F64_MATH_BOUND, "f64"))
    return c.done()


# Table 7.1 bounds (ulp) per column of f32_trig: sin 4, cos 4, tan 5, asin 4,
# acos 4, atan 5, atan2 6, sinpi 4, cospi 4, sincos: sine 4, cosine 4.
F32_TRIG_BOUND = [4, 4, 5, 4, 4, 5, 6, 4, 4, 4, 4]


def setup_f32_trig(rng, d):
    c = Ctx(d)
    a, b = f32_inputs(rng, edge=F32_EDGE[:25], lo=-100.0, hi=100.0)
    b = [v if rng.random() < 0.2 or i < 625 else f32(rng.uniform(-1.0, 1.0)) for i, v in enumerate(b)]
    c.inp("a.bin", "f", a)
    c.inp("b.bin", "f", b)
    exact = []
    for x, y in zip(a, b):
        exact += [r_trig(math.sin, x), r_trig(math.cos, x), r_trig(math.tan, x),
                  r_asin(math.asin, y), r_asin(math.acos, y), r_atan(x), r_atan2(y, x),
                  r_sinpi(x), r_cospi(x), r_trig(math.sin, x), r_trig(math.cos, x)]
    o = c.out("out", Out("out.bin", 4 * N * 11, "f", "ulp", exact, F32_TRIG_BOUND))
    # sinpi(n) is +0 for positive integers n and cospi(n + 0.5) is +0
    # (7.5.1); PoCL returns -0 for some, so the sign of a zero sinpi or
    # cospi is not checked.
    o.loose_zero = {7, 8}
    # PoCL's cospi is far outside 4 ulp next to its zeros (8.7e4 ulp at
    # x = 0.5 - 3e-8, apparently cos(pi * x) in binary32): the oracle is not
    # held to the bound in that column (xs12 still is).
    o.oracle_lax = {8}
    return c.done()


# Table 7.1: exp 3, exp2 3, exp10 3, expm1 3, log 3, log2 3, log10 3, log1p 2,
# pow 16, powr 16, pown 16, cbrt 2.
F32_EXPLOG_BOUND = [3, 3, 3, 3, 3, 3, 3, 2, 16, 16, 16, 2]


def setup_f32_explog(rng, d):
    c = Ctx(d)
    a, b = f32_inputs(rng, edge=F32_EDGE[:25], lo=-90.0, hi=90.0)
    b = [v if i < 625 or rng.random() < 0.3 else f32(abs(rng.uniform(0, 100.0))) for i, v in
         enumerate(b)]
    c.inp("a.bin", "f", a)
    c.inp("b.bin", "f", b)
    exact = []
    for x, y in zip(a, b):
        n = (f2u(y) % 9) - 4
        exact += [r_exp(math.exp, x), r_exp(math.exp2, x), r_exp10(x), r_exp(math.expm1, x),
                  r_log(math.log, y), r_log(math.log2, y), r_log(math.log10, y), r_log1p(y),
                  r_pow(y, x), r_powr(y, x), r_pown(x, n), r_cbrt(x)]
    o = c.out("out", Out("out.bin", 4 * N * 12, "f", "ulp", exact, F32_EXPLOG_BOUND))
    # expm1(-0) is -0 (7.5.1); the device library returns +0 (its
    # polynomial ends in (-1 + 1) + 0 * r), so the sign of a zero result is
    # not checked in that column.
    o.loose_zero = {3}
    return c.done()


# Table 7.1: sqrt 3, rsqrt 2, hypot 4, sqrt 3, rootn 16, sqrt(x*x+y*y) 3 (of
# the binary32 sum of the two rounded squares). v_sqrt_f32 / v_rsq_f32 flush
# denormal inputs (see src/isa/README.md): clang-15 calls them directly, so
# the inputs here are normal or zero.
F32_SQRT_BOUND = [3, 2, 4, 3, 16, 3]


def no_denorm(v):
    return 0.0 if v != 0.0 and abs(v) < FLT_MIN else v


def setup_f32_sqrt(rng, d):
    c = Ctx(d)
    a, b = f32_inputs(rng)
    a = [no_denorm(v) for v in a]
    b = [no_denorm(v) for v in b]
    c.inp("a.bin", "f", a)
    c.inp("b.bin", "f", b)
    exact = []
    for x, y in zip(a, b):
        s = f32(f32(x * x) + f32(y * y))
        exact += [r_sqrt(x), r_rsqrt(x), r_hypot(x, y), r_sqrt(abs(y)), r_rootn3(x), r_sqrt(s)]
    c.out("out", Out("out.bin", 4 * N * 6, "f", "ulp", exact, F32_SQRT_BOUND))
    return c.done()


# Table 7.1: sinh 4, cosh 4, tanh 5, asinh 4, acosh 4, atanh 5, erf 16, erfc 16.
F32_HYPER_BOUND = [4, 4, 5, 4, 4, 5, 16, 16]


def setup_f32_hyper(rng, d):
    c = Ctx(d)
    a = singles(F32_EDGE, N, rng, lambda r: f32(r.uniform(-12.0, 12.0)) if r.random() < 0.8
                else rand_f32(r))
    c.inp("a.bin", "f", a)
    exact = []
    for x in a:
        exact += [r_hyp(math.sinh, x), r_hyp(math.cosh, x), r_hyp(math.tanh, x),
                  r_hyp(math.asinh, x), r_hyp(math.acosh, f32(abs(x) + 1.0)),
                  r_hyp(math.atanh, f32(x * 0.25)), r_hyp(math.erf, x), r_hyp(math.erfc, x)]
    c.out("out", Out("out.bin", 4 * N * 8, "f", "ulp", exact, F32_HYPER_BOUND))
    return c.done()


# native_* accuracy is implementation-defined (6.12.2); the case holds them
# to the half_* bound of table 7.1 (8192 ulp) on moderate normal inputs
# (|x| <= 40 for sin/cos/exp, y in [2^-20, 2^20] for log/sqrt/rsqrt/recip/
# divide), where the hardware instructions behind them (v_sin_f32 after a
# multiply by 1/(2 pi), v_exp_f32, v_log_f32, v_sqrt_f32, v_rsq_f32,
# v_rcp_f32) are accurate to a few ulp.
F32_NATIVE_BOUND = [8192] * 12


def setup_f32_native(rng, d):
    c = Ctx(d)
    a = [f32(rng.uniform(-40.0, 40.0)) for _ in range(N)]
    b = [f32(2.0 ** rng.uniform(-20, 20)) for _ in range(N)]
    a[:4] = [0.0, 1.0, -1.0, 0.5]
    b[:4] = [1.0, 2.0, 0.5, 1024.0]
    c.inp("a.bin", "f", a)
    c.inp("b.bin", "f", b)
    exact = []
    for x, y in zip(a, b):
        exact += [math.sin(x), math.cos(x), math.exp(x), math.exp2(x), math.log(y), math.log2(y),
                  math.sqrt(y), 1 / math.sqrt(y), 1 / y, x / y, math.exp(x), math.log(y)]
    # sin/cos near their zeros: an absolute error of a few 2^-24 is many ulp
    # of a tiny result; bound those columns by the absolute error instead.
    o = c.out("out", Out("out.bin", 4 * N * 12, "f", "ulp", exact, F32_NATIVE_BOUND))
    o.abs_cols = {0: 2.0 ** -18, 1: 2.0 ** -18}
    return c.done()


# ---- half --------------------------------------------------------------------------

F16_EDGE_BITS = [0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00, 0xFC00, 0x7E00, 0x7BFF, 0xFBFF, 0x0400,
                 0x8400, 0x0001, 0x8001, 0x03FF, 0x3555, 0x4248, 0xC000, 0x3800, 0x5A00, 0x1400]


def setup_half_conv(rng, d):
    c = Ctx(d)
    a = singles(F32_EDGE + [65519.99, 65520.0, 65504.0, 65505.0, f32(2.0 ** -24 * 1.5),
                            f32(2.0 ** -25), f32(2.0 ** -25 * 1.0000001), f32(2.0 ** -14 * 0.99999),
                            u2f(0x387FE000), u2f(0x33000001), u2f(0x32FFFFFF), u2f(0x7F800001)],
                N, rng, lambda r: rand_f32(r, -70000.0, 70000.0) if r.random() < 0.7
                else f32(r.uniform(-1e-4, 1e-4)))
    h = [rng.getrandbits(16) for _ in range(4 * N)]
    h[:len(F16_EDGE_BITS)] = F16_EDGE_BITS
    c.inp("a.bin", "f", a)
    c.inp("h.bin", "H", h)
    c.out("out", cols(Out("out.bin", 2 * N * 10, "e", "float"), 10))
    c.out("outf", cols(Out("outf.bin", 4 * N * 5, "f", "float"), 5))
    return c.done()


def rand_f16_bits(rng):
    while True:
        h = rng.getrandbits(16)
        if (h & 0x7C00) != 0x7C00:
            return h


def setup_half_arith(rng, d):
    c = Ctx(d)
    a, b = pairs(F16_EDGE_BITS, N, rng, rand_f16_bits)
    z = singles(list(reversed(F16_EDGE_BITS)) * 10, N, rng, rand_f16_bits)
    for i in range(N):  # fmin/fmax(-0, +0) may return either zero
        if (a[i] & 0x7FFF) == 0 and (b[i] & 0x7FFF) == 0:
            b[i] = 0x3C00
        if (a[i] & 0x7FFF) == 0 and (z[i] & 0x7FFF) == 0:
            z[i] = 0x3C00
    c.inp("a.bin", "H", a)
    c.inp("b.bin", "H", b)
    c.inp("c.bin", "H", z)
    c.out("out", cols(Out("out.bin", 2 * N * 8, "e", "float"), 8))
    return c.done()


def small_f16(rng, emin=-6, emax=6):
    """A binary16 with at most 5 significant bits and exponent in [emin, emax]."""
    m = rng.randrange(16, 32)
    v = m * 2.0 ** (rng.randrange(emin, emax + 1) - 4)
    return f2h_bits(-v if rng.random() < 0.5 else v)


def f2h_bits(v):
    return struct.unpack("<H", struct.pack("<e", v))[0]


def setup_half_pk(rng, d):
    c = Ctx(d)
    a = [small_f16(rng) for _ in range(N)]
    b = [small_f16(rng) for _ in range(N)]
    z = [small_f16(rng) for _ in range(N)]
    a[:3] = [0x0000, 0x7C00, 0x3C00]
    b[:3] = [0x8000, 0x3C00, 0xFC00]
    c.inp("a.bin", "H", a)
    c.inp("b.bin", "H", b)
    c.inp("c.bin", "H", z)
    c.out("out", cols(Out("out.bin", 2 * N * 4, "e", "float"), 4))
    return c.done()


def normal_f16(rng, emin=-7, emax=7):
    """Normal binary16, exponent in [emin, emax] (half_hip: fma exact in double)."""
    m = rng.randrange(1024, 2048)
    v = m * 2.0 ** (rng.randrange(emin, emax + 1) - 10)
    return f2h_bits(-v if rng.random() < 0.5 else v)


def setup_half_hip(rng, d):
    c = Ctx(d)
    a = [normal_f16(rng) for _ in range(N)]
    b = [normal_f16(rng) for _ in range(N)]
    z = [normal_f16(rng) for _ in range(N)]
    sp = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x3C00]
    for i, v in enumerate(sp):
        a[i] = v
        b[i + 6] = v
        z[i + 12] = v
    c.inp("a.bin", "H", a)
    c.inp("b.bin", "H", b)
    c.inp("c.bin", "H", z)
    c.out("out", cols(Out("out.bin", 2 * N * 10, "e", "float"), 10))
    return c.done()


# ---- control flow, LDS, atomics ------------------------------------------------------

def setup_cf(kind):
    def setup(rng, d):
        c = Ctx(d)
        lim = 2 ** 28   # no signed overflow in the kernels
        a = singles([0, 1, -1, 2, 3, 5, 7, 1000, 1001, -1000, -1001, lim - 1, -lim], N, rng,
                    lambda r: r.randrange(-lim, lim))
        if kind == "loops":
            a = [v & 0xFFFFFFFF for v in a]
            c.inp("a.bin", "I", a)
            c.out("out", cols(Out("out.bin", 4 * N * 4, "I"), 4))
        else:
            c.inp("a.bin", "i", a)
            c.out("out", Out("out.bin", 4 * N, "i"))
        return c.done()
    return setup


def setup_lds_transpose(rng, d):
    c = Ctx(d)
    w, h = 64, 48
    v = [f32(rng.uniform(-1, 1)) for _ in range(w * h)]
    c.inp("in.bin", "f", v)
    c.out("out", Out("out.bin", 4 * w * h, "f", "float"))
    c.arg("u32:%d" % w)
    c.arg("u32:%d" % h)

    def check(out):
        got = unpack("f", out["out"])
        for y in range(h):
            for x in range(w):
                if got[x * h + y] != v[y * w + x]:
                    return "PoCL transpose wrong at (%d, %d)" % (x, y)
        return None
    return c.done(check)


def setup_lds_scan(rng, d):
    c = Ctx(d)
    v = [rng.getrandbits(32) for _ in range(N)]
    c.inp("in.bin", "I", v)
    c.out("out", Out("out.bin", 4 * N, "I"))

    def check(out):
        got = unpack("I", out["out"])
        for g in range(N // 128):
            s = 0
            for k in range(128):
                s = (s + v[g * 128 + k]) & 0xFFFFFFFF
                if got[g * 128 + k] != s:
                    return "PoCL scan wrong at %d" % (g * 128 + k)
        return None
    return c.done(check)


def setup_lds_histogram(rng, d):
    c = Ctx(d)
    n = 3000
    v = [rng.getrandbits(32) for _ in range(n)]
    c.inp("in.bin", "I", v)
    c.out("out", Out("hist.bin", 4 * 32, "I"))
    c.arg("u32:%d" % n)

    def check(out):
        want = [0] * 32
        for x in v:
            want[x % 32] += 1
        return None if unpack("I", out["out"]) == want else "PoCL histogram wrong"
    return c.done(check)


def setup_lds_atomics(rng, d):
    c = Ctx(d)
    v = [s32(rng.getrandbits(32)) for _ in range(N)]
    v[:4] = [INT_MIN, INT_MAX, 0, -1]
    c.inp("in.bin", "i", v)
    c.out("out", cols(Out("out.bin", 4 * 16 * 12, "i"), 12))
    return c.done()


def setup_lds_subdword(rng, d):
    c = Ctx(d)
    v = [rng.getrandbits(32) for _ in range(N)]
    c.inp("in.bin", "I", v)
    c.out("out", cols(Out("out.bin", 4 * N * 6, "I"), 6))
    return c.done()


def setup_gatomic_int(rng, d):
    c = Ctx(d)
    v = [s32(rng.getrandbits(32)) for _ in range(N)]
    v[:3] = [INT_MIN, INT_MAX, 0]
    c.inp("in.bin", "i", v)
    init = [0, 0, INT_MAX, INT_MIN, -1, 0, -1, 0, 0, 0, 1000]
    c.inout("c", "c.bin", "i", init, Out("c_out.bin", 4 * len(init), "i"))
    c.out("ret", Out("ret.bin", 8, "i"))
    return c.done()


def setup_gatomic_xchg(rng, d):
    c = Ctx(d)
    v = [rng.randrange(-2 ** 20, 2 ** 20) for _ in range(N)]
    c.inp("in.bin", "i", v)
    c.inout("c", "c.bin", "i", [7, 0, INT_MIN], Out("c_out.bin", 12, "i", "joint"))
    c.out("ret", Out("ret.bin", 12, "i", "joint"))

    def joint(p, x):
        # Fixed whatever the order: c[1] (cmpxchg counter), c[2] (cmpxchg max),
        # c[0] + ret[0] (final xchg value + the sum of the returned ones) and
        # (int)as_float(ret[1]) + ret[2] (the same for the float xchg).
        def inv(o):
            cc, rr = unpack("i", o["c"]), unpack("i", o["ret"])
            return [cc[1], cc[2], s32(cc[0] + rr[0]), s32(int(u2f(rr[1] & 0xFFFFFFFF)) + rr[2])]
        a, b = inv(p), inv(x)
        return None if a == b else ("gatomic_xchg invariants [c1, c2, c0+ret0, "
                                    "(int)ret1+ret2]: PoCL %s, xs12 %s" % (a, b))
    return c.done(joint=joint)


def setup_gatomic_long(rng, d):
    c = Ctx(d)
    v = [s64(rng.getrandbits(64)) >> rng.randrange(8, 40) for _ in range(N)]
    c.inp("in.bin", "q", v)
    init = [0, 0, LONG_MAX, LONG_MIN, 0, -1, 0, 99]
    c.inout("c", "c.bin", "q", init, Out("c_out.bin", 8 * len(init), "q", "joint"))
    c.out("ret", Out("ret.bin", 24, "q", "joint"))

    def joint(p, x):
        # c[0..6] are final values of order-independent operations; c[7] +
        # ret[0] (final xchg value + sum of the returned values), ret[1]
        # (cmpxchg counter) and ret[2] (atom_inc count) are fixed as well.
        def inv(o):
            cc, rr = unpack("q", o["c"]), unpack("q", o["ret"])
            return cc[:7] + [s64(cc[7] + rr[0]), rr[1], rr[2]]
        a, b = inv(p), inv(x)
        return None if a == b else "gatomic_long invariants: PoCL %s, xs12 %s" % (a, b)
    return c.done(joint=joint)


# ---- memory --------------------------------------------------------------------------

def setup_mem_subdword(rng, d):
    c = Ctx(d)
    c.inp("c.bin", "b", [rng.randrange(-128, 128) for _ in range(N)])
    c.inp("u2.bin", "B", [rng.getrandbits(8) for _ in range(2 * N)])
    c.inp("s.bin", "h", [rng.randrange(-32768, 32768) for _ in range(3 * N + 4)])
    c.inp("u4.bin", "H", [rng.getrandbits(16) for _ in range(4 * N)])
    c.out("ob", Out("ob.bin", 3 * N, "B"))
    c.out("os", Out("os.bin", 2 * 3 * N, "h"))
    c.out("oi", cols(Out("oi.bin", 4 * 4 * N, "i"), 4))
    return c.done()


def setup_mem_vector(rng, d):
    c = Ctx(d)
    c.inp("f4.bin", "f", [f32(rng.uniform(-100, 100)) for _ in range(4 * N)])
    c.inp("i8.bin", "i", [rng.randrange(-2 ** 28, 2 ** 28) for _ in range(8 * N)])
    c.inp("f.bin", "f", [f32(rng.uniform(-100, 100)) for _ in range(4 * N + 8)])
    c.inp("d2.bin", "d", [rng.uniform(-1e6, 1e6) for _ in range(2 * N)])
    c.out("of4", Out("of4.bin", 16 * N, "f", "float"))
    c.out("oi8", Out("oi8.bin", 32 * N, "i"))
    c.out("of16", Out("of16.bin", 64 * N, "f", "float"))
    c.out("od2", Out("od2.bin", 16 * N, "d", "float"))
    return c.done()


def setup_mem_gather(rng, d):
    c = Ctx(d)
    c.inp("in.bin", "I", [rng.getrandbits(32) for _ in range(16384)])
    c.out("out", Out("out.bin", 4 * N, "I"))
    c.out("sc", Out("sc.bin", 4 * 4096, "I"))
    return c.done()


# struct pair (56 bytes): rec r {char tag @0, short count @2, int id @4,
# float weight @8, double value @16, uchar flags[3] @24, long big @32},
# float2 pos @40, int link @48. Padding: 1, 12..15, 27..31, 52..55.
PAIR_SIZE = 56
PAIR_PAD = [1] + list(range(12, 16)) + list(range(27, 32)) + list(range(52, 56))


def setup_mem_struct(rng, d):
    c = Ctx(d)
    n = 256
    data = bytearray()
    for _ in range(n):
        rec = struct.pack("<bxhif4xd3B5xq", rng.randrange(-128, 128), rng.randrange(-32768, 32768),
                          s32(rng.getrandbits(32)), f32(rng.uniform(-10, 10)),
                          rng.uniform(-1e6, 1e6), rng.getrandbits(8), rng.getrandbits(8),
                          rng.getrandbits(8), rng.randrange(-2 ** 60, 2 ** 60))
        data += rec + struct.pack("<ffi4x", f32(rng.uniform(-5, 5)), f32(rng.uniform(-5, 5)),
                                  s32(rng.getrandbits(32)))
    c.raw_in("in.bin", bytes(data))
    mask = [0 if i in PAIR_PAD else 1 for i in range(PAIR_SIZE)]
    c.out("out", Out("out.bin", PAIR_SIZE * n, "B", "masked", mask=mask))
    c.out("sizes", Out("sizes.bin", 16, "i"))
    return c.done()


def setup_mem_ptr64(rng, d):
    c = Ctx(d)
    n = N
    c.inp("next.bin", "I", [rng.randrange(n) for _ in range(n)])
    c.inp("vals.bin", "q", [rng.randrange(-2 ** 58, 2 ** 58) for _ in range(4 * n)])
    c.out("out", cols(Out("out.bin", 32 * n, "q"), 4))
    c.arg("u64:%d" % 0x1000000061)
    return c.done()


# ---- private, calls, grids, waves ---------------------------------------------------

def setup_u32_in_out(n_in, n_out, k_out=1, lim=None):
    def setup(rng, d):
        c = Ctx(d)
        v = [rng.getrandbits(32) if lim is None else rng.randrange(-lim, lim) for _ in range(n_in)]
        c.inp("in.bin", "I" if lim is None else "i", v)
        c.out("out", cols(Out("out.bin", 4 * n_out * k_out, "I"), k_out))
        return c.done()
    return setup


def setup_grid(nout):
    def setup(rng, d):
        c = Ctx(d)
        c.out("out", cols(Out("out.bin", 4 * nout[0], "I"), nout[1]))
        return c.done()
    return setup


def setup_grid3d_stencil(rng, d):
    c = Ctx(d)
    n = 16 * 12 * 8
    c.inp("in.bin", "i", [rng.randrange(-2 ** 20, 2 ** 20) for _ in range(n)])
    c.out("out", Out("out.bin", 4 * n, "i"))
    return c.done()


def setup_wave(k):
    def setup(rng, d):
        c = Ctx(d)
        v = [s32(rng.getrandbits(32)) if rng.random() < 0.7 else rng.randrange(-3, 4)
             for _ in range(N)]
        v[64:96] = [rng.randrange(1, 100) for _ in range(32)]      # a wave with all != 0
        c.inp("in.bin", "i", v)
        c.out("out", cols(Out("out.bin", 4 * N * k, "i"), k))
        return c.done()
    return setup


def setup_matmul(rng, d):
    c = Ctx(d)
    n = 64
    c.inp("a.bin", "I", [rng.getrandbits(32) for _ in range(n * n)])
    c.inp("b.bin", "I", [rng.getrandbits(32) for _ in range(n * n)])
    c.out("c", Out("c.bin", 4 * n * n, "I"))
    c.out("sum", Out("sum.bin", 8, "I"))
    c.arg("u32:%d" % n)

    def check(out):
        a_ = unpack("I", open(os.path.join(d, "a.bin"), "rb").read())
        b_ = unpack("I", open(os.path.join(d, "b.bin"), "rb").read())
        got = unpack("I", out["c"])
        for (r, col) in [(0, 0), (5, 17), (63, 63), (31, 40)]:
            s = sum(a_[r * n + k] * b_[k * n + col] for k in range(n)) & 0xFFFFFFFF
            if got[r * n + col] != s:
                return "PoCL matmul wrong at (%d, %d)" % (r, col)
        return None
    return c.done(check)


def _case(kernel, setup, groups=G, block="64", waves=None, file=None, **kw):
    g = [int(x) for x in groups.split(",")]
    b = [int(x) for x in block.split(",")]
    ng = 1
    for x in g:
        ng *= x
    nb = 1
    for x in b:
        nb *= x
    c = dict(kernel=kernel, groups=groups, block=block, setup=setup, waves=waves or (ng, nb),
             pocl_opts="")
    c.update(kw)
    return c


CORPUS_CASES = {
    # int_arith.cl
    "corpus/int_addsub": _case("int_addsub", setup_int_k(12)),
    "corpus/int_shift": _case("int_shift", setup_int_k(10)),
    "corpus/int_bits": _case("int_bits", setup_int_k(12)),
    "corpus/int_sat": _case("int_sat", setup_int_k(16)),
    # int_div.cl
    "corpus/int_divrem": _case("int_divrem", setup_int_divrem),
    "corpus/int_divconst": _case("int_divconst", setup_int_k(10, nb=1)),
    "corpus/long_divrem": _case("long_divrem", setup_long_divrem),
    # long_arith.cl
    "corpus/long_arith": _case("long_arith", setup_long_arith),
    "corpus/long_mixed": _case("long_mixed", setup_long_mixed),
    # f32_arith.cl
    "corpus/f32_basic": _case("f32_basic", setup_f32_basic),
    "corpus/f32_div": _case("f32_div", setup_f32_div),
    "corpus/f32_minmax": _case("f32_minmax", setup_f32_minmax),
    "corpus/f32_round": _case("f32_round", setup_f32_round),
    "corpus/f32_fmod": _case("f32_fmod", setup_f32_k(4)),
    "corpus/f32_cmp": _case("f32_cmp", setup_f32_k(14, outfmt="i", mode="bits")),
    # f32_conv.cl
    "corpus/f32_to_int": _case("f32_to_int", setup_f32_to_int),
    "corpus/int_to_f32": _case("int_to_f32", setup_int_to_f32),
    "corpus/f32_bitcast": _case("f32_bitcast", setup_f32_bitcast),
    # f32_math.cl
    "corpus/f32_trig": _case("f32_trig", setup_f32_trig),
    "corpus/f32_explog": _case("f32_explog", setup_f32_explog),
    "corpus/f32_sqrt": _case("f32_sqrt", setup_f32_sqrt),
    "corpus/f32_hyper": _case("f32_hyper", setup_f32_hyper),
    "corpus/f32_native": _case("f32_native", setup_f32_native),
    # f64.cl
    "corpus/f64_basic": _case("f64_basic", setup_f64_k(10, 3)),
    "corpus/f64_conv": _case("f64_conv", setup_f64_conv),
    "corpus/f64_round": _case("f64_round", setup_f64_k(12, 2)),
    "corpus/f64_math": _case("f64_math", setup_f64_math),
    # half.cl
    "corpus/half_conv": _case("half_conv", setup_half_conv),
    "corpus/half_arith": _case("half_arith", setup_half_arith),
    "corpus/half_pk": _case("half_pk", setup_half_pk),
    # control.cl
    "corpus/cf_divergent": _case("cf_divergent", setup_cf("divergent")),
    "corpus/cf_loops": _case("cf_loops", setup_cf("loops")),
    "corpus/cf_switch": _case("cf_switch", setup_cf("switch")),
    # lds.cl
    "corpus/lds_transpose": _case("lds_transpose", setup_lds_transpose, groups="4,3",
                                  block="16,16"),
    "corpus/lds_scan": _case("lds_scan", setup_lds_scan, groups=str(N // 128), block="128"),
    "corpus/lds_histogram": _case("lds_histogram", setup_lds_histogram, groups="6", block="96"),
    "corpus/lds_atomics": _case("lds_atomics", setup_lds_atomics),
    "corpus/lds_subdword": _case("lds_subdword", setup_lds_subdword),
    # atomics.cl
    "corpus/gatomic_int": _case("gatomic_int", setup_gatomic_int),
    "corpus/gatomic_xchg": _case("gatomic_xchg", setup_gatomic_xchg),
    "corpus/gatomic_long": _case("gatomic_long", setup_gatomic_long),
    # memory.cl
    "corpus/mem_subdword": _case("mem_subdword", setup_mem_subdword),
    "corpus/mem_vector": _case("mem_vector", setup_mem_vector),
    "corpus/mem_struct": _case("mem_struct", setup_mem_struct, groups="4"),
    "corpus/mem_ptr64": _case("mem_ptr64", setup_mem_ptr64),
    "corpus/mem_gather": _case("mem_gather", setup_mem_gather),
    # private.cl
    "corpus/priv_sort": _case("priv_sort", setup_u32_in_out(16 * 256, 256, 16), groups="4"),
    "corpus/priv_struct": _case("priv_struct", setup_u32_in_out(256, 256), groups="4"),
    "corpus/priv_big": _case("priv_big", setup_u32_in_out(256, 256), groups="4"),
    # calls.cl
    "corpus/call_noinline": _case("call_noinline", setup_u32_in_out(256, 256, 6), groups="4"),
    "corpus/call_local": _case("call_local", setup_u32_in_out(256, 256, lim=2 ** 28), groups="4"),
    # grid.cl
    "corpus/grid1d_ids": _case("grid1d_ids", setup_grid((6 * 5 * 96, 6)), groups="5", block="96"),
    "corpus/grid2d_ids": _case("grid2d_ids", setup_grid((4 * 3 * 4 * 16 * 8, 4)), groups="3,4",
                               block="16,8"),
    "corpus/grid3d_ids": _case("grid3d_ids", setup_grid((3 * 2 * 2 * 3 * 8 * 4 * 4, 3)),
                               groups="2,2,3", block="8,4,4"),
    "corpus/grid3d_stencil": _case("grid3d_stencil", setup_grid3d_stencil, groups="2,3,2",
                                   block="8,4,4"),
    # wave_shfl.cl / wave_dpp.cl (twins of the HIP kernels), half_hip.cl, matmul_hip.cl
    "corpus/wave_shfl": _case("wave_shfl", setup_wave(9)),
    "corpus/wave_dpp": _case("wave_dpp", setup_wave(14)),
    "corpus/half_hip": _case("half_hip", setup_half_hip),
    "corpus/matmul_hip": _case("matmul_hip", setup_matmul, groups="4,4", block="16,16"),
}
