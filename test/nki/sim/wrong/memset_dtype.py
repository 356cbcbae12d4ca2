"""memset fills a tile with a constant of the tile's dtype: a float into an
int32 tile is rejected (the simulator would otherwise truncate it).
https://awsdocs-neuron.readthedocs-hosted.com/general/nki/api/generated/nki.isa.memset.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["memset: value 1.5 is a float but dst is int32",
          "[NKI docs: nki.isa.memset]"]


def args():
    return ()


def reference():
    return np.ones((4, 8), dtype=np.int32)


def _kernel(value):
    out = nl.ndarray((4, 8), dtype=nl.int32, buffer=nl.shared_hbm)
    t = nl.ndarray((4, 8), dtype=nl.int32, buffer=nl.sbuf)
    nisa.memset(dst=t, value=value)
    nisa.dma_copy(dst=out, src=t)
    return out


@nki.jit
def wrong():
    return _kernel(1.5)


@nki.jit
def right():
    return _kernel(1)
