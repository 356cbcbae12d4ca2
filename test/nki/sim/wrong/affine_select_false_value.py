"""affine_select's on_false_value is a float32 scalar (the data type of
on_false_value must be float32, whatever the tiles' types): a tile, or an
integer, is rejected.  The twin masks the upper triangle with a float.
https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/generated/nki.isa.affine_select.html
"""
import numpy as np

import nki
import nki.isa as nisa
import nki.language as nl

EXPECT = ["affine_select: on_false_value must be a float32 scalar",
          "[NKI docs: nki.isa.affine_select]"]


def args():
    return ()


def reference():
    x = np.arange(1, 5 * 6 + 1, dtype=np.float32).reshape(5, 6)
    # Row p keeps the columns x <= p + 1 (offset 1 + p - x >= 0).
    keep = np.arange(6)[None, :] <= np.arange(5)[:, None] + 1
    return np.where(keep, x, np.float32(-2.0))


def _kernel(false_value):
    out = nl.ndarray((5, 6), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((5, 6), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(dst=t, pattern=[[1, 6]], offset=1, channel_multiplier=6)
    s = nl.ndarray((5, 6), dtype=nl.float32, buffer=nl.sbuf)
    nisa.affine_select(dst=s, pattern=[[-1, 6]], offset=1,
                       channel_multiplier=1, on_true_tile=t,
                       on_false_value=false_value, cmp_op=nl.greater_equal)
    nisa.dma_copy(dst=out, src=s)
    return out


@nki.jit
def wrong():
    return _kernel(-2)


@nki.jit
def right():
    return _kernel(-2.0)
