#!/usr/bin/python3
# Rules: PK5001, PK5002, PK5003, PK5004, PK5006, PK5007, PK5009, PK5040
"""CUDA kernels written the way they are commonly written (textbook and
production idioms), one kernel per .cu file of this directory, ported with
`port-kernel port --to nki` in one run.  Each file declares what the tool
should do with its kernel in a header line:

    // EXPECT: lift
        the kernel is in PK_KERNELS and, run on the NumPy NKI simulator
        (lib/NKISim) through the PK_KERNELS calling convention, matches the
        NumPy reference below at every size;
    // EXPECT: refuse PK5003 "data-dependent"
        the kernel is not lifted, and the port's stderr has a warning for it
        with that rule, at the file and line marked `// EXPECT-AT` (any line
        of the file when none is marked), whose message contains the quoted
        substring.

    // GAP: what is missing
        with `EXPECT: lift`: a construct the lifter should lift but does not
        yet; the kernel must then be refused (one finding, no output), and
        a lift that matches makes the test fail until the GAP line goes.
        The gaps are listed in STATUS.md.

One line per kernel (ok / FAIL and why), then a summary; the exit status is
non-zero on any FAIL.  With --report: a table of kernel, expectation, actual
outcome and the tool's rule and message, and exit status 0.

    check_idioms.py --pk PORT_KERNEL --source-dir SRC --work DIR [--report]
        [--only KERNEL ...]
"""

import argparse
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

FINDING = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<sev>warning|note): kernel '(?P<kernel>[^']+)' "
                     r"(?P<what>is not lifted to NKI|lifted to an NKI tile "
                     r"program): (?P<msg>.*) \[(?P<rule>PK\d{4})\]$")
EXPECT = re.compile(r'^//\s*EXPECT:\s*(?:(?P<lift>lift)\s*$|refuse\s+'
                    r'(?P<rule>PK\d{4})\s+"(?P<sub>[^"]+)"\s*$)')


def cdiv(a, b):
    return -(-a // b)


F32 = dict(rtol=1e-4, atol=1e-5)


def f32(rng, shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def softmax_ref(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


ROWS_COLS = ((37, 100), (300, 1300), (130, 600))
# Arg-reductions: ragged, tied, several row tiles and column chunks, rows
# narrower than a warp.
ARG_SIZES = ((37, 100), (300, 1300), (130, 600), (5, 7), (3, 1), (129, 1025))


def L(gx, bx, gy=1, by=1, gz=1, bz=1, shared=0):
    return dict(grid_x=gx, block_x=bx, grid_y=gy, block_y=by, grid_z=gz,
                block_z=bz, shared_bytes=shared)


# Each case: (label, {CUDA parameter: value}, launch, {output: reference},
# tolerances).  Outputs get None as their value; an inout tensor gets its
# initial contents and its reference is the value after the kernel.

def cases_relu_tx(rng):
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(out=None, **{"in": x}, n=n),
               L(cdiv(n, 256), 256), dict(out=np.maximum(x, 0)), F32)


def cases_scale_shift_2d(rng):
    for rows, cols in ROWS_COLS[:2]:
        x = f32(rng, (rows, cols), -4, 4)
        sh = f32(rng, rows)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, shift=sh, scale=1.5, rows=rows,
                    cols=cols),
               L(cdiv(cols, 32), 32, cdiv(rows, 8), 8),
               dict(out=x * np.float32(1.5) - sh[:, None]), F32)


def cases_add_3d(rng):
    for d, rows, cols in ((3, 37, 100), (5, 130, 600)):
        a = f32(rng, (d, rows, cols))
        b = f32(rng, (d, rows, cols))
        yield ("%dx%dx%d" % (d, rows, cols),
               dict(out=None, a=a, b=b, depth=d, rows=rows, cols=cols),
               L(cdiv(cols, 16), 16, cdiv(rows, 8), 8, cdiv(d, 4), 4),
               dict(out=a + np.float32(0.5) * b), F32)


def cases_sigmoid_gs(rng):
    for n, grid in ((3700, 4), (390001, 120)):
        x = f32(rng, n, -8, 8)
        yield ("n=%d grid=%d" % (n, grid), dict(y=None, x=x, n=n),
               L(grid, 256),
               dict(y=1 / (1 + np.exp(-x.astype(np.float64)))),
               dict(rtol=1e-5, atol=1e-6))


def cases_scale_rows(rng):
    for rows, cols in ROWS_COLS[:2]:
        x = f32(rng, (rows, cols), -4, 4)
        s = f32(rng, rows, 0.5, 2)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, rowScale=s, cols=cols),
               L(rows, 128), dict(out=x * s[:, None]), F32)


def cases_axpby_bs(rng):
    for n, bs in ((3700, 256), (390001, 128)):
        x = f32(rng, n)
        y = f32(rng, n)
        yield ("n=%d blockSize=%d" % (n, bs),
               dict(z=None, x=x, y=y, a=2.0, b=-0.5, n=n, blockSize=bs),
               L(cdiv(n, bs), bs),
               dict(z=np.float32(2) * x - np.float32(0.5) * y), F32)


def cases_bias_relu_flat(rng):
    for rows, cols in ROWS_COLS[:2]:
        x = f32(rng, (rows, cols), -2, 2)
        b = f32(rng, cols)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, bias=b, rows=rows, cols=cols),
               L(cdiv(rows * cols, 256), 256),
               dict(out=np.maximum(x + b[None, :], 0)), F32)


def cases_half_axpy(rng):
    for n in (3700, 390001):
        x = rng.uniform(-2, 2, n).astype(np.float16)
        y = rng.uniform(-2, 2, n).astype(np.float16)
        ref = (np.float32(0.75) * x.astype(np.float32) +
               y.astype(np.float32)).astype(np.float16)
        yield ("n=%d" % n, dict(y=y, x=x, alpha=0.75, n=n),
               L(cdiv(n, 256), 256), dict(y=ref),
               dict(rtol=2e-3, atol=2e-3, dtype=np.float16))


def cases_softmax_smem_tree(rng):
    for (rows, cols), block in zip(ROWS_COLS, (256, 128, 256)):
        x = f32(rng, (rows, cols), -6, 6)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(out=None, **{"in": x}, rows=rows, cols=cols),
               L(rows, block), dict(out=softmax_ref(x)),
               dict(rtol=1e-4, atol=1e-6))


def cases_softmax_block_warps(rng):
    for (rows, cols), block in zip(ROWS_COLS, (128, 256, 512)):
        x = f32(rng, (rows, cols), -6, 6)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(input=x, output=None, C=cols),
               L(rows, block), dict(output=softmax_ref(x)),
               dict(rtol=1e-4, atol=1e-6))


def cases_logsumexp_rows(rng):
    for (rows, cols), block in zip(ROWS_COLS, (256, 512, 128)):
        x = f32(rng, (rows, cols), -6, 6)
        xd = x.astype(np.float64)
        m = xd.max(axis=1)
        ref = m + np.log(np.exp(xd - m[:, None]).sum(axis=1))
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(out=None, x=x, rows=rows, cols=cols),
               L(rows, block), dict(out=ref), F32)


def cases_rmsnorm_warp_rows(rng):
    for rows, cols in ROWS_COLS:
        x = f32(rng, (rows, cols), -2, 2)
        w = f32(rng, cols, 0.5, 1.5)
        xd = x.astype(np.float64)
        ref = xd / np.sqrt((xd ** 2).mean(axis=1, keepdims=True) + 1e-5) * w
        yield ("%dx%d" % (rows, cols),
               dict(out=None, x=x, weight=w, rows=rows, cols=cols, eps=1e-5),
               L(cdiv(rows, 4), 32, 1, 4), dict(out=ref), F32)


def cases_layernorm_two_pass(rng):
    for (rows, cols), block in zip(ROWS_COLS, (128, 256, 1024)):
        x = f32(rng, (rows, cols), -2, 3)
        g = f32(rng, cols, 0.5, 1.5)
        b = f32(rng, cols, -0.5, 0.5)
        xd = x.astype(np.float64)
        m = xd.mean(axis=1, keepdims=True)
        v = ((xd - m) ** 2).mean(axis=1, keepdims=True)
        ref = (xd - m) / np.sqrt(v + 1e-5) * g + b
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(y=None, x=x, gamma=g, beta=b, rows=rows, cols=cols,
                    eps=1e-5),
               L(rows, block), dict(y=ref), F32)


def cases_l2norm_rows(rng):
    for rows, cols in ROWS_COLS:
        x = f32(rng, (rows, cols), -2, 2)
        xd = x.astype(np.float64)
        ref = xd / np.maximum(np.sqrt((xd ** 2).sum(axis=1, keepdims=True)),
                              1e-12)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 4), 128), dict(out=ref), F32)


def cases_row_sum_smem(rng):
    for (rows, cols), block in zip(ROWS_COLS, (256, 128, 512)):
        x = f32(rng, (rows, cols))
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(out=None, **{"in": x}, cols=cols),
               L(rows, block, shared=4 * block),
               dict(out=x.astype(np.float64).sum(axis=1)),
               dict(rtol=1e-4, atol=1e-4))


