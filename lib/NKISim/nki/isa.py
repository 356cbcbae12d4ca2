# Rules: none (NKI simulator)
"""nki.isa for the NumPy simulator: destination-first operations, executed
eagerly.  Every call counts as one traced operation.

Arithmetic runs in float32 on every engine, integer operands included (an
int32 2**24 + 1 is not exact); bitvec operators (bitwise_*, shifts) act on
the bits of integer tiles, right_shift logically.  Results are rounded to
the destination's dtype when stored (bfloat16 and float16: round to nearest
even).  Each rule cites the documentation page it comes from; the list is in
docs/nki.md, "Rules and where they come from".
"""

import numpy as np

from . import _core
from . import language as nl
from ._core import NKISimError, Tensor, cite, fail, is_hbm, psum, sbuf

__all__ = [
    "dma_copy", "tensor_copy", "nc_matmul", "nc_transpose", "tensor_tensor",
    "tensor_scalar", "tensor_reduce", "activation", "reciprocal", "memset",
    "select", "iota", "affine_select", "engine",
]


class engine:
    """The engine= argument of nisa calls (nki.isa.engine)."""

    unknown = "unknown"
    tensor = "tensor"
    vector = "vector"
    scalar = "scalar"
    gpsimd = "gpsimd"


def _tensor(x, op, arg):
    if not isinstance(x, Tensor):
        fail("%s: %s must be a tensor, not %s" % (op, arg, type(x).__name__))
    return x


def _on_chip(x, op, arg):
    _tensor(x, op, arg)
    if not x.buffer.on_chip:
        fail("%s: %s is in %s; compute engines read and write SBUF or PSUM "
             "only (dma_copy it to an SBUF tile first)" %
             (op, arg, x.buffer.name))
    _core.check_tile_shape(x.shape, x.buffer, x.dtype, "%s %s" % (op, arg))
    return x


def _same_shape(a, b, op, an, bn):
    if a.shape != b.shape:
        fail("%s: %s has shape %s but %s has shape %s" %
             (op, an, list(a.shape), bn, list(b.shape)))


def _values(x):
    """Operand values as the arithmetic of the engines sees them: float32,
    integers included (rounded to the nearest float32)."""
    return x.data.astype(np.float32)


def _same_partitions(dst, src, op, arg):
    """Compute engines read and write partition by partition: \\p src must
    sit on the partitions of \\p dst.  Moving data to other partitions
    takes a DMA, a transpose or nc_stream_shuffle."""
    if dst.poff != src.poff:
        fail("%s: %s starts at partition %d but dst at partition %d; a "
             "compute engine cannot move data across partitions (use "
             "dma_copy or a transpose)%s" %
             (op, arg, src.poff, dst.poff, cite("shuffle")))


def _store(dst, values):
    """Writes \\p values into \\p dst (rounded to its dtype)."""
    dst.data[...] = _core.convert(np.broadcast_to(values, dst.shape),
                                  dst.dtype)
    if dst.written is not None:
        dst.written[...] = True


def _op(op, kind, opname):
    if not isinstance(op, nl.Op):
        fail("%s: op must be an nl operator such as nl.add, not %r" %
             (opname, op))
    fn = getattr(op, kind)
    if fn is None:
        what = {"binary": "a binary operator",
                "unary": "an activation function",
                "reduce": "a reduction (nl.add, nl.maximum, nl.minimum, "
                          "nl.multiply)"}[kind]
        fail("%s: nl.%s is not %s" % (opname, op.name, what))
    return fn


def _arith(a, b, bitvec=False):
    """Operands as the engines compute: float32 for arithmetic operators
    (integers too), the integer bits for bitvec operators."""
    if bitvec:
        return a, b
    return a.astype(np.float32), b.astype(np.float32)


# ---------------------------------------------------------------------------
# Data movement.


def dma_copy(dst, src, **kwargs):
    """Copies \\p src to \\p dst (HBM <-> SBUF, or within either); never from
    PSUM.  Shapes must be equal; values are converted to dst's dtype."""
    _core.count_op("dma_copy")
    _tensor(dst, "dma_copy", "dst")
    _tensor(src, "dma_copy", "src")
    if src.buffer is psum:
        fail("dma_copy: src is in psum; DMA cannot read PSUM (evict it with "
             "nisa.tensor_copy into an SBUF tile first)")
    if dst.buffer is psum:
        fail("dma_copy: dst is in psum; DMA writes HBM or SBUF only")
    for t, n in ((dst, "dst"), (src, "src")):
        if t.buffer is sbuf:
            _core.check_tile_shape(t.shape, t.buffer, t.dtype,
                                   "dma_copy " + n)
    _same_shape(dst, src, "dma_copy", "dst", "src")
    _store(dst, src.data)


