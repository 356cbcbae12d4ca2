"""A slice is indexed once, with every axis in one subscript: t[a:b][c:d]
(slicing a slice) is rejected.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/about/indexing-overview.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["nested slicing: [64, 16] is already a slice of",
          "[NKI docs: Tensor Indexing on NKI]"]


def args():
    return (np.arange(128 * 16, dtype=np.float32).reshape(128, 16),)


def reference(x):
    return x[64:96, 0:8]


@nki.jit
def wrong(x):
    out = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x[64:128][0:32, 0:8])
    nisa.dma_copy(dst=out, src=t)
    return out


@nki.jit
def right(x):
    out = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x[64:96, 0:8])
    nisa.dma_copy(dst=out, src=t)
    return out