def cases_row_max_sub(rng):
    for (rows, cols), block in zip(ROWS_COLS, (256, 128, 1024)):
        x = f32(rng, (rows, cols), -5, 5)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(out=None, x=x, rows=rows, cols=cols),
               L(rows, block), dict(out=x - x.max(axis=1, keepdims=True)),
               dict(rtol=0, atol=0))


def cases_mse_rows(rng):
    for rows, cols in ROWS_COLS:
        a = f32(rng, (rows, cols))
        b = f32(rng, (rows, cols))
        d = a.astype(np.float64) - b
        yield ("%dx%d" % (rows, cols),
               dict(out=None, a=a, b=b, rows=rows, cols=cols),
               L(cdiv(rows, 8), 256), dict(out=(d * d).mean(axis=1)), F32)


def gemv_ref(A, x):
    return A.astype(np.float64) @ x.astype(np.float64)


def cases_gemv_warp(rng):
    for rows, cols in ROWS_COLS:
        A = f32(rng, (rows, cols))
        x = f32(rng, cols)
        yield ("%dx%d" % (rows, cols),
               dict(y=None, A=A, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 8), 256), dict(y=gemv_ref(A, x)),
               dict(rtol=1e-4, atol=1e-4))


def cases_gemv_block(rng):
    for rows, cols in ROWS_COLS:
        A = f32(rng, (rows, cols))
        x = f32(rng, cols)
        yield ("%dx%d" % (rows, cols),
               dict(y=None, A=A, x=x, rows=rows, cols=cols),
               L(rows, 128), dict(y=gemv_ref(A, x)),
               dict(rtol=1e-4, atol=1e-4))


def cases_block_partial_syncwarp(rng):
    for n, grid in ((5000, 6), (300001, 150), (100, 4)):
        x = f32(rng, n)
        ref = np.zeros(grid)
        # Block b visits chunks of 512 = 2 * blockSize elements c = b,
        # b + grid, ...: element j is in chunk j // 512.
        np.add.at(ref, (np.arange(n) // 512) % grid, x.astype(np.float64))
        yield ("n=%d grid=%d" % (n, grid),
               dict({"in": x}, partial=None, n=n), L(grid, 256),
               dict(partial=ref), dict(rtol=1e-4, atol=1e-4))


def partial_ref(x, chunk, grid, rounds=True):
    """partial[b]: the sum of x[j] over the chunks of `chunk` elements that
    block b visits: chunks b, b + grid, ... (rounds), or chunk b alone."""
    ref = np.zeros(grid)
    c = np.arange(x.size) // chunk
    keep = np.ones(x.size, bool) if rounds else c < grid
    np.add.at(ref, c[keep] % grid, x.astype(np.float64)[keep])
    return ref


def partial_extreme(x, chunk, grid, fn, init, rounds=True):
    """partial[b]: fn (np.maximum, np.minimum) of x[j] over the chunks of
    `chunk` elements block b visits (as partial_ref), init where none."""
    ref = np.full(grid, init, dtype=np.float64)
    c = np.arange(x.size) // chunk
    keep = np.ones(x.size, bool) if rounds else c < grid
    fn.at(ref, c[keep] % grid, x.astype(np.float64)[keep])
    return ref.astype(np.float32)


def cases_block_partial_max(rng):
    fmax = float(np.finfo(np.float32).max)
    for n, grid, block in ((5000, 6, 128), (300001, 150, 256),
                           (100, 4, 32), (70, 5, 64)):
        x = f32(rng, n, -5, 5)
        if n == 5000:
            x = -np.abs(x) - 1  # every value negative: -FLT_MAX must not win
        yield ("n=%d grid=%d block=%d" % (n, grid, block),
               dict(partial=None, x=x, n=n), L(grid, block),
               dict(partial=partial_extreme(x, block, grid, np.maximum,
                                            -fmax)),
               dict(rtol=0, atol=0))


def cases_block_partial_max_ternary(rng):
    fmax = float(np.finfo(np.float32).max)
    for n, grid, block in ((5000, 40, 128), (3000, 5, 256), (100, 4, 32)):
        x = f32(rng, n, -5, 5)
        if n == 5000:
            x[:2 * block] = -np.inf   # two whole blocks of -inf stay -inf
            x[-(n % block):] = -np.inf  # the ragged block takes -FLT_MAX
        ref = partial_extreme(x, block, grid, np.maximum, -fmax,
                              rounds=False)
        for b in range(grid):
            if (b + 1) * block <= n:  # whole: no thread past the end
                ref[b] = x[b * block:(b + 1) * block].max()
        yield ("n=%d grid=%d block=%d" % (n, grid, block),
               dict(partial=None, x=x, n=n), L(grid, block, shared=4 * block),
               dict(partial=ref), dict(rtol=0, atol=0))


def cases_block_partial_min_shfl(rng):
    for n, grid, block in ((5000, 20, 128), (300001, 600, 256),
                           (100, 4, 64), (1000, 3, 512)):
        x = f32(rng, n, -5, 5)
        yield ("n=%d grid=%d block=%d" % (n, grid, block),
               dict(lo=None, x=x, n=n), L(grid, block),
               dict(lo=partial_extreme(np.abs(x), 2 * block, grid,
                                       np.minimum, np.inf, rounds=False)),
               dict(rtol=0, atol=0))


def cases_block_partial_onepass(rng):
    for n, grid, block in ((5000, 6, 128), (300001, 150, 256),
                           (100, 4, 32)):
        x = f32(rng, n)
        yield ("n=%d grid=%d block=%d" % (n, grid, block),
               dict(x=x, partial=None, n=n), L(grid, block),
               dict(partial=partial_ref(x, block, grid)),
               dict(rtol=1e-4, atol=1e-4))


def cases_block_partial_shfl(rng):
    for n, grid, block in ((5000, 6, 256), (300001, 150, 512),
                           (100, 4, 64)):
        x = f32(rng, n)
        yield ("n=%d grid=%d block=%d" % (n, grid, block),
               dict(partial=None, x=x, n=n), L(grid, block, shared=4 * block),
               dict(partial=partial_ref(x * x, 2 * block, grid)),
               dict(rtol=1e-4, atol=1e-4))


def cases_block_partial_chunk(rng):
    for n, grid in ((5000, 20), (300001, 100), (100, 1), (1000, 3)):
        x = f32(rng, n)
        yield ("n=%d grid=%d" % (n, grid), dict(x=x, partial=None, n=n),
               L(grid, 128),
               dict(partial=partial_ref(x, 256, grid, rounds=False)),
               dict(rtol=1e-4, atol=1e-4))


def cases_row_norm_fanin4(rng):
    for (rows, cols), block in zip(ROWS_COLS, (256, 64, 256)):
        x = f32(rng, (rows, cols))
        ref = np.sqrt((x.astype(np.float64) ** 2).sum(axis=1))
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(out=None, **{"in": x}, rows=rows, cols=cols),
               L(rows, block), dict(out=ref), F32)


def cases_cg_row_mean(rng):
    for rows, cols in ROWS_COLS:
        x = f32(rng, (rows, cols))
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, rows=rows, cols=cols),
               L(cdiv(rows, 4), 128),
               dict(out=x.astype(np.float64).mean(axis=1)),
               dict(rtol=1e-4, atol=1e-6))


def cases_cg_l1norm(rng):
    for rows, cols in ROWS_COLS:
        x = f32(rng, (rows, cols))
        xd = x.astype(np.float64)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 4), 128),
               dict(out=xd / np.abs(xd).sum(axis=1, keepdims=True)),
               dict(rtol=1e-4, atol=1e-7))


def cases_col_sum(rng):
    for rows, cols in ROWS_COLS:
        x = f32(rng, (rows, cols))
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, rows=rows, cols=cols),
               L(cdiv(cols, 128), 128),
               dict(out=x.astype(np.float64).sum(axis=0)),
               dict(rtol=1e-4, atol=1e-4))


def cases_dot_atomic(rng):
    for n, grid in ((5000, 8), (300001, 120), (100, 2)):
        a = f32(rng, n)
        b = f32(rng, n)
        init = np.array([0.25], dtype=np.float32)
        ref = 0.25 + (a.astype(np.float64) * b).sum()
        yield ("n=%d grid=%d" % (n, grid), dict(out=init, a=a, b=b, n=n),
               L(grid, 256), dict(out=np.array([ref])),
               dict(rtol=1e-4, atol=1e-3))


def cases_row_sum_atomic(rng):
    for rows, cols in ROWS_COLS:
        x = f32(rng, (rows, cols))
        init = f32(rng, rows)
        yield ("%dx%d" % (rows, cols),
               dict(out=init, **{"in": x}, rows=rows, cols=cols),
               L(cdiv(cols, 256), 256, rows, 1),
               dict(out=init + x.astype(np.float64).sum(axis=1)),
               dict(rtol=1e-4, atol=1e-4))


def cases_row_sum_atomic_each(rng):
    for rows, cols in ROWS_COLS:
        x = f32(rng, (rows, cols))
        init = f32(rng, rows)
        yield ("%dx%d" % (rows, cols),
               dict(out=init, x=x, rows=rows, cols=cols),
               L(cdiv(cols, 128), 128, rows, 1),
               dict(out=init + 0.5 * x.astype(np.float64).sum(axis=1)),
               dict(rtol=1e-4, atol=1e-4))


