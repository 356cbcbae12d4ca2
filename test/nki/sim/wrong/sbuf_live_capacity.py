"""Tiles alive at the same time share a partition's SBUF: two tiles of
100 KiB per partition exceed trn1's 192 KiB; two of 90 KiB fit.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/about/memory-hierarchy-overview.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["nl.ndarray: 102400 bytes per partition of live SBUF tiles plus "
          "this one (102400 bytes) exceed the 192 KiB per partition of SBUF "
          "on trn1", "[NKI docs: Trainium memory hierarchy"]


def args():
    return ()


def reference():
    return np.full((1, 4), 3.0, dtype=np.float32)


def _kernel(kib):
    out = nl.ndarray((1, 4), dtype=nl.float32, buffer=nl.shared_hbm)
    n = kib * 1024 // 4
    a = nl.ndarray((1, n), dtype=nl.float32, buffer=nl.sbuf)
    b = nl.ndarray((1, n), dtype=nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=a, value=1.0)
    nisa.memset(dst=b, value=2.0)
    nisa.tensor_tensor(dst=a, data1=a, data2=b, op=nl.add)
    nisa.dma_copy(dst=out, src=a[0:1, 0:4])
    return out


@nki.jit
def wrong():
    return _kernel(100)


@nki.jit
def right():
    return _kernel(90)
