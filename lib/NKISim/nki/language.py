# Rules: none (NKI simulator)
"""nki.language for the NumPy simulator: dtypes, buffers, allocation,
dynamic slices, tile limits and the operators that nisa calls take as op=.

Only the current dialect: nl.arange, nl.mgrid, nl.program_id and mask= are
gone from the real package and are absent here too.
"""

import numpy as np

from . import _core
from ._core import (DynSlice, Tensor, bfloat16, float16, float32, hbm, int8,
                    int16, int32, private_hbm, psum, sbuf, shared_hbm, uint8,
                    uint16, uint32)

__all__ = [
    "float32", "float16", "bfloat16", "int32", "uint32", "int16", "uint16",
    "int8", "uint8", "hbm", "shared_hbm", "private_hbm", "sbuf", "psum",
    "ndarray", "zeros", "ds", "tile_size", "affine_range", "sequential_range",
    "static_range",
]


class tile_size:
    """The tile limits of the hardware (nl.tile_size)."""

    pmax = _core.PMAX
    psum_fmax = _core.PSUM_FMAX
    psum_bank_fmax = _core.PSUM_FMAX
    gemm_stationary_fmax = _core.GEMM_STATIONARY_FMAX
    gemm_moving_fmax = _core.GEMM_MOVING_FMAX


def ndarray(shape, dtype, buffer=sbuf, name=None):
    """A new tensor; its elements read as NaN (integers: 0xDEADBEEF-like
    patterns) until written."""
    return _core.allocate(shape, dtype, buffer, name)


def zeros(shape, dtype, buffer=sbuf, name=None):
    """A new tensor filled with zeros (a memset: one operation)."""
    t = _core.allocate(shape, dtype, buffer, name)
    _core.count_op("memset")
    t.data[...] = 0
    if t.written is not None:
        t.written[...] = True
    return t


def ds(start, size):
    """A dynamic slice: the elements start .. start + size - 1 of an axis."""
    return DynSlice(start, size)


# Loops are Python loops, unrolled at trace time (deprecated aliases).
affine_range = range
sequential_range = range
static_range = range


# ---------------------------------------------------------------------------
# Operators (op= of nisa.tensor_tensor, tensor_scalar, tensor_reduce,
# activation).  Each computes in float32, as the engines do, unless its
# operands are integers.


class Op:
    def __init__(self, name, unary=None, binary=None, reduce=None,
                 bitvec=False):
        self.name = name
        self.unary = unary
        self.binary = binary
        self.reduce = reduce
        # A bitvec operator acts on the bits of integer data; the others
        # are arithmetic, computed in float32.
        self.bitvec = bitvec

    def __repr__(self):
        return "nl." + self.name

    def __call__(self, *args, **kwargs):
        _core.fail("nl.%s called as a function: the simulator supports the "
                   "nl operators only as op= of nisa calls" % self.name)


def _f(fn):
    def g(*xs):
        with np.errstate(all="ignore"):
            return fn(*xs)
    return g


def _gelu_tanh(x):
    x = x.astype(np.float32)
    c = np.float32(0.7978845608028654)  # sqrt(2 / pi)
    return np.float32(0.5) * x * (np.float32(1) + np.tanh(
        c * (x + np.float32(0.044715) * x * x * x)))


def _erf(x):
    import math
    return np.vectorize(math.erf, otypes=[np.float64])(
        x.astype(np.float64)).astype(np.float32)


def _gelu(x):
    x = x.astype(np.float32)
    return (np.float32(0.5) * x *
            (np.float32(1) + _erf(x / np.float32(np.sqrt(2.0))))).astype(
                np.float32)


def _cmp(fn):
    return _f(lambda a, b: fn(a, b).astype(np.float32))


