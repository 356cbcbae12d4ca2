#!/usr/bin/python3
"""Tests of lib/NKISim/pk_nki_run.py (the PK_KERNELS calling convention):
outputs written back, elements beyond the shape kept, bf16 buffers, a kernel
that was not lifted, interface errors, simulator errors naming the kernel
line, --target choosing the SBUF capacity, outputs outside nl.shared_hbm.

    python3 test/nki/sim/test_runner.py [-v]
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RUNNER = os.path.join(ROOT, "lib", "NKISim", "pk_nki_run.py")
KERNELS = os.path.join(HERE, "kernels")
# The hand-written outputs of nki.validate double as runner test kernels.
OUTPUTS = os.path.join(HERE, "..", "validate", "outputs")

HEADER = """import nki
import nki.language as nl
import nki.isa as nisa
"""


def run(module, kernel, case_dir, extra=()):
    res = os.path.join(case_dir, "result.json")
    p = subprocess.run([sys.executable, RUNNER, "--result", res, *extra,
                        module, kernel, os.path.join(case_dir, "case.json")],
                       capture_output=True, text=True)
    with open(res) as f:
        return p.returncode, json.load(f)


def make_case(d, args, grid=(1, 1, 1), block=(1, 1, 1)):
    """args: (name, type, ndarray-or-scalar, output?)."""
    out = []
    for i, a in enumerate(args):
        name, ty, v = a[:3]
        is_out = len(a) > 3 and a[3]
        if isinstance(v, np.ndarray):
            f = "arg%d.bin" % i
            v.tofile(os.path.join(d, f))
            e = {"name": name, "type": ty, "count": int(v.size), "file": f}
            if is_out:
                e.update(output=True, result="out%d.bin" % i)
        else:
            e = {"name": name, "type": ty, "value": v}
        out.append(e)
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump({"grid": list(grid), "block": list(block), "args": out}, f)


class Runner(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        p = os.path.join(self.d, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_saxpy_inout_and_op_count(self):
        rng = np.random.default_rng(5)
        y = rng.uniform(-1, 1, 3000).astype("<f4")
        x = rng.uniform(-1, 1, 3000).astype("<f4")
        make_case(self.d, [("y", "float", y, True), ("x", "float", x, False),
                           ("a", "float", 2.5), ("n", "int", 3000)])
        code, r = run(os.path.join(OUTPUTS, "saxpy.py"), "saxpy", self.d)
        self.assertEqual((code, r["status"], r["backend"]),
                         (0, "ok", "simulator"))
        self.assertEqual(r["ops"], 10)
        got = np.fromfile(os.path.join(self.d, "out0.bin"), "<f4")
        np.testing.assert_array_equal(got, np.float32(2.5) * x + y)

    def test_target_sets_the_sbuf_capacity(self):
        """A tile of 200,000 bytes per partition: over trn1's 192 KiB of
        SBUF per partition, within trn2's 224 KiB (--target)."""
        mod = self.write("big.py", HEADER + """

@nki.jit
def big(x):
    out = nl.ndarray((1, 4), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((1, 50000), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t[0:1, 0:4], src=x)
    nisa.dma_copy(dst=out, src=t[0:1, 0:4])
    return out


PK_KERNELS = {"big": {"params": [
    {"name": "x", "kind": "tensor", "dtype": "float32", "shape": ["1", "4"],
     "role": "inout"}], "launch": []}}
""")
        x = np.arange(4, dtype="<f4")
        make_case(self.d, [("x", "float", x, True)])
        code, r = run(mod, "big", self.d)
        self.assertEqual((code, r["kind"]), (1, "simulator"), r)
        self.assertIn("192 KiB per partition of SBUF on trn1", r["message"])
        code, r = run(mod, "big", self.d, ["--target", "trn2"])
        self.assertEqual((code, r["status"]), (0, "ok"), r)

    def test_output_in_hbm_is_refused(self):
        mod = self.write("hbm_out.py", HEADER + """

@nki.jit
def hbm_out(x):
    out = nl.ndarray((4,), dtype=nl.float32, buffer=nl.hbm)
    nisa.dma_copy(dst=out, src=x)
    return out


PK_KERNELS = {"hbm_out": {"params": [
    {"name": "x", "kind": "tensor", "dtype": "float32", "shape": ["4"],
     "role": "inout"}], "launch": []}}
""")
        make_case(self.d, [("x", "float", np.zeros(4, "<f4"), True)])
        code, r = run(mod, "hbm_out", self.d)
        self.assertEqual((code, r["kind"]), (1, "simulator"), r)
        self.assertIn("buffer=nl.shared_hbm", r["message"])

    def test_row_softmax_out_role(self):
        rng = np.random.default_rng(7)
        x = rng.uniform(-6, 6, 37 * 100).astype("<f4")
        out = np.zeros(37 * 100, "<f4")
        make_case(self.d, [("in", "float", x, False),
                           ("out", "float", out, True),
                           ("rows", "int", 37), ("cols", "int", 100)])
        code, r = run(os.path.join(OUTPUTS, "warp_softmax.py"),
                      "softmax_warp_per_row", self.d)
        self.assertEqual((code, r["ops"]), (0, 8), r)
        got = np.fromfile(os.path.join(self.d, "out1.bin"), "<f4")
        x2 = x.reshape(37, 100).astype(np.float64)
        e = np.exp(x2 - x2.max(1, keepdims=True))
        np.testing.assert_allclose(got.reshape(37, 100),
                                   e / e.sum(1, keepdims=True), rtol=1e-5,
                                   atol=1e-7)

    def test_sgemm_k_tiled_inout(self):
        rng = np.random.default_rng(8)
        M, N, K = 130, 40, 260
        A = rng.uniform(-1, 1, M * K).astype("<f4")
        B = rng.uniform(-1, 1, K * N).astype("<f4")
        C = rng.uniform(-1, 1, M * N).astype("<f4")
        make_case(self.d, [("A", "float", A), ("B", "float", B),
                           ("C", "float", C, True), ("M", "int", M),
                           ("N", "int", N), ("K", "int", K),
                           ("alpha", "float", 1.5), ("beta", "float", -0.5)])
        code, r = run(os.path.join(KERNELS, "sgemm_nki.py"), "sgemm_tiled",
                      self.d)
        self.assertEqual(code, 0, r)
        self.assertEqual(r["ops_by_name"]["nc_matmul"], 2 * 3)
        got = np.fromfile(os.path.join(self.d, "out2.bin"), "<f4")
        want = (1.5 * (A.reshape(M, K).astype(np.float64) @ B.reshape(K, N))
                - 0.5 * C.reshape(M, N))
        np.testing.assert_allclose(got.reshape(M, N), want, rtol=1e-4,
                                   atol=1e-4)

    def test_elements_beyond_the_shape_keep_their_values(self):
        rng = np.random.default_rng(6)
        y = rng.uniform(-1, 1, 100).astype("<f4")
        x = rng.uniform(-1, 1, 100).astype("<f4")
        make_case(self.d, [("y", "float", y, True), ("x", "float", x, False),
                           ("a", "float", 2.0), ("n", "int", 60)])
        code, r = run(os.path.join(OUTPUTS, "saxpy.py"), "saxpy", self.d)
        self.assertEqual(code, 0, r)
        got = np.fromfile(os.path.join(self.d, "out0.bin"), "<f4")
        np.testing.assert_array_equal(got[:60], 2 * x[:60] + y[:60])
        np.testing.assert_array_equal(got[60:], y[60:])

    def test_bf16_buffers_out_role_and_launch_dims(self):
        mod = self.write("scale_bf16.py", HEADER + """

@nki.jit
def scale(x, n, block_x):
    out = nl.ndarray((n,), dtype=nl.bfloat16, buffer=nl.shared_hbm)
    t = nl.ndarray((1, n), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=t, src=x.reshape((1, n)))
    nisa.tensor_scalar(dst=t, data=t, op0=nl.multiply, operand0=float(block_x))
    nisa.dma_copy(dst=out.reshape((1, n)), src=t)
    return out


PK_KERNELS = {
  "scale": {
    "params": [
      {"name": "out", "kind": "tensor", "dtype": "bfloat16", "shape": ["n"], "role": "out"},
      {"name": "x", "kind": "tensor", "dtype": "bfloat16", "shape": ["n"], "role": "in"},
      {"name": "n", "kind": "scalar", "dtype": "int32"},
    ],
    "launch": ["block_x"],
  },
}
""")
        x = np.array([0x3F80, 0x3FC0, 0xC000, 0x3F81], dtype="<u2")  # 1 1.5 -2 1+2^-7
        out = np.zeros(4, dtype="<u2")
        make_case(self.d, [("out", "bf16", out, True), ("x", "bf16", x, False),
                           ("n", "int", 4)], block=(3, 1, 1))
        code, r = run(mod, "scale", self.d)
        self.assertEqual(code, 0, r)
        got = np.fromfile(os.path.join(self.d, "out0.bin"), "<u2")
        # 3, 4.5, -6, 3 * (1 + 2^-7) = 3.0234375 -> bf16 3.015625 or 3.03125
        want = np.array([0x4040, 0x4090, 0xC0C0, 0x4042], dtype=np.uint16)
        np.testing.assert_array_equal(got, want)

    def test_not_lifted_reports_the_diagnostic(self):
        mod = self.write("part.py", HEADER + """
# part.cu:12:3: warning: kernel 'scatter' not lifted: data-dependent store index [PK5010]
# part.cu:30:1: warning: kernel 'other' not lifted: atomics [PK5011]

PK_KERNELS = {}
""")
        make_case(self.d, [("n", "int", 4)])
        code, r = run(mod, "scatter", self.d)
        self.assertEqual((code, r["status"]), (1, "not-lifted"))
        self.assertIn("kernel 'scatter' was not lifted", r["message"])
        self.assertEqual(r["detail"], "part.cu:12:3: warning: kernel "
                         "'scatter' not lifted: data-dependent store index "
                         "[PK5010]")

    def test_interface_errors(self):
        y = np.zeros(8, "<f4")
        make_case(self.d, [("y", "int", y.view("<i4"), True),
                           ("x", "float", y, False),
                           ("a", "float", 2.5), ("n", "int", 8)])
        code, r = run(os.path.join(OUTPUTS, "saxpy.py"), "saxpy", self.d)
        self.assertEqual((code, r["kind"]), (1, "interface"))
        self.assertIn("parameter 'y' is float32 in the NKI output but the "
                      "case's 'y' is int", r["message"])
        make_case(self.d, [("y", "float", y, True), ("x", "float", y, False),
                           ("a", "float", 2.5), ("n", "int", 9)])
        code, r = run(os.path.join(OUTPUTS, "saxpy.py"), "saxpy", self.d)
        self.assertEqual((code, r["kind"]), (1, "interface"))
        self.assertIn("'y' has shape [9] = 9 elements but the case's buffer "
                      "'y' has 8", r["message"])

    def test_a_kernel_that_returns_nothing(self):
        mod = self.write("none.py", HEADER + """

@nki.jit
def k(x, n):
    return None


PK_KERNELS = {
  "k": {
    "params": [
      {"name": "x", "kind": "tensor", "dtype": "float32", "shape": ["n"], "role": "inout"},
      {"name": "n", "kind": "scalar", "dtype": "int32"},
    ],
    "launch": [],
  },
}
""")
        make_case(self.d, [("x", "float", np.zeros(1, "<f4"), True),
                           ("n", "int", 1)])
        code, r = run(mod, "k", self.d)
        self.assertEqual((code, r["kind"]), (1, "interface"))
        self.assertIn("returned None for 'x'", r["message"])

    def test_simulator_error_names_the_kernel_line(self):
        mod = self.write("wide.py", HEADER + """

@nki.jit
def wide(x, n):
    out = nl.ndarray((n,), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.ndarray((n, 1), dtype=nl.float32, buffer=nl.sbuf)
    return out


PK_KERNELS = {
  "wide": {
    "params": [
      {"name": "x", "kind": "tensor", "dtype": "float32", "shape": ["n"], "role": "inout"},
      {"name": "n", "kind": "scalar", "dtype": "int32"},
    ],
    "launch": [],
  },
}
""")
        make_case(self.d, [("x", "float", np.zeros(256, "<f4"), True),
                           ("n", "int", 256)])
        code, r = run(mod, "wide", self.d)
        self.assertEqual((code, r["kind"]), (1, "simulator"))
        self.assertEqual(r["message"], "%s:9: error: nl.ndarray: partition "
                         "dimension 256 exceeds maximum 128" % mod)


if __name__ == "__main__":
    unittest.main()