def cases_sumsq_atomic_2d(rng):
    for (rows, cols), grid in zip(ROWS_COLS, (3, 40, 7)):
        x = f32(rng, (rows, cols))
        init = np.array([-1.5], dtype=np.float32)
        ref = -1.5 + (x.astype(np.float64) ** 2).sum()
        yield ("%dx%d grid=%d" % (rows, cols, grid),
               dict(out=init, x=x, rows=rows, cols=cols),
               L(grid, 256), dict(out=np.array([ref])),
               dict(rtol=1e-4, atol=1e-3))


def cases_gemm_tiled_txty(rng):
    for M, N, K in ((37, 100, 70), (300, 520, 130), (16, 16, 16)):
        A = f32(rng, (M, K))
        B = f32(rng, (K, N))
        yield ("M=%d N=%d K=%d" % (M, N, K),
               dict(A=A, B=B, C=None, M=M, N=N, K=K),
               L(cdiv(N, 16), 16, cdiv(M, 16), 16),
               dict(C=A.astype(np.float64) @ B),
               dict(rtol=1e-4, atol=1e-4))


def cases_gemm_nt_naive(rng):
    for M, N, K in ((37, 100, 70), (300, 260, 130)):
        A = f32(rng, (M, K))
        B = f32(rng, (N, K))
        yield ("M=%d N=%d K=%d" % (M, N, K),
               dict(C=None, A=A, B=B, alpha=0.5, M=M, N=N, K=K),
               L(cdiv(N, 16), 16, cdiv(M, 16), 16),
               dict(C=0.5 * (A.astype(np.float64) @ B.T)),
               dict(rtol=1e-4, atol=1e-4))


def cases_transpose_scale(rng):
    for rows, cols in ((70, 45), (300, 1300)):
        x = f32(rng, (rows, cols), -10, 10)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, scale=-2.0, rows=rows, cols=cols),
               L(cdiv(cols, 32), 32, cdiv(rows, 32), 8),
               dict(out=np.float32(-2) * x.T), dict(rtol=0, atol=0))


def cases_transpose_tile16(rng):
    for rows, cols in ((70, 45), (300, 1300), (16, 16)):
        x = f32(rng, (rows, cols), -10, 10)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, alpha=1.5, beta=-0.25, rows=rows,
                    cols=cols),
               L(cdiv(cols, 16), 16, cdiv(rows, 16), 16),
               dict(out=np.float32(1.5) * x.T + np.float32(-0.25)),
               dict(rtol=0, atol=0))


def cases_transpose_flat_relu(rng):
    for rows, cols in ((70, 45), (300, 1300), (129, 33)):
        x = f32(rng, (rows, cols), -10, 10)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, rows=rows, cols=cols),
               L(cdiv(cols, 32), 32, cdiv(rows, 32), 8),
               dict(out=np.maximum(x.T, 0)), dict(rtol=0, atol=0))


def cases_transpose_bias_rows(rng):
    for rows, cols in ((70, 45), (300, 1300), (129, 33)):
        x = f32(rng, (rows, cols), -10, 10)
        bias = f32(rng, cols, -3, 3)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, bias=bias, rows=rows, cols=cols),
               L(cdiv(cols, 32), 32, cdiv(rows, 32), 8),
               dict(out=x.T + bias[:, None]), dict(rtol=0, atol=0))


def cases_transpose_residual(rng):
    for rows, cols in ((70, 45), (300, 1300), (17, 200)):
        x = f32(rng, (rows, cols), -10, 10)
        res = f32(rng, (cols, rows), -3, 3)
        scale = f32(rng, rows, -2, 2)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, res=res, scale=scale, rows=rows,
                    cols=cols),
               L(cdiv(cols, 16), 16, cdiv(rows, 16), 16),
               dict(out=res + scale[None, :] * x.T), F32)


def cases_transpose_stage_scale(rng):
    for rows, cols in ((70, 45), (300, 1300), (31, 200)):
        x = f32(rng, (rows, cols), -10, 10)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, scale=0.75, shift=3.0, rows=rows,
                    cols=cols),
               L(cdiv(cols, 32), 32, cdiv(rows, 32), 16),
               dict(out=(np.float32(0.75) * x + np.float32(3)).T),
               dict(rtol=0, atol=0))


def cases_transpose_rows_blockdim(rng):
    for (rows, cols), by in zip(((70, 45), (300, 1300), (33, 64)),
                                (8, 4, 32)):
        x = f32(rng, (rows, cols), -10, 10)
        yield ("%dx%d block=32x%d" % (rows, cols, by),
               dict(out=None, **{"in": x}, rows=rows, cols=cols),
               L(cdiv(cols, 32), 32, cdiv(rows, 32), by),
               dict(out=x.T.copy()), dict(rtol=0, atol=0))
def arg_inputs(rng, sizes=ARG_SIZES):
    """Rows for arg-reductions: uniform values, then few distinct values
    (ties in every row, across lanes and chunks), a constant row, a row
    whose maximum and minimum come last, and rows narrower than a warp."""
    for k, (rows, cols) in enumerate(sizes):
        if k % 2 == 0:
            x = f32(rng, (rows, cols), -5, 5)
        else:
            x = rng.integers(-2, 3, (rows, cols)).astype(np.float32)
            x[0, :] = 1.0
            if rows > 1:
                x[1, :] = 0.0
                x[1, -1] = 7.0
            if rows > 2:
                x[2, :] = 0.0
                x[2, -1] = -7.0
        yield "%dx%d%s" % (rows, cols, " ties" if k % 2 else ""), rows, cols, x


def cases_argmax_rows(rng):
    for name, rows, cols, x in arg_inputs(rng):
        yield (name,
               dict(idx=None, val=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 8), 256),
               dict(idx=x.argmax(axis=1).astype(np.int32),
                    val=x.max(axis=1)),
               dict(rtol=0, atol=0))


def cases_argmin_rows(rng):
    for name, rows, cols, x in arg_inputs(rng):
        yield (name,
               dict(lo=None, pos=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 4), 128),
               dict(lo=x.min(axis=1), pos=x.argmin(axis=1).astype(np.int32)),
               dict(rtol=0, atol=0))


def last_index(m):
    """The last column of each row where the boolean matrix m is true."""
    return (m.shape[1] - 1 - m[:, ::-1].argmax(axis=1)).astype(np.int32)


def cases_argmax_last_rows(rng):
    for name, rows, cols, x in arg_inputs(rng):
        best = x.max(axis=1)
        yield (name,
               dict(idx=None, val=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 8), 256),
               dict(idx=last_index(x == best[:, None]), val=best),
               dict(rtol=0, atol=0))


def cases_argmin_last_smem_tree(rng):
    for name, rows, cols, x in arg_inputs(rng):
        lo = x.min(axis=1)
        yield (name,
               dict(lo=None, at=None, x=x, rows=rows, cols=cols),
               L(rows, 128),
               dict(lo=lo, at=last_index(x == lo[:, None])),
               dict(rtol=0, atol=0))


def cases_argmax_block_warps(rng):
    for (name, rows, cols, x), block in zip(arg_inputs(rng),
                                            (256, 128, 1024, 64, 512, 32)):
        yield (name + " block=%d" % block,
               dict(idx=None, x=x, rows=rows, cols=cols),
               L(rows, block),
               dict(idx=x.argmax(axis=1).astype(np.int32)),
               dict(rtol=0, atol=0))


def cases_argmax_smem_tree(rng):
    for name, rows, cols, x in arg_inputs(rng):
        yield (name,
               dict(best=None, at=None, x=x, rows=rows, cols=cols),
               L(rows, 128),
               dict(best=x.max(axis=1), at=x.argmax(axis=1).astype(np.int32)),
               dict(rtol=0, atol=0))


