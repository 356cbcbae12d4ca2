"""nc_transpose writes its input's dtype: a bf16 tile transposed into a
float32 PSUM tile is rejected.
https://awsdocs-neuron.readthedocs-hosted.com/general/nki/api/generated/nki.isa.nc_transpose.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["nc_transpose: dst is float32 but data is bfloat16",
          "dtype of its input", "[NKI docs: nki.isa.nc_transpose]"]


def args():
    # Values that bfloat16 holds exactly.
    x = (np.arange(64 * 32) % 256).astype(np.float32) / 4
    return (x.reshape(64, 32),)


def reference(x):
    return x.T


def _kernel(x, psum_dtype):
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.ndarray((64, 32), dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    t = nl.ndarray((32, 64), dtype=psum_dtype, buffer=nl.psum)
    nisa.nc_transpose(dst=t, data=a)
    r = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=t)
    nisa.dma_copy(dst=out, src=r)
    return out


@nki.jit
def wrong(x):
    return _kernel(x, nl.float32)


@nki.jit
def right(x):
    return _kernel(x, nl.bfloat16)