def tensor_copy(dst, src, engine=None, **kwargs):
    """Copies an on-chip tile (SBUF or PSUM) into another, converting to
    dst's dtype: the way to evict PSUM."""
    _core.count_op("tensor_copy")
    _on_chip(dst, "tensor_copy", "dst")
    _on_chip(src, "tensor_copy", "src")
    _same_shape(dst, src, "tensor_copy", "dst", "src")
    _same_partitions(dst, src, "tensor_copy", "src")
    # Bit-accurate between equal dtypes, through float32 otherwise.
    _store(dst, src.data if dst.dtype is src.dtype else _values(src))


def memset(dst, value, **kwargs):
    """Fills \\p dst with \\p value."""
    _core.count_op("memset")
    _on_chip(dst, "memset", "dst")
    if isinstance(value, Tensor):
        fail("memset: value must be a scalar")
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        fail("memset: value %r is not a number of dst's dtype %s%s" %
             (value, dst.dtype.name, cite("memset")))
    if not dst.dtype.is_float:
        if not isinstance(value, (int, np.integer)):
            fail("memset: value %r is a float but dst is %s; an integer "
                 "tile is filled with an integer value%s" %
                 (value, dst.dtype.name, cite("memset")))
        info = np.iinfo(dst.dtype.storage)
        if not info.min <= int(value) <= info.max:
            fail("memset: value %d is out of the range of dst's dtype %s%s"
                 % (value, dst.dtype.name, cite("memset")))
        _store(dst, np.asarray(int(value), dtype=np.int64))
        return
    _store(dst, np.asarray(value, dtype=np.float64))


# ---------------------------------------------------------------------------
# Tensor engine.


def nc_matmul(dst, stationary, moving, is_stationary_onezero=False,
              is_moving_onezero=False, is_transpose=False, accumulate=None,
              **kwargs):
    """dst[M, N] (fp32 PSUM) = stationary[K, M].T @ moving[K, N], K <= 128,
    M <= 128, N <= 512.  accumulate=None: the first write to an element of the
    PSUM tile overwrites it, later writes add; True: add (the tile must have
    been written); False: overwrite."""
    _core.count_op("nc_matmul")
    op = "nc_matmul"
    _tensor(dst, op, "dst")
    _tensor(stationary, op, "stationary")
    _tensor(moving, op, "moving")
    if is_transpose:
        fail("nc_matmul: is_transpose=True is not supported by the simulator "
             "(use nisa.nc_transpose)")
    for t, n in ((stationary, "stationary"), (moving, "moving")):
        if t.buffer is not sbuf:
            fail("%s: %s is in %s; matmul operands must be in SBUF" %
                 (op, n, t.buffer.name))
        if t.ndim != 2:
            fail("%s: %s must be a 2-D tile [K, free], not shape %s" %
                 (op, n, list(t.shape)))
        if not t.dtype.is_float:
            fail("%s: %s is %s; matmul operands are floating point" %
                 (op, n, t.dtype.name))
    if dst.buffer is not psum:
        fail("%s: dst is in %s; matmul results go to PSUM" %
             (op, dst.buffer.name))
    if dst.dtype is not _core.float32:
        fail("%s: dst is %s; the PSUM accumulator is float32" %
             (op, dst.dtype.name))
    if (stationary.dtype is _core.float32) != (moving.dtype is _core.float32):
        fail("%s: stationary is %s but moving is %s (float32 operands cannot "
             "be mixed with 16-bit ones)" %
             (op, stationary.dtype.name, moving.dtype.name))
    k, m = stationary.shape
    k2, n = moving.shape
    if k != k2:
        fail("%s: contraction (partition) dimensions differ: stationary has "
             "%d, moving has %d" % (op, k, k2))
    if k > _core.PMAX:
        fail("%s: contraction dimension %d exceeds maximum %d" %
             (op, k, _core.PMAX))
    if m > _core.GEMM_STATIONARY_FMAX:
        fail("%s: stationary free size %d exceeds maximum %d" %
             (op, m, _core.GEMM_STATIONARY_FMAX))
    if n > _core.GEMM_MOVING_FMAX:
        fail("%s: moving free size %d exceeds maximum %d" %
             (op, n, _core.GEMM_MOVING_FMAX))
    _core.check_tile_shape(dst.shape, psum, dst.dtype, op + " dst")
    if dst.shape != (m, n):
        fail("%s: dst has shape %s; stationary.T @ moving has shape [%d, %d]"
             % (op, list(dst.shape), m, n))
    prod = (stationary.data.astype(np.float64).T @
            moving.data.astype(np.float64))
    # The call's result is float32 before it reaches the accumulator: PSUM
    # adds float32 to float32 (one rounding per accumulating call).
    prod = prod.astype(np.float32).astype(np.float64)
    if accumulate is True:
        if not dst.written.all():
            fail("%s: accumulate=True into a PSUM tile that has not been "
                 "written" % op)
        new = dst.data.astype(np.float64) + prod
    elif accumulate is False:
        new = prod
    elif accumulate is None:
        new = np.where(dst.written, dst.data.astype(np.float64) + prod, prod)
    else:
        fail("%s: accumulate must be None, True or False" % op)
    _store(dst, new.astype(np.float32))


