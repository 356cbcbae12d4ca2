"""tensor_reduce reduces the last free axes: axis=1 of a [P, A, B] tile
(leaving the last axis) is rejected; axis=2 is the right form.
https://awsdocs-neuron.readthedocs-hosted.com/en/v2.31.0/nki/api/generated/nki.isa.tensor_reduce.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["tensor_reduce: axis 1 of a rank-3 tile: the reduction axes must "
          "be consecutive free axes ending at the last one (axis=2)",
          "[NKI docs: nki.isa.tensor_reduce]"]


def args():
    return (np.arange(4 * 3 * 5, dtype=np.float32).reshape(4, 3, 5),)


def reference(x):
    return x.sum(axis=2)


@nki.jit
def wrong(x):
    out = nl.ndarray((4, 5), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((4, 3, 5), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    r = nl.ndarray((4, 5), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_reduce(dst=r, op=nl.add, data=t, axis=1)
    nisa.dma_copy(dst=out, src=r)
    return out


@nki.jit
def right(x):
    out = nl.ndarray((4, 3), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((4, 3, 5), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    r = nl.ndarray((4, 3), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_reduce(dst=r, op=nl.add, data=t, axis=2)
    nisa.dma_copy(dst=out, src=r)
    return out
