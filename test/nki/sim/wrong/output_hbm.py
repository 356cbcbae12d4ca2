"""Kernel outputs are allocated with buffer=nl.shared_hbm; an nl.hbm tensor
is not a kernel output.
https://awsdocs-neuron.readthedocs-hosted.com/general/nki/api/generated/nki.language.shared_hbm.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["the kernel returned a tensor in nl.hbm",
          "allocated with buffer=nl.shared_hbm",
          "[NKI docs: nki.language.shared_hbm]"]
# The error is raised when the kernel returns: it names no kernel line.
NO_LINE = True


def args():
    return (np.arange(4 * 8, dtype=np.float32).reshape(4, 8),)


def reference(x):
    return x


def _kernel(x, buffer):
    out = nl.ndarray((4, 8), dtype=nl.float32, buffer=buffer)
    t = nl.ndarray((4, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    nisa.dma_copy(dst=out, src=t)
    return out


@nki.jit
def wrong(x):
    return _kernel(x, nl.hbm)


@nki.jit
def right(x):
    return _kernel(x, nl.shared_hbm)
