# Hand-written NKI output for corpus/rmsnorm (the form the NKI target emits):
# half rows, one row per partition; the row count is the launch's grid_x.
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def rmsnorm_f16(in_, weight, cols, eps, grid_x):
    rows = grid_x
    out = nl.ndarray((rows, cols), dtype=nl.float16, buffer=nl.shared_hbm)
    for r0 in range(0, rows, nl.tile_size.pmax):
        p = min(nl.tile_size.pmax, rows - r0)
        x = nl.ndarray((p, cols), dtype=nl.float32, buffer=nl.sbuf)
        nisa.dma_copy(dst=x, src=in_[r0:r0 + p, :])
        w = nl.ndarray((p, cols), dtype=nl.float32, buffer=nl.sbuf)
        for r in range(p):
            nisa.dma_copy(dst=w[r:r + 1, :], src=weight.reshape((1, cols)))
        sq = nl.ndarray((p, cols), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(dst=sq, op=nl.square, data=x)
        ss = nl.ndarray((p, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(dst=ss, op=nl.add, data=sq, axis=1, keepdims=True)
        rstd = nl.ndarray((p, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=rstd, data=ss, op0=nl.multiply,
                           operand0=1.0 / cols, op1=nl.add, operand1=eps)
        nisa.activation(dst=rstd, op=nl.rsqrt, data=rstd)
        y = nl.ndarray((p, cols), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=y, data=x, op0=nl.multiply, operand0=rstd)
        nisa.tensor_tensor(dst=y, data1=y, data2=w, op=nl.multiply)
        o = nl.ndarray((p, cols), dtype=nl.float16, buffer=nl.sbuf)
        nisa.tensor_copy(dst=o, src=y)
        nisa.dma_copy(dst=out[r0:r0 + p, :], src=o)
    return out


# port-kernel calling convention (read by `port-kernel validate` and by callers)
PK_KERNELS = {
  "rmsnorm_f16": {
    "params": [
      {"name": "out", "kind": "tensor", "dtype": "float16", "shape": ["grid_x", "cols"], "role": "out"},
      {"name": "in", "kind": "tensor", "dtype": "float16", "shape": ["grid_x", "cols"], "role": "in"},
      {"name": "weight", "kind": "tensor", "dtype": "float32", "shape": ["cols"], "role": "in"},
      {"name": "cols", "kind": "scalar", "dtype": "int32"},
      {"name": "eps", "kind": "scalar", "dtype": "float32"},
    ],
    "launch": ["grid_x"],
  },
}
