"""A transpose from SBUF to SBUF runs on the Vector Engine, which transposes
at most 32 x 32; the Tensor Engine reads SBUF and writes PSUM.
https://awsdocs-neuron.readthedocs-hosted.com/general/nki/api/generated/nki.isa.nc_transpose.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["nc_transpose: a 64 x 64 transpose from sbuf to sbuf",
          "exceeds the Vector Engine's 32 x 32",
          "[NKI docs: nki.isa.nc_transpose]"]


def args():
    return (np.arange(64 * 64, dtype=np.float32).reshape(64, 64),)


def reference(x):
    return x.T


def _kernel(x, n):
    out = nl.ndarray((64, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.ndarray((64, 64), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    t = nl.ndarray((64, 64), dtype=nl.float32, buffer=nl.sbuf)
    # n x n blocks: one 64 x 64 transpose, or four 32 x 32 ones.
    for i in range(0, 64, n):
        for j in range(0, 64, n):
            nisa.nc_transpose(dst=t[j:j + n, i:i + n], data=a[i:i + n, j:j + n])
    nisa.dma_copy(dst=out, src=t)
    return out


@nki.jit
def wrong(x):
    return _kernel(x, 64)


@nki.jit
def right(x):
    return _kernel(x, 32)
