# Rules: none (NKI simulator)
"""Shared state of the NumPy NKI simulator: dtypes, buffers, tensors, errors.

The simulator executes every NKI call eagerly, in program order, on NumPy
arrays.  See docs/nki.md, "The simulator", for what it models and what not.
"""

import os
import sys
import weakref

import numpy as np

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))

# Hardware limits (nl.tile_size in the real package).
PMAX = 128  # partitions
PSUM_BANK_BYTES = 2048  # one PSUM bank per partition: 512 fp32
PSUM_FMAX = PSUM_BANK_BYTES // 4
GEMM_STATIONARY_FMAX = 128
GEMM_MOVING_FMAX = 512
# The Vector Engine transposes at most 32 x 32 (nki.isa.nc_transpose).
VECTOR_TRANSPOSE_MAX = 32

# On-chip capacity per partition, by generation (docs/nki.md, "Rules and
# where they come from"): SBUF 24 MiB on NeuronCore-v2 (trn1), 28 MiB on
# v3 (trn2), 32 MiB on v4 (trn3), over 128 partitions; PSUM 2 MiB (16 KiB
# per partition) on all three.
SBUF_PARTITION_BYTES = {"trn1": 192 * 1024, "trn2": 224 * 1024,
                        "trn3": 256 * 1024}
PSUM_PARTITION_BYTES = 16 * 1024
DEFAULT_TARGET = "trn1"  # the smallest SBUF: a kernel that fits runs on all

# Short references to the documentation pages the rules come from (the
# full addresses are listed in docs/nki.md).
DOC = {
    "transpose": "nki.isa.nc_transpose",
    "tensor_tensor": "nki.isa.tensor_tensor",
    "tensor_scalar": "nki.isa.tensor_scalar",
    "tensor_reduce": "nki.isa.tensor_reduce",
    "tensor_copy": "nki.isa.tensor_copy",
    "memset": "nki.isa.memset",
    "iota": "nki.isa.iota",
    "affine_select": "nki.isa.affine_select",
    "shared_hbm": "nki.language.shared_hbm",
    "memory": "Trainium memory hierarchy / NeuronCore architecture",
    "indexing": "Tensor Indexing on NKI",
    "shuffle": "nki.isa.nc_stream_shuffle (cross-partition data movement)",
}


def cite(key):
    """The short citation appended to an error message."""
    return " [NKI docs: %s]" % DOC[key]


class NKISimError(Exception):
    """An NKI program violated a rule of the hardware or of the API.

    The message names the kernel line that made the call:
    ``kernel.py:12: error: partition dimension 256 exceeds maximum 128``.
    """

    def __init__(self, message, where=None):
        self.bare = message
        self.where = where if where is not None else caller_location()
        if self.where:
            message = "%s:%d: error: %s" % (self.where[0], self.where[1],
                                            message)
        super().__init__(message)


def caller_location():
    """(file, line) of the innermost frame outside this package, if any."""
    f = sys._getframe(1)
    while f is not None:
        fn = os.path.abspath(f.f_code.co_filename)
        if os.path.dirname(fn) != _PKG_DIR:
            return (f.f_code.co_filename, f.f_lineno)
        f = f.f_back
    return None


def fail(message):
    raise NKISimError(message)


# ---------------------------------------------------------------------------
# Operation count.


class _State:
    ops = 0
    ops_by_name = {}
    target = DEFAULT_TARGET
    # Bytes per partition of the live on-chip allocations, and the
    # generation of the accounting (allocations of an earlier run that die
    # later do not count against this one).
    live = {"sbuf": 0, "psum": 0}
    epoch = 0
    refs = {}


def count_op(name):
    _State.ops += 1
    _State.ops_by_name[name] = _State.ops_by_name.get(name, 0) + 1


def reset_ops():
    _State.ops = 0
    _State.ops_by_name = {}
    _State.epoch += 1
    _State.live = {"sbuf": 0, "psum": 0}
    _State.refs = {}


def set_target(target):
    """Selects the generation whose capacities apply (trn1, trn2, trn3)."""
    if target is None:
        target = os.environ.get("PK_NKI_TARGET") or DEFAULT_TARGET
    if target not in SBUF_PARTITION_BYTES:
        raise ValueError("unknown NKI target %r (trn1, trn2 or trn3)" %
                         (target,))
    _State.target = target


def capacity(buffer_name):
    if buffer_name == "psum":
        return PSUM_PARTITION_BYTES
    return SBUF_PARTITION_BYTES[_State.target]


