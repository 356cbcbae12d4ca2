# A wrong NKI output for corpus/saxpy: the ragged tail is not scaled by a
# (validate must report a mismatch).
# y = a * x + y over n elements: rows of 512 elements, 128 rows per tile, and
# a ragged tail of fewer than 512 elements as a one-partition tile.
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def saxpy(y, x, a, n):
    y_out = nl.ndarray((n,), dtype=nl.float32, buffer=nl.shared_hbm)
    F = 512
    full = n // F
    for r0 in range(0, full, nl.tile_size.pmax):
        rows = min(nl.tile_size.pmax, full - r0)
        lo, hi = r0 * F, (r0 + rows) * F
        tx = nl.ndarray((rows, F), dtype=nl.float32, buffer=nl.sbuf)
        ty = nl.ndarray((rows, F), dtype=nl.float32, buffer=nl.sbuf)
        nisa.dma_copy(dst=tx, src=x[lo:hi].reshape((rows, F)))
        nisa.dma_copy(dst=ty, src=y[lo:hi].reshape((rows, F)))
        nisa.tensor_scalar(dst=tx, data=tx, op0=nl.multiply, operand0=a)
        nisa.tensor_tensor(dst=ty, data1=ty, data2=tx, op=nl.add)
        nisa.dma_copy(dst=y_out[lo:hi].reshape((rows, F)), src=ty)
    tail = n - full * F
    if tail > 0:
        lo = full * F
        tx = nl.ndarray((1, tail), dtype=nl.float32, buffer=nl.sbuf)
        ty = nl.ndarray((1, tail), dtype=nl.float32, buffer=nl.sbuf)
        nisa.dma_copy(dst=tx, src=x[lo:n].reshape((1, tail)))
        nisa.dma_copy(dst=ty, src=y[lo:n].reshape((1, tail)))
        nisa.tensor_tensor(dst=ty, data1=ty, data2=tx, op=nl.add)
        nisa.dma_copy(dst=y_out[lo:n].reshape((1, tail)), src=ty)
    return y_out


# port-kernel calling convention (read by `port-kernel validate` and by callers)
PK_KERNELS = {
  "saxpy": {
    "params": [
      {"name": "y", "kind": "tensor", "dtype": "float32", "shape": ["n"], "role": "inout"},
      {"name": "x", "kind": "tensor", "dtype": "float32", "shape": ["n"], "role": "in"},
      {"name": "a", "kind": "scalar", "dtype": "float32"},
      {"name": "n", "kind": "scalar", "dtype": "int32"},
    ],
    "launch": [],
  },
}