def wide_ints(rng, shape):
    """int32 values of any magnitude: ties, neighbours that differ in the
    low bits only (float32 would merge them), both signs, the extremes."""
    x = rng.integers(-2**31, 2**31, shape, dtype=np.int64)
    flat = x.reshape(-1)
    k = flat.size
    flat[rng.integers(0, k, max(1, k // 7))] = 2**30 + 1
    flat[rng.integers(0, k, max(1, k // 7))] = 2**30 + 3
    flat[rng.integers(0, k, max(1, k // 9))] = -(2**30) - 3
    flat[rng.integers(0, k, max(1, k // 9))] = -(2**30) - 1
    return x.astype(np.int32)


def cases_global_max_atomic(rng):
    for n, grid, init in ((1000, 3, -2**31), (70001, 40, 5), (33, 1, 2**31 - 1),
                          (5000, 7, -7)):
        x = wide_ints(rng, n)
        if n == 5000:
            x = rng.integers(-50, -8, n).astype(np.int32)
        out = np.array([init], dtype=np.int32)
        yield ("n=%d grid=%d" % (n, grid), dict(out=out, x=x, n=n),
               L(grid, 256),
               dict(out=np.array([max(int(init), int(x.max()))],
                                 dtype=np.int32)),
               dict(rtol=0, atol=0))


def cases_row_min_atomic(rng):
    for rows, cols in ((37, 100), (130, 1300), (3, 1)):
        x = wide_ints(rng, (rows, cols))
        lo = wide_ints(rng, rows)
        lo[0] = -2**31
        yield ("%dx%d" % (rows, cols), dict(lo=lo, x=x, rows=rows, cols=cols),
               L(cdiv(cols, 128), 128, rows, 1),
               dict(lo=np.minimum(lo, x.min(axis=1)).astype(np.int32)),
               dict(rtol=0, atol=0))


def wide_uints(rng, shape):
    """uint32 values of any magnitude: both halves of the range (a signed
    comparison would order them wrongly), neighbours that differ in the low
    bits only, 0 and 2^32 - 1."""
    x = rng.integers(0, 2**32, shape, dtype=np.int64)
    flat = x.reshape(-1)
    k = flat.size
    flat[rng.integers(0, k, max(1, k // 7))] = 2**31 + 1
    flat[rng.integers(0, k, max(1, k // 7))] = 2**31 + 3
    flat[rng.integers(0, k, max(1, k // 9))] = 2**31 - 1
    flat[rng.integers(0, k, max(1, k // 11))] = 2**32 - 1
    flat[rng.integers(0, k, max(1, k // 11))] = 0
    return x.astype(np.uint32)


def cases_row_umax_atomic(rng):
    for rows, cols in ((37, 100), (130, 1300), (3, 1)):
        x = wide_uints(rng, (rows, cols))
        hi = wide_uints(rng, rows)
        hi[0] = 2**32 - 1
        yield ("%dx%d" % (rows, cols), dict(hi=hi, x=x, rows=rows, cols=cols),
               L(cdiv(cols, 128), 128, rows, 1),
               dict(hi=np.maximum(hi, x.max(axis=1)).astype(np.uint32)),
               dict(rtol=0, atol=0))


def cases_global_umin_atomic(rng):
    for n, grid, init in ((1000, 3, 2**32 - 1), (70001, 40, 5),
                          (33, 1, 0), (5000, 7, 2**31 + 2)):
        x = wide_uints(rng, n)
        if n == 5000:
            x = rng.integers(2**31 + 5, 2**32, n).astype(np.uint32)
        out = np.array([init], dtype=np.uint32)
        yield ("n=%d grid=%d" % (n, grid), dict(out=out, x=x, n=n),
               L(grid, 256),
               dict(out=np.array([min(int(init), int(x.min()))],
                                 dtype=np.uint32)),
               dict(rtol=0, atol=0))


def cases_row_umax_per_thread(rng):
    for rows, cols in ((37, 100), (130, 1300), (3, 1)):
        x = wide_uints(rng, (rows, cols))
        if rows == 130:
            x[5:9, :] = rng.integers(2**31, 2**31 + 3, (4, cols))
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows,
                                            cols=cols),
               L(cdiv(rows, 64), 64),
               dict(out=x.max(axis=1).astype(np.uint32)),
               dict(rtol=0, atol=0))


# A reduction whose first columns are read before its loop: ragged sizes,
# the fewest columns it is right for, and fewer (the output's assert).
FIRST_COLS = "first columns are read before its loop"


def first_col_cases(rng, mincols, ref, exact=True):
    for rows, cols in ROWS_COLS + ((3, mincols),):
        x = f32(rng, (rows, cols), -5, 5)
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows,
                                            cols=cols),
               L(cdiv(rows, 64), 64), dict(out=ref(x)),
               dict(rtol=0, atol=0) if exact else F32)
    x = f32(rng, (5, mincols - 1))
    yield ("5x%d (too few columns)" % (mincols - 1),
           dict(out=None, x=x, rows=5, cols=mincols - 1), L(1, 64),
           dict(out=np.zeros(5, np.float32)), dict(raises=FIRST_COLS))


def cases_rowmax_first_element(rng):
    return first_col_cases(rng, 1, lambda x: x.max(axis=1))


def cases_rowmean_first_element(rng):
    return first_col_cases(
        rng, 1, lambda x: (x.astype(np.float64).sum(axis=1) / x.shape[1]),
        exact=False)


def cases_rowmin_first_two(rng):
    return first_col_cases(rng, 2, lambda x: x.min(axis=1))


def cases_argmax_first_element(rng):
    for name, rows, cols, x in arg_inputs(rng):
        yield (name, dict(idx=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 64), 64),
               dict(idx=x.argmax(axis=1).astype(np.int32)),
               dict(rtol=0, atol=0))
    x = f32(rng, (4, 0))
    yield ("4x0 (no columns)", dict(idx=None, x=x, rows=4, cols=0), L(1, 64),
           dict(idx=np.zeros(4, np.int32)), dict(raises=FIRST_COLS))


def cases_adam_update(rng):
    lr, b1, b2, eps, wd = 1e-3, 0.9, 0.999, 1e-8, 0.01
    for n, t in ((3700, 1), (390001, 7)):
        w, g = f32(rng, n, -1, 1), f32(rng, n, -0.1, 0.1)
        m, v = f32(rng, n, -0.01, 0.01), f32(rng, n, 0, 1e-4)
        c1, c2 = 1 - b1 ** t, 1 - b2 ** t
        f = np.float64
        mi = b1 * m.astype(f) + (1 - b1) * g
        vi = b2 * v.astype(f) + (1 - b2) * g.astype(f) * g
        wi = w - lr * (mi / c1 / (np.sqrt(vi / c2) + eps) + wd * w)
        yield ("n=%d step=%d" % (n, t),
               dict(w=w.copy(), g=g, m=m.copy(), v=v.copy(), n=n, lr=lr,
                    b1=b1, b2=b2, c1=c1, c2=c2, eps=eps, wd=wd),
               L(cdiv(n, 256), 256), dict(w=wi, m=mi, v=vi),
               dict(rtol=1e-4, atol=1e-6))


def cases_scale_float4(rng):
    for n in (4000, 390004, 4):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(y=None, x=x, a=1.75, n=n),
               L(cdiv(n // 4, 256), 256), dict(y=x * np.float32(1.75)),
               dict(rtol=0, atol=0))


def cases_axpy_float4(rng):
    for n4 in (1000, 97501):
        x, y = f32(rng, 4 * n4), f32(rng, 4 * n4)
        yield ("n4=%d" % n4, dict(y=y.copy(), x=x, a=-0.5, n4=n4),
               L(cdiv(n4, 128), 128),
               dict(y=np.float32(-0.5) * x + y), F32)


def cases_complex_mul_pairs(rng):
    for n in (1000, 33001):
        a, b = f32(rng, 2 * n), f32(rng, 2 * n)
        za = a[0::2] + 1j * a[1::2].astype(np.float64)
        zb = b[0::2] + 1j * b[1::2].astype(np.float64)
        z = za * zb
        c = np.empty(2 * n)
        c[0::2], c[1::2] = z.real, z.imag
        yield ("n=%d" % n, dict(c=None, a=a, b=b, n=n), L(cdiv(n, 256), 256),
               dict(c=c), F32)


def cases_swap_pairs_float2(rng):
    for n in (1000, 33001):
        x = f32(rng, 2 * n)
        ref = x.reshape(n, 2)[:, ::-1].reshape(-1)
        yield ("n=%d" % n, dict(out=None, **{"in": x}, n=n),
               L(cdiv(n, 256), 256), dict(out=ref), dict(rtol=0, atol=0))


def cases_cross_float3(rng):
    for n in (1000, 20001):
        a, b = f32(rng, 3 * n), f32(rng, 3 * n)
        ref = np.cross(a.reshape(n, 3).astype(np.float64),
                       b.reshape(n, 3).astype(np.float64)).reshape(-1)
        yield ("n=%d" % n, dict(c=None, a=a, b=b, n=n), L(cdiv(n, 128), 128),
               dict(c=ref), F32)


def cases_rgba_to_gray(rng):
    for n in (1000, 50001):
        p = f32(rng, 4 * n, 0, 1)
        q = p.reshape(n, 4).astype(np.float64)
        ref = 0.299 * q[:, 0] + 0.587 * q[:, 1] + 0.114 * q[:, 2]
        yield ("n=%d" % n, dict(gray=None, rgba=p, n=n),
               L(cdiv(n, 256), 256), dict(gray=ref), F32)


def cases_complex_mul_two_per_thread(rng):
    for n2 in (1000, 33001):
        a, b = f32(rng, 4 * n2), f32(rng, 4 * n2)
        za = a[0::2] + 1j * a[1::2].astype(np.float64)
        zb = b[0::2] + 1j * b[1::2].astype(np.float64)
        z = za * zb
        c = np.empty(4 * n2)
        c[0::2], c[1::2] = z.real, z.imag
        yield ("n2=%d" % n2, dict(c=None, a=a, b=b, n2=n2),
               L(cdiv(n2, 128), 128), dict(c=c), F32)


def cases_subtract_first_column(rng):
    for rows, cols in ((5, 1000), (130, 77), (3, 1)):
        x = f32(rng, (rows, cols))
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, cols=cols),
               L(rows, 128), dict(out=x - x[:, :1]), dict(rtol=0, atol=0))


def cases_rowsum_first_twice(rng):
    for rows, cols in ((37, 100), (300, 1)):
        x = f32(rng, (rows, cols))
        q = x.astype(np.float64)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 128), 128), dict(out=q[:, 0] + q.sum(axis=1)), F32)


def causal_scores(rng, T, garbage):
    """A (T, T) score matrix whose upper triangle (which causal kernels
    never read) holds `garbage` (inf or nan): a lifted mask must not let it
    through."""
    s = f32(rng, (T, T), -3, 3)
    s[np.triu_indices(T, 1)] = garbage
    return s


def cases_causal_softmax_rows(rng):
    for T, g in ((1, np.inf), (300, np.inf), (600, np.nan)):
        s = causal_scores(rng, T, g)
        scale = 0.7
        ref = np.zeros((T, T))
        q = s.astype(np.float64) * np.float32(scale)
        for t in range(T):
            e = np.exp(q[t, :t + 1] - q[t, :t + 1].max())
            ref[t, :t + 1] = e / e.sum()
        yield ("T=%d" % T, dict(p=None, s=s, T=T, scale=scale),
               L(cdiv(T, 128), 128), dict(p=ref), F32)


def cases_causal_rowsum_strict(rng):
    for n, g in ((1, np.inf), (200, np.nan), (700, np.inf)):
        x = f32(rng, (n, n))
        x[np.triu_indices(n, 0)] = g
        ref = np.array([x[t, :t].astype(np.float64).sum() for t in range(n)])
        yield ("n=%d" % n, dict(out=None, x=x, n=n), L(cdiv(n, 256), 256),
               dict(out=ref), F32)


def cases_causal_rowsum_rect(rng):
    for rows, cols in ((100, 300), (129, 129), (5, 700)):
        x = f32(rng, (rows, cols))
        ref = np.array([x[t, :t + 1].astype(np.float64).sum()
                        for t in range(rows)])
        yield ("%dx%d" % (rows, cols),
               dict(out=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 128), 128), dict(out=ref), F32)
    x = f32(rng, (300, 100))
    yield ("300x100", dict(out=None, x=x, rows=300, cols=100), L(3, 128),
           dict(out=np.zeros(300, np.float32)),
           dict(raises="stays within every row"))


def cases_causal_mask_fill(rng):
    for T in (1, 130, 600):
        x = f32(rng, (T, T))
        ref = np.where(np.tril(np.ones((T, T), bool)), x, -np.inf)
        yield ("T=%d" % T, dict(out=None, x=x, T=T), L(T, 128),
               dict(out=ref), dict(rtol=0, atol=0))


def cases_xent_grad_flat(rng):
    for B, T, V in ((2, 3, 1000), (3, 50, 37), (1, 1, 1)):
        rows = B * T
        d = f32(rng, (rows, V))
        g, p = f32(rng, rows), f32(rng, (rows, V), 0, 1)
        label = rng.integers(0, V, rows).astype(np.int32)
        onehot = (np.arange(V)[None, :] == label[:, None]).astype(np.float64)
        ref = d + (p.astype(np.float64) - onehot) * g[:, None]
        yield ("%dx%dx%d" % (B, T, V),
               dict(d=d.copy(), g=g, p=p, label=label, B=B, T=T, V=V),
               L(cdiv(rows * V, 256), 256), dict(d=ref), F32)


def cases_onehot_rows(rng):
    for rows, cols in ((5, 1000), (130, 7)):
        label = rng.integers(-2, cols + 2, rows).astype(np.int32)
        label[0] = 2**24 + 1  # never equal to a column
        ref = (np.arange(cols)[None, :] != label[:, None]).astype(np.float32)
        yield ("%dx%d" % (rows, cols), dict(out=None, label=label, rows=rows,
                                            cols=cols),
               L(cdiv(cols, 32), 32, cdiv(rows, 8), 8), dict(out=ref),
               dict(rtol=0, atol=0))


def cases_map_index_2d(rng):
    for rows, cols in ((5, 1000), (300, 7)):
        x = f32(rng, (rows, cols))
        ref = (x.astype(np.float64) * np.arange(cols)[None, :] +
               np.arange(rows)[:, None])
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows,
                                            cols=cols),
               L(cdiv(cols, 32), 32, cdiv(rows, 8), 8), dict(out=ref), F32)


def cases_rowsum_bt_split(rng):
    for B, T, C in ((2, 3, 1000), (4, 70, 33)):
        x = f32(rng, (B * T, C))
        yield ("%dx%dx%d" % (B, T, C), dict(out=None, inp=x, B=B, T=T, C=C),
               L(B * T, 256), dict(out=x.astype(np.float64).sum(axis=1)),
               F32)


def cases_sumsq_template(rng):
    for n, grid in ((5000, 8), (300001, 120), (100, 2)):
        x = f32(rng, n)
        init = np.array([0.5], dtype=np.float32)
        ref = 0.5 + (x.astype(np.float64) ** 2).sum()
        yield ("n=%d grid=%d" % (n, grid), dict(out=init, x=x, n=n),
               L(grid, 256), dict(out=np.array([ref])),
               dict(rtol=1e-4, atol=1e-3))


def cases_rowmean_block_size_arg(rng):
    for rows, cols, bs in ((5, 1000, 128), (300, 77, 32), (2, 3000, 256)):
        x = f32(rng, (rows, cols))
        yield ("%dx%d bs=%d" % (rows, cols, bs),
               dict(mean=None, x=x, C=cols, block_size=bs),
               L(rows, bs, shared=4 * bs),
               dict(mean=x.astype(np.float64).mean(axis=1)), F32)
    x = f32(rng, (4, 100))
    yield ("4x100 bs!=block", dict(mean=None, x=x, C=100, block_size=64),
           L(4, 128, shared=512), dict(mean=np.zeros(4, np.float32)),
           dict(raises="is the block size"))


def cases_norm_apply_unguarded(rng):
    for rows, C, bx in ((256, 64, 128), (130, 96, 32)):
        x = f32(rng, (rows, C))
        mean, rstd = f32(rng, rows), f32(rng, rows, 0.5, 2)
        w, b = f32(rng, C), f32(rng, C)
        q = x.astype(np.float64)
        ref = (q - mean[:, None]) * rstd[:, None] * w[None, :] + b[None, :]
        yield ("%dx%d" % (rows, C),
               dict(out=None, x=x, mean=mean, rstd=rstd, w=w, b=b, C=C),
               L(rows * C // bx, bx), dict(out=ref), F32)
    # 256 threads over rows of 100: the launch ends inside a row.
    x = f32(rng, (2, 100))
    yield ("partial row", dict(out=None, x=x, mean=f32(rng, 2),
                               rstd=f32(rng, 2), w=f32(rng, 100),
                               b=f32(rng, 100), C=100),
           L(1, 256), dict(out=np.zeros((2, 100), np.float32)),
           dict(raises="whole rows"))


def cases_gelu_backward_cosh(rng):
    for n in (1000, 70001):
        x = f32(rng, n, -6, 6)
        x[:4] = [95.0, -95.0, 3.5, -3.5]
        dy = f32(rng, n)
        v = x.astype(np.float64)
        k = 0.7978845608
        u = k * (v + 0.044715 * v ** 3)
        with np.errstate(over="ignore"):
            sech2 = 1.0 / np.cosh(u) ** 2
        g = 0.5 * (1 + np.tanh(u)) + v * 0.5 * sech2 * k * (
            1 + 3 * 0.044715 * v * v)
        yield ("n=%d" % n, dict(dx=None, x=x, dy=dy, n=n),
               L(cdiv(n, 256), 256), dict(dx=g * dy), F32)


def cases_vec3_norm(rng):
    for n in (1000, 70001):
        p = f32(rng, 3 * n, -4, 4)
        q = p.reshape(n, 3).astype(np.float64)
        yield ("n=%d" % n, dict(out=None, p=p, n=n), L(cdiv(n, 128), 128),
               dict(out=np.sqrt((q * q).sum(axis=1))), F32)


def cases_argmax_per_thread(rng):
    for name, rows, cols, x in arg_inputs(rng):
        yield (name, dict(idx=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 64), 64),
               dict(idx=x.argmax(axis=1).astype(np.int32)),
               dict(rtol=0, atol=0))


def cases_square_locals(rng):
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(y=None, x=x, n=n), L(cdiv(n, 128), 128),
               dict(y=x * x), F32)


def cases_bias_add_gs2d(rng):
    for (rows, cols), grid in zip(ROWS_COLS, ((2, 3), (8, 16), (40, 40))):
        x = f32(rng, (rows, cols), -2, 2)
        b = f32(rng, cols)
        yield ("%dx%d grid=%dx%d" % (rows, cols, grid[0], grid[1]),
               dict(out=None, **{"in": x}, bias=b, rows=rows, cols=cols),
               L(grid[0], 32, grid[1], 8), dict(out=x + b[None, :]), F32)


def cases_softmax_warp_width(rng):
    for (rows, cols), block in zip(ROWS_COLS, (128, 256, 64)):
        x = f32(rng, (rows, cols), -6, 6)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(y=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, block // 32), block), dict(y=softmax_ref(x)),
               dict(rtol=1e-4, atol=1e-6))


def cases_softmax_per_thread(rng):
    for (rows, cols), block in zip(ROWS_COLS, (64, 256, 1024)):
        x = f32(rng, (rows, cols), -6, 6)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(y=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, block), block), dict(y=softmax_ref(x)),
               dict(rtol=1e-4, atol=1e-6))


def softmax_cases(rng, out, launch_rows):
    # Values up to 90: exp would overflow float32 without the running max.
    for (rows, cols), hi in zip(ROWS_COLS, (3, 90, 5)):
        x = f32(rng, (rows, cols), -hi, hi)
        xd = x.astype(np.float64)
        e = np.exp(xd - xd.max(axis=1, keepdims=True))
        yield ("%dx%d" % (rows, cols),
               dict(x=x, rows=rows, cols=cols, **{out: None}),
               launch_rows(rows), {out: e / e.sum(axis=1, keepdims=True)}, F32)


def cases_online_sum_coef(rng):
    for (rows, cols), hi in zip(ROWS_COLS, (3, 90, 5)):
        x = f32(rng, (rows, cols), -hi, hi)
        xd = x.astype(np.float64)
        ref = 2 * np.exp(xd - xd.max(axis=1, keepdims=True)).sum(axis=1)
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 64), 64), dict(out=ref), F32)


def cases_online_sum_start_one(rng):
    # Rows all negative too: the max stays at the start, 0.
    for (rows, cols), lo, hi in zip(ROWS_COLS, (-3, -90, -5), (3, 90, -1)):
        x = f32(rng, (rows, cols), lo, hi)
        xd = x.astype(np.float64)
        m = np.maximum(0.0, xd.max(axis=1))
        ref = np.exp(-m) + np.exp(xd - m[:, None]).sum(axis=1)
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 64), 64), dict(out=ref), F32)


def cases_online_softmax(rng):
    for c in softmax_cases(rng, "out", lambda r: L(cdiv(r, 4), 128)):
        c[1]["in"] = c[1].pop("x")
        yield c


def cases_softmax_online_select(rng):
    return softmax_cases(rng, "out", lambda r: L(cdiv(r, 64), 64))


def cases_softmax_online_warp(rng):
    return softmax_cases(rng, "out", lambda r: L(cdiv(r, 2), 64))


def cases_softmax_online_per_thread(rng):
    # Values up to 90: exp would overflow float32 without the running max.
    for (rows, cols), block, hi in zip(ROWS_COLS, (32, 128, 512), (3, 90, 5)):
        x = f32(rng, (rows, cols), -hi, hi)
        xd = x.astype(np.float64)
        e = np.exp(xd - xd.max(axis=1, keepdims=True))
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(out=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, block), block),
               dict(out=e / e.sum(axis=1, keepdims=True)), F32)


def cases_layernorm_struct_stats(rng):
    for (rows, cols), block in zip(ROWS_COLS, (32, 128, 512)):
        x = f32(rng, (rows, cols), -2, 3)
        xd = x.astype(np.float64)
        m = xd.mean(axis=1, keepdims=True)
        v = (xd ** 2).mean(axis=1, keepdims=True) - m ** 2
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(out=None, x=x, rows=rows, cols=cols, eps=1e-5),
               L(cdiv(rows, block), block),
               dict(out=(xd - m) / np.sqrt(v + 1e-5)),
               dict(rtol=1e-3, atol=1e-3))


def cases_layernorm_per_thread(rng):
    for (rows, cols), block in zip(ROWS_COLS, (32, 128, 512)):
        x = f32(rng, (rows, cols), -2, 3)
        g = f32(rng, cols, 0.5, 1.5)
        b = f32(rng, cols, -0.5, 0.5)
        xd = x.astype(np.float64)
        m = xd.mean(axis=1, keepdims=True)
        v = ((xd - m) ** 2).mean(axis=1, keepdims=True)
        s = 1 / np.sqrt(v + 1e-5)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(y=None, mean=None, rstd=None, x=x, g=g, b=b, rows=rows,
                    cols=cols, eps=1e-5),
               L(cdiv(rows, block), block),
               dict(y=(xd - m) * s * g + b, mean=m[:, 0], rstd=s[:, 0]), F32)


def cases_map_read_after_write(rng):
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        y = x + np.float32(1)
        yield ("n=%d" % n, dict(y=None, z=None, x=x, n=n),
               L(cdiv(n, 256), 256), dict(y=y, z=np.float32(2) * y),
               dict(rtol=0, atol=0))


def cases_momentum_read_back(rng):
    lr, beta = np.float32(0.01), np.float32(0.9)
    for n in (3700, 390001):
        w, m, g = f32(rng, n), f32(rng, n, -0.1, 0.1), f32(rng, n, -1, 1)
        m2 = beta * m + g
        yield ("n=%d" % n, dict(w=w.copy(), m=m.copy(), g=g, n=n, lr=lr,
                                beta=beta),
               L(cdiv(n, 256), 256), dict(w=w - lr * m2, m=m2), F32)


def cases_rowsumsq_float4_warp(rng):
    # Rows of 4 floats (a single vector per row, most lanes idle), of more
    # columns than a warp's vectors, and a column count that is not a
    # multiple of 4: the output asserts it (the kernel drops the tail).
    for rows, cols in ((37, 100), (300, 1300), (5, 4)):
        x = f32(rng, (rows, cols), -2, 2)
        ref = (x.astype(np.float64) ** 2).sum(axis=1)
        yield ("%dx%d" % (rows, cols), dict(s=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, 4), 128), dict(s=ref), F32)
    x = f32(rng, (3, 102), -2, 2)
    yield ("3x102", dict(s=None, x=x, rows=3, cols=102), L(1, 128),
           dict(s=np.zeros(3, np.float32)), dict(raises="multiple of 4"))


def cases_rowmax_float4_lanes(rng):
    for rows, cols in ((37, 100), (300, 1300), (3, 4)):
        x = f32(rng, (rows, cols), -5, 5)
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows,
                                            cols=cols),
               L(cdiv(rows, 64), 64), dict(out=x.max(axis=1)),
               dict(rtol=0, atol=0))


