"""Integer arithmetic on the compute engines runs in float32: an int32
2**24 + 1 plus 0 comes back as 2**24, and a kernel relying on exact 32-bit
integer adds computes wrong values.  Bitvec operators see the bits:
right_shift is logical, -8 >> 1 is 0x7FFFFFFC.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/generated/nki.isa.tensor_tensor.html
(arithmetic operators: inputs cast to float32; bitvec operators: bit
patterns without casting)
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl


def args():
    return (np.array([[2**24 + 1, -8, 7, 2**31 - 1]], dtype=np.int32),)


def exact(x):
    """What exact integer arithmetic would give (x + 0, x >> 1 signed)."""
    return x + 0, x >> 1


def hardware(x):
    """What the engines give: float32 adds, logical shifts."""
    add = x.astype(np.float32).astype(np.float64)
    add = np.clip(add, -2**31, 2**31 - 1).astype(np.int32)
    shr = (x.view(np.uint32) >> np.uint32(1)).view(np.int32)
    return add, shr


@nki.jit
def kernel(x):
    add = nl.ndarray((1, 4), dtype=nl.int32, buffer=nl.shared_hbm)
    shr = nl.ndarray((1, 4), dtype=nl.int32, buffer=nl.shared_hbm)
    t = nl.ndarray((1, 4), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    zero = nl.ndarray((1, 4), dtype=nl.int32, buffer=nl.sbuf)
    nisa.memset(dst=zero, value=0)
    r = nl.ndarray((1, 4), dtype=nl.int32, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=r, data1=t, data2=zero, op=nl.add)
    nisa.dma_copy(dst=add, src=r)
    nisa.tensor_scalar(dst=r, data=t, op0=nl.right_shift, operand0=1)
    nisa.dma_copy(dst=shr, src=r)
    return add, shr