def nc_transpose(dst, data, engine=None, **kwargs):
    """dst[F, P] = data[P, F].T; dst has data's dtype.  On the Tensor Engine
    (both dimensions <= 128) data is in SBUF and dst in PSUM; the Vector
    Engine transposes at most 32 x 32, SBUF or PSUM to SBUF or PSUM.  With
    no engine= the Tensor Engine is taken when the buffers allow it."""
    _core.count_op("nc_transpose")
    op = "nc_transpose"
    _on_chip(dst, op, "dst")
    _on_chip(data, op, "data")
    if data.ndim != 2:
        fail("%s: data must be a 2-D tile, not shape %s" %
             (op, list(data.shape)))
    p, f = data.shape
    if f > _core.PMAX:
        fail("%s: free size %d exceeds maximum %d (it becomes the partition "
             "dimension)" % (op, f, _core.PMAX))
    if dst.shape != (f, p):
        fail("%s: dst has shape %s; the transpose of %s is [%d, %d]" %
             (op, list(dst.shape), list(data.shape), f, p))
    if dst.dtype is not data.dtype:
        fail("%s: dst is %s but data is %s; the output of a transpose has "
             "the dtype of its input (transpose, then convert with "
             "tensor_copy)%s" %
             (op, dst.dtype.name, data.dtype.name, cite("transpose")))
    if engine not in (None, "unknown", "tensor", "vector"):
        fail("%s: engine must be nisa.engine.tensor or nisa.engine.vector, "
             "not %r%s" % (op, engine, cite("transpose")))
    pe_ok = data.buffer is sbuf and dst.buffer is psum
    vmax = _core.VECTOR_TRANSPOSE_MAX
    if engine == "tensor" and not pe_ok:
        fail("%s: the Tensor Engine transpose reads SBUF and writes PSUM; "
             "data is in %s and dst in %s%s" %
             (op, data.buffer.name, dst.buffer.name, cite("transpose")))
    if engine == "vector" or not pe_ok:
        if p > vmax or f > vmax:
            why = ("on the Vector Engine" if engine == "vector" else
                   "from %s to %s (only the Vector Engine transposes "
                   "there; the Tensor Engine reads SBUF and writes PSUM)" %
                   (data.buffer.name, dst.buffer.name))
            fail("%s: a %d x %d transpose %s exceeds the Vector Engine's "
                 "%d x %d%s" % (op, p, f, why, vmax, vmax,
                                cite("transpose")))
    _store(dst, data.data.T)


# ---------------------------------------------------------------------------
# Vector and scalar engines.


def tensor_tensor(dst, data1, data2, op, **kwargs):
    """dst = op(data1, data2) element-wise; shapes must be equal (no
    broadcasting)."""
    _core.count_op("tensor_tensor")
    name = "tensor_tensor"
    fn = _op(op, "binary", name)
    _on_chip(dst, name, "dst")
    _on_chip(data1, name, "data1")
    _on_chip(data2, name, "data2")
    _same_shape(data1, data2, name, "data1", "data2")
    _same_shape(dst, data1, name, "dst", "data1")
    if data1.buffer is psum and data2.buffer is psum:
        fail("%s: data1 and data2 are both in PSUM; at most one input of "
             "tensor_tensor may be in PSUM (copy one to SBUF first)%s" %
             (name, cite("tensor_tensor")))
    if op.name == "power" and psum in (dst.buffer, data1.buffer,
                                      data2.buffer):
        fail("%s: nl.power runs on the GpSimd Engine, which cannot access "
             "PSUM%s" % (name, cite("tensor_tensor")))
    _same_partitions(dst, data1, name, "data1")
    _same_partitions(dst, data2, name, "data2")
    _bitvec_dtypes(op, (dst, data1, data2), name)
    a, b = _arith(data1.data, data2.data, op.bitvec)
    _store(dst, fn(a, b))