def _track(data, buffer_name, nbytes, what):
    """Counts a new on-chip allocation of \p nbytes per partition as live
    until its NumPy storage is freed; fails when the live total of its
    buffer would exceed the capacity of the target."""
    cap = capacity(buffer_name)
    mem = "SBUF" if buffer_name == "sbuf" else "PSUM"
    if nbytes > cap:
        fail("%s: a %s tile of %d bytes per partition exceeds the %d KiB "
             "per partition of %s on %s%s" %
             (what, mem, nbytes, cap // 1024, mem, _State.target,
              cite("memory")))
    live = _State.live[buffer_name]
    if live + nbytes > cap:
        fail("%s: %d bytes per partition of live %s tiles plus this one (%d "
             "bytes) exceed the %d KiB per partition of %s on %s%s" %
             (what, live, mem, nbytes, cap // 1024, mem, _State.target,
              cite("memory")))
    _State.live[buffer_name] = live + nbytes
    epoch = _State.epoch

    def freed(ref):
        if _State.epoch == epoch:
            _State.live[buffer_name] -= nbytes
            _State.refs.pop(id(ref), None)

    ref = weakref.ref(data, freed)
    _State.refs[id(ref)] = ref


# ---------------------------------------------------------------------------
# Dtypes.


class DType:
    """An NKI dtype: its name, the NumPy array that holds its values, its
    size in bytes.  bfloat16 values live in float32 arrays, already rounded."""

    def __init__(self, name, storage, itemsize, kind):
        self.name = name
        self.storage = np.dtype(storage)
        self.itemsize = itemsize
        self.kind = kind  # 'f' floating, 'i' signed, 'u' unsigned

    @property
    def is_float(self):
        return self.kind == "f"

    def __repr__(self):
        return "nl." + self.name

    def __reduce__(self):
        return (dtype_by_name, (self.name,))


float32 = DType("float32", np.float32, 4, "f")
float16 = DType("float16", np.float16, 2, "f")
bfloat16 = DType("bfloat16", np.float32, 2, "f")
int32 = DType("int32", np.int32, 4, "i")
uint32 = DType("uint32", np.uint32, 4, "u")
int16 = DType("int16", np.int16, 2, "i")
uint16 = DType("uint16", np.uint16, 2, "u")
int8 = DType("int8", np.int8, 1, "i")
uint8 = DType("uint8", np.uint8, 1, "u")

_DTYPES = {d.name: d for d in (float32, float16, bfloat16, int32, uint32,
                               int16, uint16, int8, uint8)}

# New allocations: NaN for floating types, these bytes for integer types.
INT_FILL = {1: 0xEF, 2: 0xBEEF, 4: 0xDEADBEEF}


def dtype_by_name(name):
    return _DTYPES[name]


def as_dtype(d, what="dtype"):
    """An NKI dtype from an nl dtype, a NumPy dtype or a name."""
    if isinstance(d, DType):
        return d
    if isinstance(d, str) and d in _DTYPES:
        return _DTYPES[d]
    try:
        nd = np.dtype(d)
    except TypeError:
        fail("%s %r is not an NKI dtype" % (what, d))
    if nd.name in _DTYPES:
        return _DTYPES[nd.name]
    fail("%s %s is not supported (float32, float16, bfloat16 and integer "
         "types are)" % (what, nd.name))