def cases_lane_ref_of_memory(rng):
    for n in (1000, 70001):
        x = f32(rng, 4 * n, -4, 4)
        yield ("n=%d" % n, dict(y=None, x4=x, n=n), L(cdiv(n, 128), 128),
               dict(y=np.maximum(0, x.reshape(n, 4).max(axis=1))),
               dict(rtol=0, atol=0))


def cases_ref_to_output(rng):
    a = np.float32(1.5)
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(y=None, x=x, a=a, n=n), L(cdiv(n, 256), 256),
               dict(y=(a * x + np.float32(1)) + x), dict(rtol=0, atol=0))


def cases_ref_local_then_memory(rng):
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(y=None, x=x, n=n), L(cdiv(n, 256), 256),
               dict(y=(x + np.float32(1)) + np.float32(2)),
               dict(rtol=0, atol=0))


def cases_ref_memory_then_local(rng):
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(y=None, z=None, x=x, n=n),
               L(cdiv(n, 256), 256),
               dict(y=x + np.float32(2), z=x * np.float32(2) + np.float32(1)),
               dict(rtol=0, atol=0))


def cases_softmax_write_back(rng):
    for (rows, cols), block in zip(ROWS_COLS, (64, 256, 1024)):
        x = f32(rng, (rows, cols), -6, 6)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(y=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, block), block), dict(y=softmax_ref(x)),
               dict(rtol=1e-4, atol=1e-6))


