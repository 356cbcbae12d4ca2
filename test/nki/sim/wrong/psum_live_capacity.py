"""PSUM holds 16 KiB per partition (2 MiB, eight 2 KiB banks): nine live
accumulators of one bank each do not fit; eight do.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/about/memory-hierarchy-overview.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["nl.ndarray: 16384 bytes per partition of live PSUM tiles plus "
          "this one (2048 bytes) exceed the 16 KiB per partition of PSUM",
          "[NKI docs: Trainium memory hierarchy"]


def args():
    return ()


def reference():
    return np.zeros((1, 4), dtype=np.float32)


def _kernel(n):
    out = nl.ndarray((1, 4), dtype=nl.float32, buffer=nl.shared_hbm)
    accs = [nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
            for _ in range(n)]
    r = nl.ndarray((1, 4), dtype=nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=r, value=0.0)
    for acc in accs:
        nisa.memset(dst=acc, value=0.0)
    nisa.dma_copy(dst=out, src=r)
    return out


@nki.jit
def wrong():
    return _kernel(9)


@nki.jit
def right():
    return _kernel(8)
