# An NKI output for corpus/saxpy that never finishes (validate's --timeout
# must stop it and report a timeout).
import time

import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def saxpy(y, x, a, n):
    time.sleep(3600)
    return nl.ndarray((n,), dtype=nl.float32, buffer=nl.shared_hbm)


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
