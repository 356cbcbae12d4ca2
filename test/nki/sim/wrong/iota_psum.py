"""iota writes its constant pattern into SBUF (the GpSimd Engine's output):
a PSUM destination is rejected.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/generated/nki.isa.iota.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["iota: dst is in psum; iota writes SBUF", "[NKI docs: nki.isa.iota]"]


def args():
    return ()


def reference():
    return np.tile(np.arange(3, 11, dtype=np.float32), (4, 1))


def _kernel(buffer):
    out = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((4, 8), dtype=nl.float32, buffer=buffer)
    nisa.iota(dst=t, pattern=[[1, 8]], offset=3)
    s = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_copy(dst=s, src=t)
    nisa.dma_copy(dst=out, src=s)
    return out


@nki.jit
def wrong():
    return _kernel(nl.psum)


@nki.jit
def right():
    return _kernel(nl.sbuf)