# Binary (tensor_tensor, tensor_scalar) and reductions.
add = Op("add", binary=_f(np.add), reduce=np.add)
subtract = Op("subtract", binary=_f(np.subtract))
multiply = Op("multiply", binary=_f(np.multiply), reduce=np.multiply)
divide = Op("divide", binary=_f(np.divide))
maximum = Op("maximum", binary=_f(np.maximum), reduce=np.maximum)
minimum = Op("minimum", binary=_f(np.minimum), reduce=np.minimum)
power = Op("power", binary=_f(np.power))
# Comparisons give 1.0 where true and 0.0 where false (masks for select).
equal = Op("equal", binary=_cmp(np.equal))
not_equal = Op("not_equal", binary=_cmp(np.not_equal))
greater = Op("greater", binary=_cmp(np.greater))
greater_equal = Op("greater_equal", binary=_cmp(np.greater_equal))
less = Op("less", binary=_cmp(np.less))
less_equal = Op("less_equal", binary=_cmp(np.less_equal))
logical_and = Op("logical_and", binary=_cmp(
    lambda a, b: np.logical_and(a != 0, b != 0)))
logical_or = Op("logical_or", binary=_cmp(
    lambda a, b: np.logical_or(a != 0, b != 0)))

# Bitwise (bitvec) operators (integer tiles only: a floating operand is an
# error).  Results keep 32 bits, two's complement for signed data (a left
# shift drops the bits shifted out).  The Vector Engine treats the elements
# as bit patterns without casting, so right_shift is logical on signed data
# too: -8 >> 1 is 0x7FFFFFFC.


def _int_only(name, fn):
    def g(a, b):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype.kind not in "iu" or b.dtype.kind not in "iu":
            _core.fail("nl.%s needs integer operands, not %s and %s" %
                       (name, a.dtype.name, b.dtype.name))
        signed = a.dtype.kind == "i"
        r = fn(a.astype(np.int64), b.astype(np.int64)) & 0xFFFFFFFF
        if signed:
            r = np.where(r >= 0x80000000, r - 0x100000000, r)
        return r.astype(np.int32 if signed else np.uint32)
    return g


def _shift_count(b):
    if np.any((b < 0) | (b > 31)):
        _core.fail("shift count must be in [0, 31]")
    return b


bitwise_and = Op("bitwise_and", bitvec=True,
                 binary=_int_only("bitwise_and", np.bitwise_and))
bitwise_or = Op("bitwise_or", bitvec=True,
                binary=_int_only("bitwise_or", np.bitwise_or))
bitwise_xor = Op("bitwise_xor", bitvec=True,
                 binary=_int_only("bitwise_xor", np.bitwise_xor))
left_shift = Op("left_shift", bitvec=True, binary=_int_only(
    "left_shift", lambda a, b: np.left_shift(a, _shift_count(b))))
right_shift = Op("right_shift", bitvec=True, binary=_int_only(
    "right_shift",
    lambda a, b: np.right_shift(a & 0xFFFFFFFF, _shift_count(b))))

# Unary (activation).
exp = Op("exp", unary=_f(np.exp))
log = Op("log", unary=_f(np.log))
tanh = Op("tanh", unary=_f(np.tanh))
sqrt = Op("sqrt", unary=_f(np.sqrt))
rsqrt = Op("rsqrt", unary=_f(lambda x: np.float32(1) / np.sqrt(x)))
reciprocal = Op("reciprocal", unary=_f(lambda x: np.float32(1) / x))
square = Op("square", unary=_f(np.square))
abs = Op("abs", unary=_f(np.abs))  # noqa: A001 (the real name)
negative = Op("negative", unary=_f(np.negative))
relu = Op("relu", unary=_f(lambda x: np.maximum(x, np.float32(0))))
sigmoid = Op("sigmoid",
             unary=_f(lambda x: np.float32(1) / (np.float32(1) + np.exp(-x))))
silu = Op("silu", unary=_f(lambda x: x / (np.float32(1) + np.exp(-x))))
gelu = Op("gelu", unary=_f(_gelu))
gelu_apprx_tanh = Op("gelu_apprx_tanh", unary=_f(_gelu_tanh))
erf = Op("erf", unary=_f(_erf))
copy = Op("copy", unary=_f(lambda x: x))
identity = copy
sin = Op("sin", unary=_f(np.sin))
cos = Op("cos", unary=_f(np.cos))
