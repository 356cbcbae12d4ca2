#!/usr/bin/python3
"""Deliberately wrong NKI kernels (test/nki/sim/wrong/*.py), one per rule of
the hardware the simulator enforces: each `wrong` kernel must be rejected
with the documentation's reason (every fragment of its EXPECT list in the
message, which names the kernel's file and line), and its `right` twin must
run and match `reference`.  int_arithmetic.py instead checks that integer
arithmetic follows the engines (float32 adds, logical right shifts).

    python3 test/nki/sim/test_wrong.py [-v]
"""

import glob
import importlib.util
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
WRONG = os.path.join(HERE, "wrong")
sys.path.insert(0, os.path.join(ROOT, "lib", "NKISim"))

import nki  # noqa: E402


def load(path):
    name = "pk_wrong_" + os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Wrong(unittest.TestCase):
    def check_rule(self, path):
        mod = load(path)
        with self.assertRaises(nki.NKISimError) as cm:
            nki.simulate(mod.wrong, target=getattr(mod, "WRONG_TARGET",
                                                   None))(*mod.args())
        msg = str(cm.exception)
        for frag in mod.EXPECT:
            self.assertIn(frag, msg)
        if not getattr(mod, "NO_LINE", False):
            self.assertIn(os.path.basename(path) + ":", msg)
        got = nki.simulate(mod.right, target=getattr(mod, "RIGHT_TARGET",
                                                     None))(*mod.args())
        np.testing.assert_array_equal(np.asarray(got, dtype=np.float64),
                                      np.asarray(mod.reference(*mod.args()),
                                                 dtype=np.float64))

    def test_int_arithmetic(self):
        mod = load(os.path.join(WRONG, "int_arithmetic.py"))
        x, = mod.args()
        add, shr = nki.simulate(mod.kernel)(x)
        hw_add, hw_shr = mod.hardware(x)
        ex_add, ex_shr = mod.exact(x)
        np.testing.assert_array_equal(add, hw_add)
        np.testing.assert_array_equal(shr, hw_shr)
        self.assertEqual(int(add[0, 0]), 2**24)  # 2**24 + 1 is not exact
        self.assertEqual(int(shr[0, 1]), 0x7FFFFFFC)  # -8 >> 1, logical
        self.assertFalse(np.array_equal(add, ex_add))
        self.assertFalse(np.array_equal(shr, ex_shr))

    def test_every_rule_has_a_kernel(self):
        names = {os.path.basename(p) for p in glob.glob(
            os.path.join(WRONG, "*.py"))}
        for n in ("transpose_dtype.py", "transpose_sbuf_sbuf.py",
                  "transpose_psum_psum.py", "tensor_tensor_psum.py",
                  "memset_dtype.py", "output_hbm.py",
                  "sbuf_tile_capacity.py", "sbuf_live_capacity.py",
                  "psum_live_capacity.py", "nested_slicing.py",
                  "tensor_scalar_mixed.py", "reduce_axis.py",
                  "cross_partition_copy.py", "int_arithmetic.py",
                  "iota_psum.py"):
            self.assertIn(n, names)


def _add_rule_tests():
    for path in sorted(glob.glob(os.path.join(WRONG, "*.py"))):
        base = os.path.splitext(os.path.basename(path))[0]
        if base == "int_arithmetic":
            continue
        setattr(Wrong, "test_" + base,
                lambda self, p=path: self.check_rule(p))


_add_rule_tests()

if __name__ == "__main__":
    unittest.main()
