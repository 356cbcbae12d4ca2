"""A transpose from PSUM to PSUM runs on the Vector Engine (at most
32 x 32); a 128 x 128 transpose reads SBUF and writes PSUM on the Tensor
Engine.
https://awsdocs-neuron.readthedocs-hosted.com/general/nki/api/generated/nki.isa.nc_transpose.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["nc_transpose: a 128 x 128 transpose from psum to psum",
          "exceeds the Vector Engine's 32 x 32",
          "[NKI docs: nki.isa.nc_transpose]"]


def args():
    return (np.arange(128 * 128, dtype=np.float32).reshape(128, 128),)


def reference(x):
    return x.T


def _kernel(x, src_buffer):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    src = a
    if src_buffer is nl.psum:
        src = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)
        nisa.tensor_copy(dst=src, src=a)
    t = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(dst=t, data=src)
    r = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=r, src=t)
    nisa.dma_copy(dst=out, src=r)
    return out


@nki.jit
def wrong(x):
    return _kernel(x, nl.psum)


@nki.jit
def right(x):
    return _kernel(x, nl.sbuf)
