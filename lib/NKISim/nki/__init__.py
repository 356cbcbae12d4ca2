# Rules: none (NKI simulator)
"""A NumPy simulator of the subset of AWS NKI (`nki`, `nki.language`,
`nki.isa`) that port-kernel emits.  It is used only when the real `nki`
package cannot be imported.

    import nki
    out = nki.simulate(kernel)(x, y, 3)   # NumPy arrays in, NumPy arrays out
    nki.op_count()                        # traced operations of that call

Semantics, limits and what is not modelled: docs/nki.md, "The simulator".
"""

import functools

import numpy as np

from . import _core
from . import isa  # noqa: F401
from . import language  # noqa: F401
from ._core import NKISimError, Tensor

__all__ = ["jit", "simulate", "op_count", "op_counts", "NKISimError",
           "Tensor", "SIMULATOR"]

# True in this package; absent from the real one.
SIMULATOR = True


class JitKernel:
    """A function decorated with @nki.jit.  Calling it runs it on the
    simulator (there is no device to compile for)."""

    def __init__(self, fn, options):
        self.fn = fn
        self.options = options
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        return simulate(self)(*args, **kwargs)

    def __getitem__(self, grid):
        # kernel[n]: n logical cores; the simulator runs them as one.
        return self


def jit(fn=None, **options):
    """@nki.jit or @nki.jit(...options...)."""
    if fn is None:
        return lambda f: JitKernel(f, options)
    return JitKernel(fn, options)


def _arg_in(x, name):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, np.ndarray):
        return _core.from_numpy(x, name=name)
    return x  # scalars and other Python values pass through


def _arg_out(x):
    if isinstance(x, Tensor):
        check_output(x)
        return _core.to_numpy(x)
    if isinstance(x, tuple):
        return tuple(_arg_out(y) for y in x)
    if isinstance(x, list):
        return [_arg_out(y) for y in x]
    return x


def check_output(x):
    """A returned tensor must be an HBM tensor allocated in the kernel with
    buffer=nl.shared_hbm (an nl.hbm or nl.private_hbm tensor, an argument
    or an on-chip tile is not a kernel output)."""
    if x.buffer is not _core.shared_hbm:
        raise NKISimError("the kernel returned a tensor in nl.%s; kernel "
                          "outputs are allocated with buffer=nl.shared_hbm%s"
                          % (x.buffer.name, _core.cite("shared_hbm")),
                          where=False)


def simulate(kernel, keep_tensors=False, target=None):
    """Returns a function that runs \\p kernel eagerly on NumPy arrays (or
    simulator tensors) and returns NumPy arrays (bfloat16 values as
    float32).  With keep_tensors, returned tensors stay simulator tensors
    (their dtype is kept).  \\p target (trn1, trn2, trn3; default: the
    PK_NKI_TARGET environment variable, else trn1) selects the on-chip
    capacities."""
    fn = kernel.fn if isinstance(kernel, JitKernel) else kernel

    def run(*args, **kwargs):
        _core.set_target(target)
        _core.reset_ops()
        params = getattr(fn, "__code__", None)
        names = params.co_varnames[:params.co_argcount] if params else ()
        ins = [_arg_in(a, names[i] if i < len(names) else None)
               for i, a in enumerate(args)]
        kws = {k: _arg_in(v, k) for k, v in kwargs.items()}
        with np.errstate(all="ignore"):
            result = fn(*ins, **kws)
        if keep_tensors:
            for r in (result if isinstance(result, (tuple, list))
                      else (result,)):
                if isinstance(r, Tensor):
                    check_output(r)
            return result
        return _arg_out(result)

    return run


def op_count():
    """Traced operations (nisa calls) of the last simulated call."""
    return _core._State.ops


def op_counts():
    """The same, per operation name."""
    return dict(_core._State.ops_by_name)