def _bitvec_dtypes(op, tiles, name):
    """Bitvec operators act on the bits of integer tiles only."""
    if op.bitvec:
        for t in tiles:
            if t.dtype.is_float:
                fail("%s: nl.%s is a bitvec operator; its input and output "
                     "tiles must be integer, not %s%s" %
                     (name, op.name, t.dtype.name, cite(name)))


def _scalar_operand(x, data, name, arg):
    """A scalar, or a (P, 1) tile broadcast along the free axes."""
    if isinstance(x, Tensor):
        _on_chip(x, name, arg)
        p = data.shape[0]
        if x.shape[0] != p or any(s != 1 for s in x.shape[1:]) or x.ndim < 2:
            fail("%s: %s has shape %s; a tensor operand must be a (%d, 1) "
                 "column" % (name, arg, list(x.shape), p))
        if x.poff != data.poff:
            fail("%s: %s starts at partition %d but data at partition %d; "
                 "a column operand is read on the partitions of data%s" %
                 (name, arg, x.poff, data.poff, cite("shuffle")))
        v = x.data.reshape((p,) + (1,) * (data.ndim - 1))
        return v
    if isinstance(x, (int, float, np.integer, np.floating)) and \
            not isinstance(x, bool):
        return np.asarray(x)
    fail("%s: %s must be a scalar or a (P, 1) tile, not %r" % (name, arg, x))


def tensor_scalar(dst, data, op0, operand0, reverse0=False, op1=None,
                  operand1=None, reverse1=False, **kwargs):
    """dst = (data op0 operand0) op1 operand1; an operand is a scalar or a
    (P, 1) column broadcast along the free axes; reverse swaps the
    operands of that step."""
    _core.count_op("tensor_scalar")
    name = "tensor_scalar"
    _on_chip(dst, name, "dst")
    _on_chip(data, name, "data")
    _same_shape(dst, data, name, "dst", "data")
    _same_partitions(dst, data, name, "data")
    v = data.data
    steps = [(op0, operand0, reverse0, "operand0")]
    if op1 is not None:
        steps.append((op1, operand1, reverse1, "operand1"))
    elif operand1 is not None:
        fail("%s: operand1 given without op1" % name)
    for op, _, _, _ in steps:
        _op(op, "binary", name)
    if len(steps) == 2 and op0.bitvec != op1.bitvec:
        fail("%s: op0 nl.%s and op1 nl.%s mix a bitvec and an arithmetic "
             "operator; both must be bitvec or both arithmetic (split it "
             "into two tensor_scalar calls)%s" %
             (name, op0.name, op1.name, cite("tensor_scalar")))
    _bitvec_dtypes(op0, (dst, data), name)
    for op, operand, rev, arg in steps:
        fn = _op(op, "binary", name)
        o = _scalar_operand(operand, data, name, arg)
        a, b = _arith(np.asarray(v), np.asarray(o), op.bitvec)
        v = fn(b, a) if rev else fn(a, b)
        if v.dtype.kind == "f":
            v = v.astype(np.float32)
    _store(dst, v)