def bf16_round(a):
    """float32 values rounded to the nearest bfloat16 (ties to even); NaN
    stays NaN, overflow becomes infinity."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    bits = a.view(np.uint32)
    lsb = (bits >> np.uint32(16)) & np.uint32(1)
    rounded = (bits + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    out = rounded.view(np.float32).copy()
    nan = np.isnan(a)
    if nan.any():
        out[nan] = np.float32(np.nan)
    return out


def bf16_bits(a):
    """uint16 bit patterns of bfloat16 values held in float32."""
    return (bf16_round(a).view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def bf16_from_bits(b):
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) <<
            np.uint32(16)).view(np.float32)


def convert(values, dtype):
    """Values (any NumPy array) as stored in a tensor of \\p dtype: rounded
    to nearest even for floating types; floating to integer truncates toward
    zero (NaN and out-of-range values saturate)."""
    v = np.asarray(values)
    if dtype.is_float:
        if dtype is bfloat16:
            return bf16_round(v.astype(np.float32))
        with np.errstate(over="ignore", invalid="ignore"):
            return v.astype(dtype.storage)
    if v.dtype.kind == "f":
        info = np.iinfo(dtype.storage)
        v = np.trunc(np.nan_to_num(v.astype(np.float64), nan=0.0))
        v = np.clip(v, info.min, info.max)
    return v.astype(dtype.storage)


# ---------------------------------------------------------------------------
# Buffers.


class Buffer:
    def __init__(self, name, on_chip):
        self.name = name
        self.on_chip = on_chip

    def __repr__(self):
        return "nl." + self.name


hbm = Buffer("hbm", False)
shared_hbm = Buffer("shared_hbm", False)
private_hbm = Buffer("private_hbm", False)
sbuf = Buffer("sbuf", True)
psum = Buffer("psum", True)

_BUFFERS = (hbm, shared_hbm, private_hbm, sbuf, psum)


def is_hbm(t):
    return t.buffer in (hbm, shared_hbm, private_hbm)


# ---------------------------------------------------------------------------
# Tensors.


class DynSlice:
    """nl.ds(start, size): the elements start .. start + size - 1."""

    def __init__(self, start, size):
        self.start = start
        self.size = size

    def __repr__(self):
        return "nl.ds(%r, %r)" % (self.start, self.size)


def _as_int(x, what):
    if isinstance(x, (bool, np.bool_)):
        fail("%s must be an integer, not a bool" % what)
    if isinstance(x, (int, np.integer)):
        return int(x)
    fail("%s must be an integer, not %s (index with Python integers, slices "
         "and nl.ds)" % (what, type(x).__name__))


class Tensor:
    """A tensor in HBM, SBUF or PSUM.  Indexing returns a view that NKI
    operations write through.  For on-chip tensors the first dimension is the
    partition dimension."""

    def __init__(self, data, dtype, buffer, name=None, written=None,
                 poff=0, sliced=False):
        self.data = data  # NumPy view into the allocation
        self.dtype = dtype
        self.buffer = buffer
        self.name = name
        # PSUM only: which elements have been written (accumulate=None).
        self.written = written
        # On-chip only: the first partition of the allocation this view
        # starts at (compute engines work partition by partition).
        self.poff = poff
        # A view made by indexing: indexing it again is nested slicing.
        self.sliced = sliced

    @property
    def shape(self):
        return tuple(self.data.shape)

    @property
    def ndim(self):
        return self.data.ndim

    def __len__(self):
        return self.data.shape[0]

    def __repr__(self):
        return "Tensor(%s, shape=%s, dtype=%s, buffer=%s)" % (
            self.name or "?", list(self.shape), self.dtype.name,
            self.buffer.name)

    def __getitem__(self, key):
        if self.sliced:
            fail("nested slicing: %s is already a slice of '%s'; index the "
                 "tensor once, with every axis in one subscript (t[a:b, "
                 "c:d], not t[a:b][c:d])%s" %
                 (list(self.shape), self.name or "?", cite("indexing")))
        if not isinstance(key, tuple):
            key = (key,)
        if len(key) > self.ndim:
            fail("too many indices: %d for a tensor of rank %d (shape %s)" %
                 (len(key), self.ndim, list(self.shape)))
        np_key = []
        for axis, k in enumerate(key):
            size = self.data.shape[axis]
            if isinstance(k, DynSlice):
                start = _as_int(k.start, "nl.ds start")
                n = _as_int(k.size, "nl.ds size")
                if n <= 0:
                    fail("nl.ds(%d, %d) on axis %d is empty" % (start, n, axis))
                if start < 0 or start + n > size:
                    fail("nl.ds(%d, %d) is out of bounds for axis %d of size "
                         "%d (shape %s)" % (start, n, axis, size,
                                            list(self.shape)))
                np_key.append(slice(start, start + n))
            elif isinstance(k, slice):
                if k.step not in (None, 1):
                    fail("slice step %r on axis %d: only unit steps are "
                         "supported" % (k.step, axis))
                start = 0 if k.start is None else _as_int(k.start,
                                                          "slice start")
                stop = size if k.stop is None else _as_int(k.stop,
                                                           "slice stop")
                if start < 0 or stop > size or start >= stop:
                    fail("slice %d:%d is %s for axis %d of size %d (shape %s)"
                         % (start, stop,
                            "empty" if start >= stop and 0 <= start and
                            stop <= size else "out of bounds", axis, size,
                            list(self.shape)))
                np_key.append(slice(start, stop))
            else:
                i = _as_int(k, "index")
                if i < 0 or i >= size:
                    fail("index %d is out of bounds for axis %d of size %d "
                         "(shape %s)" % (i, axis, size, list(self.shape)))
                np_key.append(i)
        np_key = tuple(np_key)
        w = self.written[np_key] if self.written is not None else None
        poff = self.poff
        if np_key and self.buffer.on_chip:
            k0 = np_key[0]
            poff += k0.start if isinstance(k0, slice) else k0
        return Tensor(self.data[np_key], self.dtype, self.buffer, self.name, w,
                      poff=poff, sliced=True)

    def __setitem__(self, key, value):
        fail("assignment to a tensor element or slice: write tiles with "
             "nisa operations (dma_copy, tensor_copy, ...) instead")

    def reshape(self, shape):
        """A view with another shape over the same elements (contiguous
        tensors only)."""
        shape = tuple(_as_int(s, "reshape dimension") for s in (
            shape if isinstance(shape, (tuple, list)) else (shape,)))
        n = 1
        for s in shape:
            n *= s
        if n != self.data.size:
            fail("cannot reshape a tensor of shape %s (%d elements) to %s "
                 "(%d elements)" % (list(self.shape), self.data.size,
                                    list(shape), n))
        if not self.data.flags.c_contiguous:
            fail("reshape of a non-contiguous view (shape %s)" %
                 list(self.shape))
        if self.buffer.on_chip and (not shape or shape[0] != self.shape[0]):
            fail("reshape of an on-chip tile from %s to %s changes its "
                 "partition dimension: that moves data across partitions "
                 "(use a DMA or nc_transpose)%s" %
                 (list(self.shape), list(shape), cite("shuffle")))
        w = self.written.reshape(shape) if self.written is not None else None
        return Tensor(self.data.reshape(shape), self.dtype, self.buffer,
                      self.name, w, poff=self.poff, sliced=self.sliced)

    # Arithmetic on tensors is not NKI: make the mistake visible.
    def _no_arith(self, *args):
        fail("Python arithmetic on tensors is not supported: use nisa "
             "operations (tensor_tensor, tensor_scalar, activation)")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _no_arith
    __truediv__ = __rtruediv__ = __neg__ = __iadd__ = _no_arith

    def __bool__(self):
        fail("a tensor has no truth value (control flow on tensor contents "
             "is not traceable)")

    def __array__(self, dtype=None):
        fail("a tensor is not a NumPy array inside a kernel")


def check_tile_shape(shape, buffer, dtype, what):
    if buffer is sbuf or buffer is psum:
        if len(shape) < 1:
            fail("%s: an on-chip tile needs a partition dimension" % what)
        if shape[0] > PMAX:
            fail("%s: partition dimension %d exceeds maximum %d" %
                 (what, shape[0], PMAX))
    if buffer is psum:
        free = 1
        for s in shape[1:]:
            free *= s
        if free * dtype.itemsize > PSUM_BANK_BYTES:
            fail("%s: PSUM tile of %d %s per partition (%d bytes) exceeds "
                 "one 2 KiB bank (at most %d float32)" %
                 (what, free, dtype.name, free * dtype.itemsize, PSUM_FMAX))


def allocate(shape, dtype, buffer, name=None):
    """A new tensor, filled with NaN (integers: a fixed bit pattern)."""
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(_as_int(s, "shape dimension") for s in shape)
    for s in shape:
        if s <= 0:
            fail("shape %s has a dimension that is not positive" %
                 list(shape))
    dtype = as_dtype(dtype)
    if not isinstance(buffer, Buffer):
        fail("buffer must be nl.sbuf, nl.psum, nl.hbm or nl.shared_hbm, not "
             "%r" % (buffer,))
    check_tile_shape(shape, buffer, dtype, "nl.ndarray")
    if dtype.is_float:
        data = np.full(shape, np.nan, dtype=dtype.storage)
    else:
        bits = INT_FILL[dtype.itemsize]
        data = np.full(shape, bits, dtype=np.dtype("u%d" % dtype.itemsize))
        data = data.view(dtype.storage)
    if buffer.on_chip:
        free = 1
        for s in shape[1:]:
            free *= s
        # The storage that every view of the allocation keeps alive.
        owner = data if data.base is None else data.base
        _track(owner, buffer.name, free * dtype.itemsize, "nl.ndarray")
    written = np.zeros(shape, dtype=bool) if buffer is psum else None
    return Tensor(data, dtype, buffer, name, written)


def from_numpy(array, dtype=None, buffer=hbm, name=None):
    """An HBM tensor holding a copy of \\p array (values converted to
    \\p dtype, default: the array's own)."""
    a = np.asarray(array)
    d = as_dtype(dtype if dtype is not None else a.dtype)
    return Tensor(np.array(convert(a, d), copy=True), d, buffer, name)


def to_numpy(t):
    """A copy of a tensor's values (bfloat16 as float32)."""
    return np.array(t.data, copy=True)
