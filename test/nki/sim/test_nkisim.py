#!/usr/bin/python3
"""Tests of the NumPy NKI simulator (lib/NKISim/nki): every operation against
NumPy, every limit violated, NaN for unwritten reads, bf16/fp16 rounding,
views, the operation count, and three hand-written kernels.

    python3 test/nki/sim/test_nkisim.py [-v]
"""

import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lib", "NKISim"))
sys.path.insert(0, os.path.join(HERE, "kernels"))
# The hand-written outputs of nki.validate double as simulator test kernels.
sys.path.insert(0, os.path.join(HERE, "..", "validate", "outputs"))

import nki  # noqa: E402
import nki.isa as nisa  # noqa: E402
import nki.language as nl  # noqa: E402

RNG = np.random.default_rng(1234)


def rand(*shape, lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


def sbuf(values, dtype=nl.float32):
    """An SBUF tile holding \\p values."""
    values = np.asarray(values)
    t = nl.ndarray(values.shape, dtype, buffer=nl.sbuf)
    h = nki._core.from_numpy(values, dtype=dtype)
    nisa.dma_copy(dst=t, src=h)
    return t


def vals(t):
    return np.array(t.data, copy=True)


class SimErrorCase(unittest.TestCase):
    def assertSimError(self, fn, *fragments):
        with self.assertRaises(nki.NKISimError) as cm:
            fn()
        msg = str(cm.exception)
        for f in fragments:
            self.assertIn(f, msg)
        # The message names this file and a line of it (the caller).
        self.assertIn(os.path.basename(__file__) + ":", msg)
        return msg


class Ops(unittest.TestCase):
    def test_dma_copy_hbm_sbuf_roundtrip(self):
        x = rand(7, 9)
        t = sbuf(x)
        out = nl.ndarray((7, 9), nl.float32, buffer=nl.shared_hbm)
        nisa.dma_copy(dst=out, src=t)
        np.testing.assert_array_equal(vals(out), x)

    def test_tensor_copy_casts(self):
        x = rand(4, 5) * 100
        t = sbuf(x)
        h = nl.ndarray((4, 5), nl.float16, buffer=nl.sbuf)
        nisa.tensor_copy(dst=h, src=t)
        np.testing.assert_array_equal(vals(h), x.astype(np.float16))
        i = nl.ndarray((4, 5), nl.int32, buffer=nl.sbuf)
        nisa.tensor_copy(dst=i, src=t)
        np.testing.assert_array_equal(vals(i), np.trunc(x).astype(np.int32))

    def test_memset(self):
        t = nl.ndarray((3, 4), nl.float32, buffer=nl.sbuf)
        nisa.memset(dst=t, value=2.5)
        np.testing.assert_array_equal(vals(t), np.full((3, 4), 2.5))
        z = nl.zeros((2, 2), nl.float32)
        np.testing.assert_array_equal(vals(z), np.zeros((2, 2)))

    def test_tensor_tensor_every_binary_op(self):
        a, b = rand(8, 16), rand(8, 16, lo=0.5, hi=2.0)
        ta, tb = sbuf(a), sbuf(b)
        cases = {
            nl.add: a + b, nl.subtract: a - b, nl.multiply: a * b,
            nl.divide: a / b, nl.maximum: np.maximum(a, b),
            nl.minimum: np.minimum(a, b),
            nl.greater: (a > b).astype(np.float32),
            nl.greater_equal: (a >= b).astype(np.float32),
            nl.less: (a < b).astype(np.float32),
            nl.less_equal: (a <= b).astype(np.float32),
            nl.equal: (a == b).astype(np.float32),
            nl.not_equal: (a != b).astype(np.float32),
        }
        for op, want in cases.items():
            d = nl.ndarray((8, 16), nl.float32, buffer=nl.sbuf)
            nisa.tensor_tensor(dst=d, data1=ta, data2=tb, op=op)
            np.testing.assert_allclose(vals(d), want, rtol=1e-6,
                                       err_msg=op.name)

    def test_tensor_scalar_scalar_column_reverse_two_steps(self):
        a = rand(6, 10)
        col = rand(6, 1)
        ta, tc = sbuf(a), sbuf(col)
        d = nl.ndarray((6, 10), nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=d, data=ta, op0=nl.multiply, operand0=3.0)
        np.testing.assert_allclose(vals(d), a * 3, rtol=1e-6)
        nisa.tensor_scalar(dst=d, data=ta, op0=nl.subtract, operand0=tc)
        np.testing.assert_allclose(vals(d), a - col, rtol=1e-6)
        nisa.tensor_scalar(dst=d, data=ta, op0=nl.subtract, operand0=1.0,
                           reverse0=True)
        np.testing.assert_allclose(vals(d), 1.0 - a, rtol=1e-6)
        nisa.tensor_scalar(dst=d, data=ta, op0=nl.add, operand0=tc,
                           op1=nl.multiply, operand1=0.5)
        np.testing.assert_allclose(vals(d), (a + col) * 0.5, rtol=1e-6)

    def test_bitwise_operators_on_integer_tiles(self):
        a = RNG.integers(-2**31, 2**31, (4, 16), dtype=np.int64).astype(
            np.int32)
        ta = sbuf(a, nl.int32)
        d = nl.ndarray((4, 16), nl.int32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=d, data=ta, op0=nl.right_shift, operand0=24,
                           op1=nl.bitwise_and, operand1=255)
        np.testing.assert_array_equal(vals(d), (a >> 24) & 255)
        nisa.tensor_scalar(dst=d, data=ta, op0=nl.left_shift, operand0=24)
        np.testing.assert_array_equal(
            vals(d), (a.astype(np.int64) << 24).astype(np.uint32).view(
                np.int32))
        nisa.tensor_tensor(dst=d, data1=ta, data2=ta, op=nl.bitwise_xor)
        np.testing.assert_array_equal(vals(d), np.zeros((4, 16)))
        b = sbuf(a[::-1].copy(), nl.int32)
        nisa.tensor_tensor(dst=d, data1=ta, data2=b, op=nl.bitwise_or)
        np.testing.assert_array_equal(vals(d), a | a[::-1])
        # Four bytes put back together give the 32-bit pattern.
        r = nl.ndarray((4, 16), nl.int32, buffer=nl.sbuf)
        nisa.memset(dst=r, value=0)
        for k in range(4):
            nisa.tensor_scalar(dst=d, data=ta, op0=nl.right_shift,
                               operand0=8 * k, op1=nl.bitwise_and,
                               operand1=255)
            nisa.tensor_scalar(dst=d, data=d, op0=nl.left_shift,
                               operand0=8 * k)
            nisa.tensor_tensor(dst=r, data1=r, data2=d, op=nl.bitwise_or)
        np.testing.assert_array_equal(vals(r), a)
        with self.assertRaisesRegex(nki.NKISimError, "must be integer"):
            nisa.tensor_scalar(dst=d, data=sbuf(rand(4, 16)),
                               op0=nl.bitwise_and, operand0=1)
        with self.assertRaisesRegex(nki.NKISimError, "shift count"):
            nisa.tensor_scalar(dst=d, data=ta, op0=nl.left_shift,
                               operand0=32)

    def test_tensor_reduce(self):
        a = rand(5, 7, 3)
        ta = sbuf(a)
        for op, fn in ((nl.add, np.sum), (nl.maximum, np.max),
                       (nl.minimum, np.min), (nl.multiply, np.prod)):
            d = nl.ndarray((5, 7, 1), nl.float32, buffer=nl.sbuf)
            nisa.tensor_reduce(dst=d, op=op, data=ta, axis=2, keepdims=True)
            np.testing.assert_allclose(vals(d), fn(a, axis=2, keepdims=True),
                                       rtol=1e-5, err_msg=op.name)
        d = nl.ndarray((5,), nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(dst=d, op=nl.add, data=ta, axis=(1, 2),
                           negate=True)
        np.testing.assert_allclose(vals(d), -a.sum(axis=(1, 2)), rtol=1e-5)

    def test_activation_every_function(self):
        a = rand(4, 33, lo=0.1, hi=2.0)
        bias = rand(4, 1)
        ta, tb = sbuf(a), sbuf(bias)
        x = a * 0.5 + bias
        import math
        erf = np.vectorize(math.erf)
        cases = {
            nl.exp: np.exp(x), nl.tanh: np.tanh(x),
            nl.sqrt: np.sqrt(np.abs(x)) if False else None,
            nl.rsqrt: None, nl.log: None,
            nl.square: x * x, nl.relu: np.maximum(x, 0),
            nl.sigmoid: 1 / (1 + np.exp(-x)), nl.silu: x / (1 + np.exp(-x)),
            nl.gelu: 0.5 * x * (1 + erf(x / np.sqrt(2))),
            nl.gelu_apprx_tanh: 0.5 * x * (1 + np.tanh(
                0.7978845608028654 * (x + 0.044715 * x ** 3))),
            nl.abs: np.abs(x), nl.negative: -x, nl.copy: x,
            nl.reciprocal: 1 / x,
        }
        for op, want in cases.items():
            if want is None:
                continue
            d = nl.ndarray((4, 33), nl.float32, buffer=nl.sbuf)
            nisa.activation(dst=d, op=op, data=ta, bias=tb, scale=0.5)
            np.testing.assert_allclose(vals(d), want, rtol=2e-6, atol=1e-6,
                                       err_msg=op.name)
        # Without bias, positive inputs: sqrt, rsqrt, log.
        for op, want in ((nl.sqrt, np.sqrt(a * 2)),
                         (nl.rsqrt, 1 / np.sqrt(a * 2)),
                         (nl.log, np.log(a * 2))):
            d = nl.ndarray((4, 33), nl.float32, buffer=nl.sbuf)
            nisa.activation(dst=d, op=op, data=ta, scale=2.0)
            np.testing.assert_allclose(vals(d), want, rtol=2e-6,
                                       err_msg=op.name)
        # Per-partition scale.
        sc = rand(4, 1)
        d = nl.ndarray((4, 33), nl.float32, buffer=nl.sbuf)
        nisa.activation(dst=d, op=nl.copy, data=ta, scale=sbuf(sc))
        np.testing.assert_allclose(vals(d), a * sc, rtol=1e-6)

    def test_reciprocal(self):
        a = rand(3, 8, lo=0.5, hi=4)
        d = nl.ndarray((3, 8), nl.float32, buffer=nl.sbuf)
        nisa.reciprocal(dst=d, data=sbuf(a))
        np.testing.assert_allclose(vals(d), 1 / a, rtol=1e-6)

    def test_select(self):
        a, b = rand(4, 6), rand(4, 6)
        pred = nl.ndarray((4, 6), nl.float32, buffer=nl.sbuf)
        ta, tb = sbuf(a), sbuf(b)
        nisa.tensor_tensor(dst=pred, data1=ta, data2=tb, op=nl.greater)
        d = nl.ndarray((4, 6), nl.float32, buffer=nl.sbuf)
        nisa.select(dst=d, predicate=pred, on_true=ta, on_false=tb)
        np.testing.assert_array_equal(vals(d), np.maximum(a, b))
        nisa.select(dst=d, predicate=pred, on_true=ta, on_false=0.0)
        np.testing.assert_array_equal(vals(d), np.where(a > b, a, 0))

    def test_iota(self):
        # Along the free axis, from an offset, per partition.
        d = nl.ndarray((3, 8), nl.float32, buffer=nl.sbuf)
        nisa.iota(dst=d, pattern=[[1, 8]], offset=5)
        np.testing.assert_array_equal(
            vals(d), np.tile(np.arange(5, 13, dtype=np.float32), (3, 1)))
        # Steps, two pattern levels and a channel multiplier, into int32.
        e = nl.ndarray((4, 6), nl.int32, buffer=nl.sbuf)
        nisa.iota(dst=e, pattern=[[10, 2], [-1, 3]], offset=7,
                  channel_multiplier=100)
        want = np.array([[7 + 100 * p + 10 * w - x for w in range(2)
                          for x in range(3)] for p in range(4)])
        np.testing.assert_array_equal(vals(e), want)
        # A view: the columns it covers only.
        f = nl.ndarray((2, 8), nl.float32, buffer=nl.sbuf)
        nisa.memset(dst=f, value=-1.0)
        nisa.iota(dst=f[0:2, 0:3], pattern=[[1, 3]], offset=0)
        np.testing.assert_array_equal(vals(f)[:, :3], [[0, 1, 2]] * 2)
        np.testing.assert_array_equal(vals(f)[:, 3:], -np.ones((2, 5)))
        # Exact integers in float32 up to 2**24.
        g = nl.ndarray((1, 4), nl.float32, buffer=nl.sbuf)
        nisa.iota(dst=g, pattern=[[1, 4]], offset=2**24 - 2)
        np.testing.assert_array_equal(
            vals(g), [[2**24 - 2, 2**24 - 1, 2**24, 2**24]])

    def test_nc_transpose(self):
        a = rand(100, 37)
        p = nl.ndarray((37, 100), nl.float32, buffer=nl.psum)
        nisa.nc_transpose(dst=p, data=sbuf(a))
        np.testing.assert_array_equal(vals(p), a.T)

    def test_nc_matmul_overwrites_then_accumulates(self):
        s1, m1 = rand(128, 64), rand(128, 300)
        s2, m2 = rand(20, 64), rand(20, 300)
        acc = nl.ndarray((64, 300), nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=acc, stationary=sbuf(s1), moving=sbuf(m1))
        want1 = s1.astype(np.float64).T @ m1
        np.testing.assert_allclose(vals(acc), want1, rtol=1e-5, atol=1e-5)
        nisa.nc_matmul(dst=acc, stationary=sbuf(s2), moving=sbuf(m2))
        want2 = want1 + s2.astype(np.float64).T @ m2
        np.testing.assert_allclose(vals(acc), want2, rtol=1e-5, atol=1e-5)
        nisa.nc_matmul(dst=acc, stationary=sbuf(s2), moving=sbuf(m2),
                       accumulate=True)
        np.testing.assert_allclose(vals(acc),
                                   want2 + s2.astype(np.float64).T @ m2,
                                   rtol=1e-5, atol=1e-5)
        nisa.nc_matmul(dst=acc, stationary=sbuf(s2), moving=sbuf(m2),
                       accumulate=False)
        np.testing.assert_allclose(vals(acc), s2.astype(np.float64).T @ m2,
                                   rtol=1e-5, atol=1e-5)

    def test_psum_accumulates_in_float32(self):
        # Integer sums are exact in the fp32 accumulator below 2**24 and
        # lose the odd unit above it, call by call, as float32 additions.
        ones = sbuf(np.ones((1, 4), np.float32))
        big = sbuf(np.full((1, 4), 2.0 ** 24, np.float32))
        acc = nl.ndarray((4, 4), nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=acc, stationary=ones, moving=big)
        for _ in range(3):
            nisa.nc_matmul(dst=acc, stationary=ones, moving=ones)
        np.testing.assert_array_equal(vals(acc), np.full((4, 4), 2.0 ** 24))
        acc = nl.ndarray((4, 4), nl.float32, buffer=nl.psum)
        below = sbuf(np.full((1, 4), 2.0 ** 24 - 4, np.float32))
        nisa.nc_matmul(dst=acc, stationary=ones, moving=below)
        for _ in range(3):
            nisa.nc_matmul(dst=acc, stationary=ones, moving=ones)
        np.testing.assert_array_equal(vals(acc),
                                      np.full((4, 4), 2.0 ** 24 - 1))
        # A call's result is rounded to float32 before it is added: 2**-24
        # + 2**-50 becomes 2**-24, and 1 + 2**-24 ties to even, 1.0 (one
        # rounding of 1 + 2**-24 + 2**-50 would give 1 + 2**-23).
        one = sbuf(np.ones((1, 1), np.float32))
        acc = nl.ndarray((1, 1), nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=acc, stationary=one, moving=one)
        f = sbuf(np.array([[2.0 ** -12], [2.0 ** -25]], np.float32))
        nisa.nc_matmul(dst=acc, stationary=f, moving=f)
        np.testing.assert_array_equal(vals(acc), [[1.0]])

    def test_nc_matmul_bf16_operands(self):
        s, m = rand(32, 16), rand(32, 24)
        acc = nl.ndarray((16, 24), nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=acc, stationary=sbuf(s, nl.bfloat16),
                       moving=sbuf(m, nl.bfloat16))
        sb = nki._core.bf16_round(s).astype(np.float64)
        mb = nki._core.bf16_round(m).astype(np.float64)
        np.testing.assert_allclose(vals(acc), sb.T @ mb, rtol=1e-6,
                                   atol=1e-6)


class Views(unittest.TestCase):
    def test_slices_ds_and_ints_write_through(self):
        t = nl.ndarray((4, 10), nl.float32, buffer=nl.sbuf)
        nisa.memset(dst=t, value=0.0)
        nisa.memset(dst=t[1:3, nl.ds(2, 5)], value=1.0)
        nisa.memset(dst=t[3, :], value=2.0)
        want = np.zeros((4, 10), np.float32)
        want[1:3, 2:7] = 1
        want[3, :] = 2
        np.testing.assert_array_equal(vals(t), want)
        self.assertEqual(t[0:2, :].shape, (2, 10))
        self.assertEqual(t[nl.ds(1, 3), 4].shape, (3,))

    def test_hbm_reshape_view(self):
        x = rand(12)
        h = nki._core.from_numpy(x)
        t = nl.ndarray((3, 4), nl.float32, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=h.reshape((3, 4)))
        np.testing.assert_array_equal(vals(t), x.reshape(3, 4))


class Uninitialised(unittest.TestCase):
    def test_unwritten_reads_show_as_nan(self):
        t = nl.ndarray((2, 8), nl.float32, buffer=nl.sbuf)
        nisa.memset(dst=t[:, 0:4], value=1.0)
        out = nl.ndarray((2, 8), nl.float32, buffer=nl.shared_hbm)
        nisa.dma_copy(dst=out, src=t)
        v = vals(out)
        self.assertTrue(np.all(v[:, :4] == 1.0))
        self.assertTrue(np.all(np.isnan(v[:, 4:])))
        d = nl.ndarray((2, 1), nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(dst=d, op=nl.add, data=t, axis=1, keepdims=True)
        self.assertTrue(np.all(np.isnan(vals(d))))

    def test_integers_get_a_fixed_pattern(self):
        t = nl.ndarray((2, 3), nl.int32, buffer=nl.sbuf)
        self.assertTrue(np.all(vals(t).view(np.uint32) == 0xDEADBEEF))
        u = nl.ndarray((2, 3), nl.uint8, buffer=nl.sbuf)
        self.assertTrue(np.all(vals(u) == 0xEF))


class Rounding(unittest.TestCase):
    def test_bf16_round_to_nearest_even(self):
        one = 1.0
        ulp = 2.0 ** -7  # bf16 spacing at 1.0
        x = np.array([one + ulp / 2,          # tie, even below -> 1.0
                      one + 3 * ulp / 2,      # tie, even above -> 1 + 2ulp
                      one + ulp / 2 + 2 ** -20,  # above the tie -> 1 + ulp
                      3.4e38, -0.0, np.inf], dtype=np.float32)
        t = sbuf(x, nl.bfloat16)
        got = vals(t)
        self.assertEqual(got[0], 1.0)
        self.assertEqual(got[1], one + 2 * ulp)
        self.assertEqual(got[2], one + ulp)
        self.assertEqual(got[3], np.inf)  # above bf16's largest finite
        self.assertEqual(got[5], np.inf)
        self.assertTrue(np.signbit(got[4]))
        t2 = nl.ndarray((6,), nl.bfloat16, buffer=nl.sbuf)
        nisa.tensor_copy(dst=t2, src=sbuf(x))
        np.testing.assert_array_equal(vals(t2), got)
        # Stored values are bf16: the low 16 bits are zero.
        self.assertTrue(np.all(got.view(np.uint32) & 0xFFFF == 0))

    def test_bf16_nan_stays_nan(self):
        t = nl.ndarray((1, 2), nl.bfloat16, buffer=nl.sbuf)
        self.assertTrue(np.all(np.isnan(vals(t))))

    def test_fp16_rounding(self):
        x = np.array([1 + 2 ** -11, 1 + 3 * 2 ** -11, 70000.0],
                     dtype=np.float32)
        got = vals(sbuf(x, nl.float16))
        self.assertEqual(got[0], 1.0)
        self.assertEqual(got[1], np.float16(1 + 2 ** -9))
        self.assertEqual(got[2], np.inf)


class Limits(SimErrorCase):
    def test_partition_dimension(self):
        self.assertSimError(lambda: nl.ndarray((256, 4), nl.float32,
                                               buffer=nl.sbuf),
                            "partition dimension 256 exceeds maximum 128")
        # HBM tensors have no partition limit.
        nl.ndarray((256, 4), nl.float32, buffer=nl.shared_hbm)

    def test_iota_checks(self):
        d = nl.ndarray((4, 8), nl.float32, buffer=nl.sbuf)
        ps = nl.ndarray((4, 8), nl.float32, buffer=nl.psum)
        self.assertSimError(
            lambda: nisa.iota(dst=ps, pattern=[[1, 8]], offset=0),
            "iota writes SBUF", "[NKI docs: nki.isa.iota]")
        self.assertSimError(
            lambda: nisa.iota(dst=d, pattern=[[1, 7]], offset=0),
            "generates 7 elements per partition but dst [4, 8] holds 8")
        self.assertSimError(
            lambda: nisa.iota(dst=d, pattern=[[1, 8]], offset=0.5),
            "offset must be an integer")
        self.assertSimError(
            lambda: nisa.iota(dst=d, pattern=[1, 8], offset=0),
            "must be a [step, num] pair")
        self.assertSimError(
            lambda: nisa.iota(dst=d, pattern=[[1, 2]] * 5, offset=0),
            "1 to 4 [step, num] pairs")
        self.assertSimError(
            lambda: nisa.iota(dst=d, pattern=[[1, 8]], offset=2**31 - 4),
            "32-bit integer range")

    def test_psum_bank(self):
        nl.ndarray((128, 512), nl.float32, buffer=nl.psum)
        self.assertSimError(lambda: nl.ndarray((128, 513), nl.float32,
                                               buffer=nl.psum),
                            "exceeds one 2 KiB bank")

    def _mm(self, k, m, n, sbuf_ops=True, psum_dst=True, dst_dtype=None):
        st = nl.ndarray((k, m), nl.float32,
                        buffer=nl.sbuf if sbuf_ops else nl.shared_hbm)
        mv = nl.ndarray((k, n), nl.float32, buffer=nl.sbuf)
        d = nl.ndarray((m, n), dst_dtype or nl.float32,
                       buffer=nl.psum if psum_dst else nl.sbuf)
        nisa.nc_matmul(dst=d, stationary=st, moving=mv)

    def test_matmul_contraction(self):
        st = nl.ndarray((128, 4), nl.float32, buffer=nl.sbuf)
        mv = nl.ndarray((128, 4), nl.float32, buffer=nl.sbuf)
        d = nl.ndarray((4, 4), nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=d, stationary=st, moving=mv)
        big = nl.ndarray((256, 4), nl.float32, buffer=nl.shared_hbm)
        self.assertSimError(
            lambda: nisa.nc_matmul(dst=d, stationary=big, moving=mv),
            "must be in SBUF")
        mv2 = nl.ndarray((64, 4), nl.float32, buffer=nl.sbuf)
        self.assertSimError(
            lambda: nisa.nc_matmul(dst=d, stationary=st, moving=mv2),
            "contraction (partition) dimensions differ")

    def test_matmul_free_sizes(self):
        st = nl.ndarray((64, 129), nl.float32, buffer=nl.sbuf)
        mv8 = nl.ndarray((64, 8), nl.float32, buffer=nl.sbuf)
        d8 = nl.ndarray((128, 8), nl.float32, buffer=nl.psum)
        self.assertSimError(
            lambda: nisa.nc_matmul(dst=d8, stationary=st, moving=mv8),
            "stationary free size 129 exceeds maximum 128")
        self.assertSimError(lambda: self._mm(64, 8, 513),
                            "exceeds one 2 KiB bank")
        mv = nl.ndarray((64, 513), nl.float32, buffer=nl.sbuf)
        st = nl.ndarray((64, 1), nl.float32, buffer=nl.sbuf)
        d = nl.ndarray((1, 512), nl.float32, buffer=nl.psum)
        self.assertSimError(
            lambda: nisa.nc_matmul(dst=d, stationary=st, moving=mv),
            "moving free size 513 exceeds maximum 512")

    def test_matmul_dst_and_operand_buffers(self):
        self.assertSimError(lambda: self._mm(8, 8, 8, psum_dst=False),
                            "matmul results go to PSUM")
        self.assertSimError(lambda: self._mm(8, 8, 8, sbuf_ops=False),
                            "must be in SBUF")
        self.assertSimError(lambda: self._mm(8, 8, 8, dst_dtype=nl.bfloat16),
                            "the PSUM accumulator is float32")

    def test_matmul_accumulate_true_on_unwritten(self):
        st = nl.ndarray((8, 8), nl.float32, buffer=nl.sbuf)
        nisa.memset(dst=st, value=1.0)
        d = nl.ndarray((8, 8), nl.float32, buffer=nl.psum)
        self.assertSimError(
            lambda: nisa.nc_matmul(dst=d, stationary=st, moving=st,
                                   accumulate=True),
            "accumulate=True into a PSUM tile that has not been written")

    def test_dma_from_psum(self):
        p = nl.ndarray((4, 4), nl.float32, buffer=nl.psum)
        out = nl.ndarray((4, 4), nl.float32, buffer=nl.shared_hbm)
        self.assertSimError(lambda: nisa.dma_copy(dst=out, src=p),
                            "DMA cannot read PSUM")

    def test_reduce_over_partition_axis(self):
        t = sbuf(rand(4, 4))
        d = nl.ndarray((1, 4), nl.float32, buffer=nl.sbuf)
        self.assertSimError(
            lambda: nisa.tensor_reduce(dst=d, op=nl.add, data=t, axis=0),
            "cannot reduce over axis 0")

    def test_compute_reads_on_chip_only(self):
        h = nl.ndarray((4, 4), nl.float32, buffer=nl.shared_hbm)
        d = nl.ndarray((4, 4), nl.float32, buffer=nl.sbuf)
        self.assertSimError(
            lambda: nisa.tensor_tensor(dst=d, data1=h, data2=d, op=nl.add),
            "compute engines read and write SBUF or PSUM only")

    def test_shapes_must_match(self):
        a = nl.ndarray((4, 4), nl.float32, buffer=nl.sbuf)
        b = nl.ndarray((4, 5), nl.float32, buffer=nl.sbuf)
        self.assertSimError(
            lambda: nisa.tensor_tensor(dst=a, data1=a, data2=b, op=nl.add),
            "data1 has shape [4, 4] but data2 has shape [4, 5]")
        self.assertSimError(
            lambda: nisa.tensor_scalar(dst=a, data=a, op0=nl.add,
                                       operand0=b),
            "a tensor operand must be a (4, 1) column")

    def test_out_of_bounds_and_empty_slices(self):
        t = nl.ndarray((4, 8), nl.float32, buffer=nl.sbuf)
        self.assertSimError(lambda: t[0:5, :], "out of bounds")
        self.assertSimError(lambda: t[:, nl.ds(6, 4)], "out of bounds")
        self.assertSimError(lambda: t[2:2, :], "empty")
        self.assertSimError(lambda: t[4], "out of bounds")

    def test_wrong_operator_kind(self):
        t = sbuf(rand(2, 2))
        self.assertSimError(
            lambda: nisa.activation(dst=t, op=nl.add, data=t),
            "nl.add is not an activation function")
        self.assertSimError(
            lambda: nisa.tensor_reduce(dst=t, op=nl.subtract, data=t,
                                       axis=1, keepdims=True),
            "is not a reduction")

    def test_removed_legacy_api(self):
        for name in ("arange", "mgrid", "program_id", "load_transpose2d"):
            self.assertFalse(hasattr(nl, name), name)

    def test_error_names_the_kernel_line(self):
        @nki.jit
        def bad(x):
            t = nl.ndarray((300, 2), nl.float32, buffer=nl.sbuf)  # line L
            return t
        with self.assertRaises(nki.NKISimError) as cm:
            nki.simulate(bad)(np.zeros(2, np.float32))
        line = bad.fn.__code__.co_firstlineno + 2
        self.assertIn("%s:%d: error: nl.ndarray: partition dimension 300 "
                      "exceeds maximum 128" % (__file__, line),
                      str(cm.exception))


class Counting(unittest.TestCase):
    def test_each_isa_call_counts_once(self):
        @nki.jit
        def k(x):
            t = nl.ndarray((2, 4), nl.float32, buffer=nl.sbuf)  # not counted
            nisa.dma_copy(dst=t, src=x)
            for _ in range(3):
                nisa.tensor_scalar(dst=t, data=t, op0=nl.add, operand0=1.0)
            out = nl.ndarray((2, 4), nl.float32, buffer=nl.shared_hbm)
            nisa.dma_copy(dst=out, src=t)
            return out
        r = nki.simulate(k)(np.zeros((2, 4), np.float32))
        np.testing.assert_array_equal(r, np.full((2, 4), 3.0))
        self.assertEqual(nki.op_count(), 5)
        self.assertEqual(nki.op_counts(), {"dma_copy": 2, "tensor_scalar": 3})


class Kernels(unittest.TestCase):
    def test_saxpy_ragged(self):
        import saxpy as saxpy_nki
        for n in (1, 511, 512, 3000, 128 * 512 + 700):
            x, y = rand(n), rand(n)
            r = nki.simulate(saxpy_nki.saxpy)(y, x, 2.5, n)
            np.testing.assert_array_equal(r, np.float32(2.5) * x + y)

    def test_row_softmax(self):
        import warp_softmax as softmax_nki
        for rows, cols in ((37, 100), (200, 33)):
            x = rand(rows, cols, lo=-6, hi=6)
            r = nki.simulate(softmax_nki.softmax_warp_per_row)(x, rows, cols)
            e = np.exp(x.astype(np.float64) - x.max(1, keepdims=True))
            np.testing.assert_allclose(r, e / e.sum(1, keepdims=True),
                                       rtol=1e-5, atol=1e-7)
        self.assertEqual(nki.op_count(), 2 * 8)  # two row tiles

    def test_sgemm_k_tiled(self):
        import sgemm_nki
        M, N, K = 150, 600, 300  # two M tiles, two N tiles, three K tiles
        A, B, C = rand(M, K), rand(K, N), rand(M, N)
        r = nki.simulate(sgemm_nki.sgemm_tiled)(A, B, C, M, N, K, 1.5, -0.5)
        want = 1.5 * (A.astype(np.float64) @ B) - 0.5 * C
        np.testing.assert_allclose(r, want, rtol=1e-4, atol=1e-4)
        self.assertEqual(nki.op_counts()["nc_matmul"], 2 * 2 * 3)


if __name__ == "__main__":
    unittest.main()
