# C = alpha * A @ B + beta * C with A [M, K], B [K, N], C [M, N] (row major).
# Output tiles of 128 x 512 in PSUM; K tiled to 128: A's tile is transposed
# on the tensor engine (nc_transpose) to become the stationary operand.
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def sgemm_tiled(A, B, C, M, N, K, alpha, beta):
    C_out = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    TM, TN, TK = 128, 512, 128
    for m0 in range(0, M, TM):
        m = min(TM, M - m0)
        for n0 in range(0, N, TN):
            n = min(TN, N - n0)
            acc = nl.ndarray((m, n), dtype=nl.float32, buffer=nl.psum)
            for k0 in range(0, K, TK):
                k = min(TK, K - k0)
                a = nl.ndarray((m, k), dtype=nl.float32, buffer=nl.sbuf)
                nisa.dma_copy(dst=a, src=A[m0:m0 + m, k0:k0 + k])
                at_p = nl.ndarray((k, m), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_transpose(dst=at_p, data=a)
                at = nl.ndarray((k, m), dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_copy(dst=at, src=at_p)
                b = nl.ndarray((k, n), dtype=nl.float32, buffer=nl.sbuf)
                nisa.dma_copy(dst=b, src=B[k0:k0 + k, n0:n0 + n])
                nisa.nc_matmul(dst=acc, stationary=at, moving=b)
            res = nl.ndarray((m, n), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_copy(dst=res, src=acc)
            c = nl.ndarray((m, n), dtype=nl.float32, buffer=nl.sbuf)
            nisa.dma_copy(dst=c, src=C[m0:m0 + m, n0:n0 + n])
            nisa.tensor_scalar(dst=c, data=c, op0=nl.multiply, operand0=beta)
            nisa.tensor_scalar(dst=res, data=res, op0=nl.multiply,
                               operand0=alpha)
            nisa.tensor_tensor(dst=res, data1=res, data2=c, op=nl.add)
            nisa.dma_copy(dst=C_out[m0:m0 + m, n0:n0 + n], src=res)
    return C_out


# port-kernel calling convention (read by `port-kernel validate` and by callers)
PK_KERNELS = {
  "sgemm_tiled": {
    "params": [
      {"name": "A", "kind": "tensor", "dtype": "float32", "shape": ["M", "K"], "role": "in"},
      {"name": "B", "kind": "tensor", "dtype": "float32", "shape": ["K", "N"], "role": "in"},
      {"name": "C", "kind": "tensor", "dtype": "float32", "shape": ["M", "N"], "role": "inout"},
      {"name": "M", "kind": "scalar", "dtype": "int32"},
      {"name": "N", "kind": "scalar", "dtype": "int32"},
      {"name": "K", "kind": "scalar", "dtype": "int32"},
      {"name": "alpha", "kind": "scalar", "dtype": "float32"},
      {"name": "beta", "kind": "scalar", "dtype": "float32"},
    ],
    "launch": [],
  },
}
