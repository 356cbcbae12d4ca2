"""The two operators of one tensor_scalar are both bitvec or both
arithmetic: (x + 3) & 0xFF is two instructions.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/generated/nki.isa.tensor_scalar.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["tensor_scalar: op0 nl.add and op1 nl.bitwise_and mix a bitvec "
          "and an arithmetic operator", "[NKI docs: nki.isa.tensor_scalar]"]


def args():
    return (np.arange(4 * 8, dtype=np.int32).reshape(4, 8) * 37,)


def reference(x):
    return (x + 3) & 0xFF


@nki.jit
def wrong(x):
    out = nl.ndarray((4, 8), dtype=nl.int32, buffer=nl.shared_hbm)
    t = nl.ndarray((4, 8), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=3,
                       op1=nl.bitwise_and, operand1=0xFF)
    nisa.dma_copy(dst=out, src=t)
    return out


@nki.jit
def right(x):
    out = nl.ndarray((4, 8), dtype=nl.int32, buffer=nl.shared_hbm)
    t = nl.ndarray((4, 8), dtype=nl.int32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x)
    nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=3)
    nisa.tensor_scalar(dst=t, data=t, op0=nl.bitwise_and, operand0=0xFF)
    nisa.dma_copy(dst=out, src=t)
    return out
