"""Compute engines work partition by partition: a tensor_copy from
partitions 64..127 to partitions 0..63 moves data across partitions and is
rejected; a DMA may do it.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/generated/nki.isa.nc_stream_shuffle.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["tensor_copy: src starts at partition 64 but dst at partition 0",
          "cannot move data across partitions",
          "[NKI docs: nki.isa.nc_stream_shuffle"]


def args():
    return (np.arange(128 * 4, dtype=np.float32).reshape(128, 4),)


def reference(x):
    return x[64:128]


def _kernel(x, move):
    out = nl.ndarray((64, 4), dtype=nl.float32, buffer=nl.shared_hbm)
    a = nl.ndarray((128, 4), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=a, src=x)
    b = nl.ndarray((64, 4), dtype=nl.float32, buffer=nl.sbuf)
    move(dst=b, src=a[64:128, 0:4])
    nisa.dma_copy(dst=out, src=b)
    return out


@nki.jit
def wrong(x):
    return _kernel(x, nisa.tensor_copy)


@nki.jit
def right(x):
    return _kernel(x, nisa.dma_copy)
