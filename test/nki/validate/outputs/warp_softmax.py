# Hand-written NKI output for corpus/warp_softmax (the form the NKI target emits).
# Row softmax: one row per partition, 128 rows per tile; max and sum with
# tensor_reduce over the free axis.
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def softmax_warp_per_row(in_, rows, cols):
    out = nl.ndarray((rows, cols), dtype=nl.float32, buffer=nl.shared_hbm)
    for r0 in range(0, rows, nl.tile_size.pmax):
        p = min(nl.tile_size.pmax, rows - r0)
        t = nl.ndarray((p, cols), dtype=nl.float32, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=in_[r0:r0 + p, :])
        mx = nl.ndarray((p, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(dst=mx, op=nl.maximum, data=t, axis=1,
                           keepdims=True)
        neg = nl.ndarray((p, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=neg, data=mx, op0=nl.multiply, operand0=-1.0)
        e = nl.ndarray((p, cols), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(dst=e, op=nl.exp, data=t, bias=neg)
        s = nl.ndarray((p, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(dst=s, op=nl.add, data=e, axis=1, keepdims=True)
        r = nl.ndarray((p, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.reciprocal(dst=r, data=s)
        o = nl.ndarray((p, cols), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=o, data=e, op0=nl.multiply, operand0=r)
        nisa.dma_copy(dst=out[r0:r0 + p, :], src=o)
    return out


# port-kernel calling convention (read by `port-kernel validate` and by callers)
PK_KERNELS = {
  "softmax_warp_per_row": {
    "params": [
      {"name": "in", "kind": "tensor", "dtype": "float32", "shape": ["rows", "cols"], "role": "in"},
      {"name": "out", "kind": "tensor", "dtype": "float32", "shape": ["rows", "cols"], "role": "out"},
      {"name": "rows", "kind": "scalar", "dtype": "int32"},
      {"name": "cols", "kind": "scalar", "dtype": "int32"},
    ],
    "launch": [],
  },
}