def cases_layernorm_cg_optional(rng):
    for (rows, cols), block in zip(ROWS_COLS, (128, 256, 64)):
        x = f32(rng, (rows, cols), -2, 3)
        g = f32(rng, cols, 0.5, 1.5)
        b = f32(rng, cols, -0.5, 0.5)
        xd = x.astype(np.float64)
        m = xd.mean(axis=1, keepdims=True)
        v = ((xd - m) ** 2).mean(axis=1, keepdims=True)
        s = 1 / np.sqrt(v + 1e-5)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(y=None, mean=None, rstd=None, x=x, g=g, b=b, rows=rows,
                    cols=cols),
               L(cdiv(rows, block // 32), block),
               dict(y=(xd - m) * s * g + b, mean=m[:, 0], rstd=s[:, 0]), F32)


def cases_row_norm_2d_threads(rng):
    for (rows, cols), (bx, by) in zip(ROWS_COLS, ((32, 4), (16, 16), (64, 4))):
        x = f32(rng, (rows, cols), -3, 3)
        ref = np.sqrt((x.astype(np.float64) ** 2).sum(axis=1))
        yield ("%dx%d block=%dx%d" % (rows, cols, bx, by),
               dict(y=None, x=x, rows=rows, cols=cols),
               L(cdiv(rows, bx * by), bx, 1, by), dict(y=ref), F32)


def cases_row_normalize_inplace(rng):
    for (rows, cols), block in zip(ROWS_COLS, (64, 256, 1024)):
        x = f32(rng, (rows, cols), 0.5, 3)
        ref = x.astype(np.float64) / x.astype(np.float64).sum(axis=1,
                                                                keepdims=True)
        yield ("%dx%d block=%d" % (rows, cols, block),
               dict(x=x.copy(), rows=rows, cols=cols),
               L(cdiv(rows, block), block), dict(x=ref), F32)


def cases_map_inplace_scale(rng):
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(x=x.copy(), s=1.5, n=n),
               L(cdiv(n, 256), 256), dict(x=x * np.float32(1.5) + 1), F32)


