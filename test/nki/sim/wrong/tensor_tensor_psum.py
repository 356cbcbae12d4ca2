"""tensor_tensor reads at most one of its two inputs from PSUM.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/generated/nki.isa.tensor_tensor.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["tensor_tensor: data1 and data2 are both in PSUM",
          "[NKI docs: nki.isa.tensor_tensor]"]


def args():
    return (np.arange(8 * 16, dtype=np.float32).reshape(8, 16),)


def reference(x):
    return 2 * x


def _kernel(x, second):
    out = nl.ndarray((8, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.ndarray((8, 16), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    p1 = nl.ndarray((8, 16), dtype=nl.float32, buffer=nl.psum)
    nisa.tensor_copy(dst=p1, src=a)
    p2 = nl.ndarray((8, 16), dtype=nl.float32, buffer=second)
    nisa.tensor_copy(dst=p2, src=a)
    r = nl.ndarray((8, 16), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=r, data1=p1, data2=p2, op=nl.add)
    nisa.dma_copy(dst=out, src=r)
    return out


@nki.jit
def wrong(x):
    return _kernel(x, nl.psum)


@nki.jit
def right(x):
    return _kernel(x, nl.sbuf)