def tensor_reduce(dst, op, data, axis, negate=False, keepdims=False,
                  **kwargs):
    """dst = reduce(op) of data over the free axes \\p axis (never axis 0,
    the partition axis)."""
    _core.count_op("tensor_reduce")
    name = "tensor_reduce"
    fn = _op(op, "reduce", name)
    _on_chip(dst, name, "dst")
    _on_chip(data, name, "data")
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    norm = []
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            fail("%s: axis must be an integer or a tuple of integers" % name)
        a = int(a)
        if a < 0:
            a += data.ndim
        if a < 0 or a >= data.ndim:
            fail("%s: axis %d is out of range for shape %s" %
                 (name, a, list(data.shape)))
        if a == 0:
            fail("%s: cannot reduce over axis 0, the partition dimension "
                 "(transpose the tile first)" % name)
        norm.append(a)
    if sorted(norm) != list(range(data.ndim - len(norm), data.ndim)) or \
            len(set(norm)) != len(norm):
        fail("%s: axis %s of a rank-%d tile: the reduction axes must be "
             "consecutive free axes ending at the last one (axis=%s)%s" %
             (name, tuple(norm) if len(norm) > 1 else norm[0], data.ndim,
              tuple(range(data.ndim - len(norm), data.ndim))
              if len(norm) > 1 else data.ndim - 1, cite("tensor_reduce")))
    _same_partitions(dst, data, name, "data")
    a, _ = _arith(data.data, data.data)
    with np.errstate(all="ignore"):
        r = fn.reduce(a, axis=tuple(norm), keepdims=keepdims)
        if negate:
            r = -r
    if dst.shape != r.shape:
        fail("%s: dst has shape %s; the reduction of %s over axis %s with "
             "keepdims=%s has shape %s" %
             (name, list(dst.shape), list(data.shape),
              norm[0] if len(norm) == 1 else tuple(norm), keepdims,
              list(r.shape)))
    _store(dst, r)


def activation(dst, op, data, bias=None, scale=1.0, **kwargs):
    """dst = op(data * scale + bias); bias is a (P, 1) tile, scale a scalar
    or a (P, 1) tile."""
    _core.count_op("activation")
    name = "activation"
    fn = _op(op, "unary", name)
    _on_chip(dst, name, "dst")
    _on_chip(data, name, "data")
    _same_shape(dst, data, name, "dst", "data")
    _same_partitions(dst, data, name, "data")
    x = data.data.astype(np.float32)
    s = _scalar_operand(scale, data, name, "scale").astype(np.float32)
    with np.errstate(all="ignore"):
        x = x * s
        if bias is not None:
            if not isinstance(bias, Tensor):
                fail("%s: bias must be a (P, 1) tile" % name)
            x = x + _scalar_operand(bias, data, name, "bias").astype(
                np.float32)
    _store(dst, fn(x.astype(np.float32)))


def reciprocal(dst, data, **kwargs):
    """dst = 1 / data."""
    _core.count_op("reciprocal")
    name = "reciprocal"
    _on_chip(dst, name, "dst")
    _on_chip(data, name, "data")
    _same_shape(dst, data, name, "dst", "data")
    _same_partitions(dst, data, name, "data")
    with np.errstate(all="ignore"):
        _store(dst, np.float32(1) / data.data.astype(np.float32))


def select(dst, predicate, on_true, on_false, **kwargs):
    """dst = on_true where predicate != 0, else on_false (element-wise;
    on_false may be a scalar).  A simulator operation for lifted masks: see
    docs/nki.md before running such a kernel on the real package."""
    _core.count_op("select")
    name = "select"
    _on_chip(dst, name, "dst")
    _on_chip(predicate, name, "predicate")
    _on_chip(on_true, name, "on_true")
    _same_shape(dst, predicate, name, "dst", "predicate")
    _same_shape(dst, on_true, name, "dst", "on_true")
    _same_partitions(dst, predicate, name, "predicate")
    _same_partitions(dst, on_true, name, "on_true")
    if isinstance(on_false, Tensor):
        _on_chip(on_false, name, "on_false")
        _same_shape(dst, on_false, name, "dst", "on_false")
        f = on_false.data
    else:
        f = _scalar_operand(on_false, dst, name, "on_false")
    _store(dst, np.where(predicate.data != 0, on_true.data, f))


_AFFINE_CMP = ("equal", "not_equal", "greater", "greater_equal", "less",
               "less_equal")