def cases_map_col_major_threads(rng):
    for rows, cols in ROWS_COLS[:2]:
        x = f32(rng, (rows, cols), -2, 2)
        w = f32(rng, cols)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, w=w, rows=rows, cols=cols),
               L(cdiv(rows, 16), 16, cdiv(cols, 16), 16),
               dict(out=x * w[None, :]), F32)


def cases_map_grid_stride_2d(rng):
    for (rows, cols), grid in zip(ROWS_COLS[:2], ((1, 2), (3, 5))):
        a = f32(rng, (rows, cols), -2, 2)
        b = f32(rng, rows)
        yield ("%dx%d grid=%dx%d" % (rows, cols, grid[0], grid[1]),
               dict(out=None, a=a, b=b, rows=rows, cols=cols),
               L(grid[0], 32, grid[1], 8), dict(out=a - b[:, None]), F32)


def cases_map_row_div(rng):
    for rows, cols in ROWS_COLS[:2]:
        x = f32(rng, (rows, cols), -2, 2)
        s = f32(rng, rows, 0.5, 2)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, **{"in": x}, scale=s, rows=rows, cols=cols),
               L(cdiv(rows * cols, 256), 256), dict(out=x * s[:, None]), F32)


def cases_col_mean_sq_gs(rng):
    for (rows, cols), grid in zip(ROWS_COLS, (1, 3, 40)):
        x = f32(rng, (rows, cols))
        yield ("%dx%d grid=%d" % (rows, cols, grid),
               dict(out=None, x=x, rows=rows, cols=cols), L(grid, 128),
               dict(out=(x.astype(np.float64) ** 2).sum(axis=0) / rows),
               dict(rtol=1e-4, atol=1e-5))


def cases_col_sum_half(rng):
    for rows, cols in ROWS_COLS[:2]:
        x = rng.uniform(-1, 1, (rows, cols)).astype(np.float16)
        yield ("%dx%d" % (rows, cols),
               dict(out=None, x=x, rows=rows, cols=cols),
               L(cdiv(cols, 256), 256),
               dict(out=x.astype(np.float64).sum(axis=0)),
               dict(rtol=1e-4, atol=1e-3))


def cases_col_max(rng):
    for rows, cols in ROWS_COLS[:1]:
        x = f32(rng, (rows, cols))
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows,
                                            cols=cols),
               L(cdiv(cols, 128), 128), dict(out=x.max(axis=0)), F32)


def cases_row_sum_per_thread(rng):
    for rows, cols in ROWS_COLS[:2]:
        x = f32(rng, (rows, cols))
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows,
                                            cols=cols),
               L(cdiv(rows, 128), 128),
               dict(out=x.astype(np.float64).sum(axis=1)),
               dict(rtol=1e-4, atol=1e-4))


def cases_gemm_tn_naive(rng):
    for M, N, K in ((37, 100, 70), (300, 260, 130)):
        A = f32(rng, (K, M))
        B = f32(rng, (K, N))
        yield ("M=%d N=%d K=%d" % (M, N, K),
               dict(C=None, A=A, B=B, M=M, N=N, K=K),
               L(cdiv(M, 16), 16, cdiv(N, 16), 16),
               dict(C=A.astype(np.float64).T @ B), dict(rtol=1e-4, atol=1e-4))


def cases_gemm_nn_beta(rng):
    for M, N, K in ((37, 100, 70), (130, 600, 200)):
        A = f32(rng, (M, K))
        B = f32(rng, (K, N))
        C = f32(rng, (M, N))
        yield ("M=%d N=%d K=%d" % (M, N, K),
               dict(A=A, B=B, C=C.copy(), M=M, N=N, K=K, alpha=1.5, beta=-0.5),
               L(cdiv(N, 32), 32, cdiv(M, 8), 8),
               dict(C=1.5 * (A.astype(np.float64) @ B) - 0.5 * C),
               dict(rtol=1e-4, atol=1e-4))


def cases_gemm_half_nn(rng):
    for M, N, K in ((37, 100, 70), (200, 300, 260)):
        A = rng.uniform(-1, 1, (M, K)).astype(np.float16)
        B = rng.uniform(-1, 1, (K, N)).astype(np.float16)
        yield ("M=%d N=%d K=%d" % (M, N, K),
               dict(C=None, A=A, B=B, M=M, N=N, K=K),
               L(cdiv(N, 16), 16, cdiv(M, 16), 16),
               dict(C=A.astype(np.float64) @ B.astype(np.float64)),
               dict(rtol=1e-4, atol=1e-4))


def cases_wmma_qk_softmax(rng):
    # 32 keys of head size 64; query counts that are not multiples of the
    # 16-row tile, one over 128 (two tiles of rows).
    for seqQ in (37, 130):
        Q = rng.uniform(-1, 1, (seqQ, 64)).astype(np.float16)
        K = rng.uniform(-1, 1, (32, 64)).astype(np.float16)
        s = Q.astype(np.float64) @ K.astype(np.float64).T * 0.125
        yield ("seqQ=%d" % seqQ,
               dict(P=None, Q=Q, K=K, scale=0.125, seqQ=seqQ),
               L(cdiv(seqQ, 16), 64), dict(P=softmax_ref(s)),
               dict(rtol=1e-4, atol=1e-6))


def cases_wmma_strip_scaled(rng):
    for M in (48, 160):
        A = rng.uniform(-1, 1, (M, 32)).astype(np.float16)
        B = rng.uniform(-1, 1, (32, 64)).astype(np.float16)
        yield ("M=%d" % M, dict(C=None, A=A, B=B, alpha=1.5),
               L(M // 16, 128),
               dict(C=1.5 * (A.astype(np.float64) @ B.astype(np.float64))),
               dict(rtol=1e-4, atol=1e-4))


def cases_gemm_bias_relu(rng):
    M, N, K = 37, 100, 70
    A = f32(rng, (M, K))
    W = f32(rng, (N, K))
    b = f32(rng, N)
    yield ("M=%d N=%d K=%d" % (M, N, K),
           dict(C=None, A=A, W=W, bias=b, M=M, N=N, K=K),
           L(cdiv(N, 16), 16, cdiv(M, 16), 16),
           dict(C=np.maximum(A.astype(np.float64) @ W.T + b, 0)),
           dict(rtol=1e-4, atol=1e-4))


def cases_gemv_per_thread(rng):
    for rows, cols in ROWS_COLS[:2]:
        A = f32(rng, (rows, cols))
        x = f32(rng, cols)
        b = f32(rng, rows)
        yield ("%dx%d" % (rows, cols),
               dict(y=None, A=A, x=x, bias=b, rows=rows, cols=cols),
               L(cdiv(rows, 128), 128),
               dict(y=A.astype(np.float64) @ x + b), dict(rtol=1e-4, atol=1e-4))


def cases_row_absmax_per_thread(rng):
    for rows, cols in ROWS_COLS[:2]:
        x = f32(rng, (rows, cols), -3, 3)
        yield ("%dx%d" % (rows, cols), dict(out=None, x=x, rows=rows,
                                            cols=cols),
               L(cdiv(rows, 64), 64), dict(out=np.abs(x).max(axis=1)), F32)


def cases_map_ptr_offset(rng):
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(out=None, twice=None, **{"in": x}, n=n),
               L(cdiv(n, 256), 256),
               dict(out=np.float32(2) * x + np.float32(1), twice=x + x), F32)


def cases_map_reverse(rng):
    x = f32(rng, 1000)
    yield ("n=1000", dict(out=None, **{"in": x}, n=1000), L(4, 256),
           dict(out=x[::-1].copy()), F32)


def cases_map_int_scale(rng):
    x = rng.integers(-1000, 1000, 1000).astype(np.int32)
    yield ("n=1000", dict(out=None, **{"in": x}, n=1000), L(4, 256),
           dict(out=3 * x + 1), dict())


def cases_map_data_guard(rng):
    x = f32(rng, 1000)
    yield ("n=1000", dict(out=None, **{"in": x}, n=1000), L(4, 256),
           dict(out=np.maximum(x, 0)), F32)


def cases_map_thread_subset(rng):
    for n in (3700, 390001):
        x = f32(rng, n, -3, 3)
        yield ("n=%d" % n, dict(out=None, **{"in": x}, n=n),
               L(cdiv(n, 64), 64), dict(out=np.float32(3) * x), F32)


CASES = {name[len("cases_"):]: fn for name, fn in globals().items()
         if name.startswith("cases_")}


GAP = re.compile(r"^//\s*GAP:\s*(?P<why>.+)$")


def read_gap(path):
    with open(path) as f:
        for line in f:
            m = GAP.match(line.strip())
            if m:
                return m.group("why")
    return None


def read_expectation(path):
    exp = None
    at = None
    with open(path) as f:
        for no, line in enumerate(f, 1):
            m = EXPECT.match(line.strip())
            if m and exp is None:
                exp = (("lift",) if m.group("lift") else
                       ("refuse", m.group("rule"), m.group("sub")))
            if "EXPECT-AT" in line and not line.strip().startswith("//"):
                at = no
    return exp, at


