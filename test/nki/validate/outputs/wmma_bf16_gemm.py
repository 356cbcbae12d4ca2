# Hand-written NKI output for corpus/wmma_bf16_gemm (the form the NKI target
# emits): C = alpha * A @ Bt.T with bf16 A [M, K] and Bt [N, K]; both tiles
# are transposed on the tensor engine so that K is the partition axis (a
# transpose keeps its input's dtype: bf16 PSUM tiles).
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def wmma_bf16_gemm(A, Bt, M, N, K, alpha):
    C = nl.ndarray((M, N), dtype=nl.float32, buffer=nl.shared_hbm)
    for m0 in range(0, M, 128):
        m = min(128, M - m0)
        for n0 in range(0, N, 128):
            n = min(128, N - n0)
            acc = nl.ndarray((m, n), dtype=nl.float32, buffer=nl.psum)
            for k0 in range(0, K, 128):
                k = min(128, K - k0)
                a = nl.ndarray((m, k), dtype=nl.bfloat16, buffer=nl.sbuf)
                nisa.dma_copy(dst=a, src=A[m0:m0 + m, k0:k0 + k])
                b = nl.ndarray((n, k), dtype=nl.bfloat16, buffer=nl.sbuf)
                nisa.dma_copy(dst=b, src=Bt[n0:n0 + n, k0:k0 + k])
                at_p = nl.ndarray((k, m), dtype=nl.bfloat16, buffer=nl.psum)
                nisa.nc_transpose(dst=at_p, data=a)
                at = nl.ndarray((k, m), dtype=nl.bfloat16, buffer=nl.sbuf)
                nisa.tensor_copy(dst=at, src=at_p)
                bt_p = nl.ndarray((k, n), dtype=nl.bfloat16, buffer=nl.psum)
                nisa.nc_transpose(dst=bt_p, data=b)
                bt = nl.ndarray((k, n), dtype=nl.bfloat16, buffer=nl.sbuf)
                nisa.tensor_copy(dst=bt, src=bt_p)
                nisa.nc_matmul(dst=acc, stationary=at, moving=bt)
            res = nl.ndarray((m, n), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(dst=res, data=acc, op0=nl.multiply,
                               operand0=alpha)
            nisa.dma_copy(dst=C[m0:m0 + m, n0:n0 + n], src=res)
    return C


# port-kernel calling convention (read by `port-kernel validate` and by callers)
PK_KERNELS = {
  "wmma_bf16_gemm": {
    "params": [
      {"name": "A", "kind": "tensor", "dtype": "bfloat16", "shape": ["M", "K"], "role": "in"},
      {"name": "Bt", "kind": "tensor", "dtype": "bfloat16", "shape": ["N", "K"], "role": "in"},
      {"name": "C", "kind": "tensor", "dtype": "float32", "shape": ["M", "N"], "role": "out"},
      {"name": "M", "kind": "scalar", "dtype": "int32"},
      {"name": "N", "kind": "scalar", "dtype": "int32"},
      {"name": "K", "kind": "scalar", "dtype": "int32"},
      {"name": "alpha", "kind": "scalar", "dtype": "float32"},
    ],
    "launch": [],
  },
}
