"""One SBUF tile larger than a partition's share of SBUF: 200,000 bytes per
partition exceed trn1's 192 KiB (24 MiB / 128) but fit trn2's 224 KiB
(28 MiB / 128).  The right twin is the same kernel on trn2.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/neuron-core-v3.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["nl.ndarray: a SBUF tile of 200000 bytes per partition exceeds "
          "the 192 KiB per partition of SBUF on trn1",
          "[NKI docs: Trainium memory hierarchy"]
WRONG_TARGET = "trn1"
RIGHT_TARGET = "trn2"


def args():
    return ()


def reference():
    return np.full((2, 4), 3.0, dtype=np.float32)


@nki.jit
def wrong():
    out = nl.ndarray((2, 4), dtype=nl.float32, buffer=nl.shared_hbm)
    big = nl.ndarray((2, 50000), dtype=nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=big, value=3.0)
    nisa.dma_copy(dst=out, src=big[0:2, 0:4])
    return out


right = wrong