def load(py, name):
    spec = importlib.util.spec_from_file_location("idiom_" + name, py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def shape_of(p, env):
    try:
        return tuple(int(eval(s, {}, dict(env))) for s in p["shape"])
    except Exception:
        return None


def run_case(mod, kernel, args, launch, refs, tol):
    """None when the case matches, else why not."""
    import nki
    spec = mod.PK_KERNELS[kernel]
    params = spec["params"]
    names = [p["name"] for p in params]
    missing = [n for n in args if n not in names]
    if missing:
        return "PK_KERNELS params %s lack %s" % (names, missing)
    env = {p["name"]: args[p["name"]] for p in params
           if p["kind"] == "scalar"}
    env.update(launch)
    call = []
    outs = []
    for p in params:
        v = args.get(p["name"])
        if p["kind"] == "scalar":
            call.append(v)
            continue
        if p.get("role") in ("out", "inout"):
            outs.append(p["name"])
        if p.get("role") in ("in", "inout"):
            if v is None:
                return "'%s' is %s in PK_KERNELS, an output of the CUDA " \
                       "kernel" % (p["name"], p.get("role"))
            shp = shape_of(p, env)
            if shp is None or int(np.prod(shp)) != v.size:
                return "'%s': PK_KERNELS shape %s is %s, the case has %d " \
                       "elements" % (p["name"], p["shape"], shp, v.size)
            call.append(v.reshape(shp).copy())
    for n in launch_names(spec):
        if n not in launch:
            return "launch name '%s' not known to the case" % n
        call.append(launch[n])
    if sorted(outs) != sorted(refs):
        return "outputs in PK_KERNELS %s, expected %s" % (outs, sorted(refs))
    raises = tol.get("raises")
    try:
        got = nki.simulate(getattr(mod, kernel))(*call)
    except BaseException as e:  # assertion, simulator error, Python error
        if raises and isinstance(e, AssertionError) and raises in str(e):
            return None  # the trace-time check the case is about
        msg = str(e).strip().splitlines()
        return "raised %s: %s" % (type(e).__name__, msg[0] if msg else "")
    if raises:
        return "ran, expected its trace-time assert %r" % raises
    if len(outs) == 1:
        got = (got,)
    if not isinstance(got, (tuple, list)) or len(got) != len(outs):
        return "returned %r, expected %d outputs" % (type(got), len(outs))
    bad = []
    for name, g in zip(outs, got):
        ref = np.asarray(refs[name])
        g = np.asarray(g)
        if g.size != ref.size:
            bad.append("%s: shape %s, expected %d elements" %
                       (name, g.shape, ref.size))
            continue
        want_dt = tol.get("dtype", ref.dtype if ref.dtype.kind in "iu"
                          else np.float32)
        if g.dtype != want_dt:
            bad.append("%s: dtype %s, expected %s" % (name, g.dtype,
                                                      np.dtype(want_dt)))
            continue
        gf = g.reshape(ref.shape).astype(np.float64)
        rf = ref.astype(np.float64)
        if not np.allclose(gf, rf, rtol=tol["rtol"], atol=tol["atol"]):
            err = np.abs(gf - rf)
            err[np.isnan(err)] = np.inf
            i = np.unravel_index(np.argmax(err), err.shape)
            bad.append("%s: max |err| %.3g at %s (got %r, want %r; %d of %d "
                       "elements off)" %
                       (name, err[i], tuple(int(k) for k in i), gf[i], rf[i],
                        int((~np.isclose(gf, rf, rtol=tol["rtol"],
                                         atol=tol["atol"])).sum()),
                        gf.size))
    return "; ".join(bad) or None


def launch_names(spec):
    return spec.get("launch", [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pk", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--report", action="store_true",
                    help="print a table of expectations and outcomes; "
                    "exit 0")
    ap.add_argument("--only", nargs="*", default=None)
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.source_dir, "lib", "NKISim"))
    os.makedirs(a.work, exist_ok=True)

    sources = sorted(glob.glob(os.path.join(HERE, "*.cu")))
    if a.only:
        sources = [s for s in sources
                   if os.path.splitext(os.path.basename(s))[0] in a.only]
    out = os.path.join(a.work, "idioms-nki")
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([a.pk, "port", "-q", "--to", "nki", "-o", out] +
                       sources, capture_output=True, text=True)
    findings = {}
    for line in r.stderr.splitlines():
        m = FINDING.match(line.strip())
        if m:
            findings.setdefault(m.group("kernel"), []).append(m)
    pys = {}
    for d, _, fs in os.walk(out):
        for f in fs:
            if f.endswith(".py"):
                pys[f[:-3]] = os.path.join(d, f)

    rows = []  # kernel, expectation, outcome, ok, detail
    for src in sources:
        kernel = os.path.splitext(os.path.basename(src))[0]
        exp, at = read_expectation(src)
        fs = [m for m in findings.get(kernel, []) if m.group("sev") ==
              "warning"]
        where = ["%s:%s" % (os.path.basename(m.group("file")),
                            m.group("line")) for m in fs]
        tool = "; ".join("%s at %s: %s" % (m.group("rule"), w, m.group("msg"))
                         for m, w in zip(fs, where))
        mod = None
        lifted = False
        load_err = None
        if kernel in pys:
            try:
                mod = load(pys[kernel], kernel)
                lifted = kernel in getattr(mod, "PK_KERNELS", {})
            except BaseException as e:
                load_err = "%s: %s" % (type(e).__name__, e)
        if exp is None:
            rows.append((kernel, "?", "-", False, "no EXPECT line"))
            continue
        expect_s = "lift" if exp[0] == "lift" else \
            'refuse %s "%s"' % (exp[1], exp[2])
        if load_err:
            rows.append((kernel, expect_s, "module error", False, load_err))
            continue
        if r.returncode != 0 and not lifted and not fs:
            rows.append((kernel, expect_s, "port failed", False,
                         "port exit %d: %s" % (r.returncode,
                                               r.stderr.strip()[-300:])))
            continue
        if lifted:
            fails = []
            n = 0
            for label, args, launch, refs, tol in CASES[kernel](
                    np.random.default_rng(
                        sum(map(ord, kernel)))) if kernel in CASES else ():
                n += 1
                why = run_case(mod, kernel, args, launch, refs, tol)
                if why:
                    fails.append("%s: %s" % (label, why))
            if kernel not in CASES:
                outcome, detail = "lifted (no cases)", ""
            elif fails:
                raised = all(" raised " in f or ": raised " in f
                             for f in fails)
                outcome = "lifted, RAISES" if raised else "lifted, WRONG"
                detail = "; ".join(fails)
            else:
                outcome, detail = "lifted, matches (%d sizes)" % n, ""
            ok = exp[0] == "lift" and not fails and kernel in CASES
            if ok and read_gap(src):
                ok = False
                detail = "lifts and matches: remove its GAP line"
            if exp[0] != "lift":
                detail = "lifted, a refusal was expected" + \
                    ("; " + detail if detail else "")
            rows.append((kernel, expect_s, outcome, ok, detail))
            continue
        # Not lifted.
        outcome = "refused " + ",".join(sorted({m.group("rule") for m in fs})) \
            if fs else "not lifted, no finding"
        if exp[0] == "lift":
            gap = read_gap(src)
            if gap and len(fs) == 1:
                rows.append((kernel, expect_s + " (gap)", outcome, True,
                             "known gap: %s; %s" % (gap, tool)))
                continue
            rows.append((kernel, expect_s, outcome, False,
                         tool or "no finding for the kernel"))
            continue
        rule, sub = exp[1], exp[2]
        good = [m for m in fs if m.group("rule") == rule and
                sub in m.group("msg") and
                os.path.basename(m.group("file")) == os.path.basename(src) and
                (at is None or int(m.group("line")) == at)]
        ok = len(good) == 1 and len(fs) == 1
        detail = tool
        if not ok:
            detail = "expected %s at %s:%s with \"%s\"; tool: %s" % (
                rule, os.path.basename(src), at if at else "*", sub,
                tool or "no finding")
        rows.append((kernel, expect_s, outcome, ok, detail))

    nfail = sum(1 for x in rows if not x[3])
    if a.report:
        w0 = max(len(x[0]) for x in rows)
        w1 = max(len(x[1]) for x in rows)
        w2 = max(len(x[2]) for x in rows)
        print("| %-*s | %-*s | %-*s | ok | rule and message |" %
              (w0, "kernel", w1, "expectation", w2, "outcome"))
        print("|%s|%s|%s|----|---|" % ("-" * (w0 + 2), "-" * (w1 + 2),
                                        "-" * (w2 + 2)))
        for k, e, o, ok, d in rows:
            print("| %-*s | %-*s | %-*s | %-2s | %s |" %
                  (w0, k, w1, e, w2, o, "ok" if ok else "no",
                   d.replace("|", "\\|")))
        print()
        print("%d kernels: %d as expected, %d not (%d lifted and matching, "
              "%d lifted but wrong or raising)" %
              (len(rows), len(rows) - nfail, nfail,
               sum(1 for x in rows if x[2].startswith("lifted, matches")),
               sum(1 for x in rows if x[2].startswith("lifted, WRONG") or
                   x[2].startswith("lifted, RAISES"))))
        return 0
    for k, e, o, ok, d in rows:
        print("%s%s: expect %s, %s%s" % ("ok   " if ok else "FAIL ", k, e, o,
                                         (" -- " + d) if d else ""))
    print("%d kernels, %d ok, %d FAIL" % (len(rows), len(rows) - nfail,
                                          nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