def affine_select(dst, pattern, offset, channel_multiplier, on_true_tile,
                  on_false_value, cmp_op=nl.equal, **kwargs):
    """dst = on_true_tile where cmp_op(offset + p * channel_multiplier +
    w * step_w + ... + x * step_x, 0) (p the partition; the pattern as for
    iota, the affine value computed in 32-bit integers), else
    on_false_value, a float32 scalar (the GpSimd engine: the causal mask of
    attention scores).  dst and on_true_tile have one shape, in SBUF."""
    _core.count_op("affine_select")
    name = "affine_select"
    _tensor(dst, name, "dst")
    _on_chip(on_true_tile, name, "on_true_tile")
    for t, arg in ((dst, "dst"), (on_true_tile, "on_true_tile")):
        if t.buffer is not sbuf:
            fail("%s: %s is in %s; the GpSimd engine reads and writes SBUF%s"
                 % (name, arg, t.buffer.name, cite("affine_select")))
    _on_chip(dst, name, "dst")
    _same_shape(dst, on_true_tile, name, "dst", "on_true_tile")
    _same_partitions(dst, on_true_tile, name, "on_true_tile")
    if not isinstance(cmp_op, nl.Op) or cmp_op.name not in _AFFINE_CMP:
        fail("%s: cmp_op must be an nl comparison (%s), not %r%s" %
             (name, ", ".join("nl." + c for c in _AFFINE_CMP), cmp_op,
              cite("affine_select")))
    if isinstance(on_false_value, (bool, np.bool_)) or not isinstance(
            on_false_value, (float, np.floating)):
        fail("%s: on_false_value must be a float32 scalar, not %r%s" %
             (name, on_false_value, cite("affine_select")))
    vals = _affine_values(dst, pattern, offset, channel_multiplier, name)
    pred = getattr(np, cmp_op.name)(vals, 0).reshape(dst.shape)
    _store(dst, np.where(pred, on_true_tile.data,
                         np.float32(on_false_value)))


# Keep the error type reachable as nisa.NKISimError for callers' except.
NKISimError = NKISimError


def _affine_values(dst, pattern, offset, channel_multiplier, name):
    """offset + p * channel_multiplier + sum of step * i over pattern =
    [[step, num], ...] (1 to 4 pairs, outermost first) for every partition p
    of dst and every element of the pattern, in 32-bit integers: the values
    of iota and the predicate of affine_select (their pages define both the
    same way)."""
    if not isinstance(pattern, (list, tuple)) or not 1 <= len(pattern) <= 4:
        fail("%s: pattern must be a list of 1 to 4 [step, num] pairs, not "
             "%r%s" % (name, pattern, cite(name)))
    steps, nums = [], []
    for pair in pattern:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            fail("%s: each pattern entry must be a [step, num] pair, not "
                 "%r%s" % (name, pair, cite(name)))
        steps.append(_int_arg(pair[0], name, "a pattern step"))
        n = _int_arg(pair[1], name, "a pattern size")
        if n < 1:
            fail("%s: a pattern size must be positive, not %d" % (name, n))
        nums.append(n)
    offset = _int_arg(offset, name, "offset")
    mult = _int_arg(channel_multiplier, name, "channel_multiplier")
    per = int(np.prod(dst.shape[1:])) if dst.ndim > 1 else 1
    if int(np.prod(nums)) != per:
        fail("%s: the pattern generates %d elements per partition but dst "
             "%s holds %d%s" % (name, int(np.prod(nums)), list(dst.shape),
                                per, cite(name)))
    p = dst.shape[0]
    vals = np.full((p,) + tuple(nums), offset, dtype=np.int64)
    vals += (np.arange(p, dtype=np.int64) * mult).reshape(
        (p,) + (1,) * len(nums))
    for k, (st, n) in enumerate(zip(steps, nums)):
        shape = [1] * (len(nums) + 1)
        shape[k + 1] = n
        vals = vals + (np.arange(n, dtype=np.int64) * st).reshape(shape)
    if vals.size and (vals.min() < -2**31 or vals.max() > 2**31 - 1):
        fail("%s: generated values leave the 32-bit integer range the "
             "index arithmetic is computed in%s" % (name, cite(name)))
    return vals


def _int_arg(x, name, arg):
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        fail("%s: %s must be an integer, not %r%s" %
             (name, arg, x, cite("iota")))
    return int(x)


def iota(dst, pattern, offset, channel_multiplier=0, **kwargs):
    """dst[p, w, z, y, x] = offset + p * channel_multiplier + w * step_w +
    z * step_z + y * step_y + x * step_x, with pattern [[step_w, num_w],
    ..., [step_x, num_x]] (up to 4 pairs, the missing outer ones of size
    1): the values are computed in 32-bit integer arithmetic and converted
    to dst's dtype; dst is in SBUF and holds num_w * ... * num_x elements
    per partition."""
    _core.count_op("iota")
    name = "iota"
    _tensor(dst, name, "dst")
    if dst.buffer is not sbuf:
        fail("%s: dst is in %s; iota writes SBUF%s" %
             (name, dst.buffer.name, cite("iota")))
    _on_chip(dst, name, "dst")
    vals = _affine_values(dst, pattern, offset, channel_multiplier, name)
    _store(dst, vals.reshape(dst.shape))

