#!/usr/bin/python3
"""Runs the CUDA kernels of this directory on an NVIDIA GPU with the cases of
check_idioms.py and compares them with the same NumPy references: a check of
the references against the CUDA semantics (not part of the test suite; it
needs nvcc, a GPU and NumPy).  Each kernel is compiled to PTX with nvcc and
launched through the CUDA driver API (ctypes); output buffers start as 0xFF
bytes (NaN), so an element the kernel never writes shows.

    run_cuda.py [--nvcc nvcc] [--arch sm_90] [KERNEL ...]
"""

import argparse
import ctypes
import glob
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_idioms  # noqa: E402

SIG = re.compile(r"__global__\s+void\s+(\w+)\s*\(([^)]*)\)", re.S)
SCALARS = {"int": ctypes.c_int32, "unsigned": ctypes.c_uint32,
           "unsigned int": ctypes.c_uint32, "float": ctypes.c_float,
           "size_t": ctypes.c_uint64}


def params_of(src, kernel):
    for m in SIG.finditer(open(src).read()):
        if m.group(1) == kernel:
            out = []
            for p in m.group(2).split(","):
                p = " ".join(p.replace("__restrict__", "").split())
                name = re.findall(r"(\w+)$", p)[0]
                ty = p[:-len(name)].strip()
                out.append((name, ty))
            return out
    raise SystemExit("no __global__ %s in %s" % (kernel, src))


class Cuda:
    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.ok(self.lib.cuInit(0))
        dev = ctypes.c_int()
        self.ok(self.lib.cuDeviceGet(ctypes.byref(dev), 0))
        ctx = ctypes.c_void_p()
        self.ok(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev))
        self.ok(self.lib.cuCtxSetCurrent(ctx))

    def ok(self, r, what=""):
        if r != 0:
            s = ctypes.c_char_p()
            self.lib.cuGetErrorString(r, ctypes.byref(s))
            raise RuntimeError("CUDA error %d %s %s" % (r, s.value, what))

    def function(self, ptx, name):
        mod = ctypes.c_void_p()
        self.ok(self.lib.cuModuleLoadData(ctypes.byref(mod), ptx))
        f = ctypes.c_void_p()
        self.ok(self.lib.cuModuleGetFunction(ctypes.byref(f), mod,
                                             name.encode()))
        return f

    def alloc(self, arr):
        p = ctypes.c_uint64()
        self.ok(self.lib.cuMemAlloc_v2(ctypes.byref(p),
                                       ctypes.c_size_t(max(arr.nbytes, 4))))
        self.ok(self.lib.cuMemcpyHtoD_v2(p, arr.ctypes.data_as(
            ctypes.c_void_p), ctypes.c_size_t(arr.nbytes)))
        return p

    def read(self, p, arr):
        self.ok(self.lib.cuMemcpyDtoH_v2(arr.ctypes.data_as(ctypes.c_void_p),
                                         p, ctypes.c_size_t(arr.nbytes)))
        return arr

    def launch(self, f, grid, block, shared, args):
        arr = (ctypes.c_void_p * len(args))(
            *[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
        self.ok(self.lib.cuLaunchKernel(f, *grid, *block, shared, None, arr,
                                        None), "launch")
        self.ok(self.lib.cuCtxSynchronize(), "sync")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("kernels", nargs="*")
    a = ap.parse_args()
    cu = Cuda()
    tmp = tempfile.mkdtemp()
    fails = 0
    for src in sorted(glob.glob(os.path.join(HERE, "*.cu"))):
        kernel = os.path.splitext(os.path.basename(src))[0]
        if a.kernels and kernel not in a.kernels:
            continue
        if kernel not in check_idioms.CASES:
            print("--   %s: no cases (a kernel the tool should refuse)" %
                  kernel)
            continue
        ptx = os.path.join(tmp, kernel + ".ptx")
        r = subprocess.run([a.nvcc, "-ptx", "-arch=" + a.arch, "-o", ptx,
                            src], capture_output=True, text=True)
        if r.returncode:
            print("FAIL %s: nvcc: %s" % (kernel, r.stderr.strip()))
            fails += 1
            continue
        text = open(ptx).read()
        entries = re.findall(r"\.entry\s+(\w+)", text)
        entry = [e for e in entries if kernel in e][0]
        f = cu.function(text.encode() + b"\0", entry)
        params = params_of(src, kernel)
        rng = np.random.default_rng(sum(map(ord, kernel)))
        for label, args, launch, refs, tol in check_idioms.CASES[kernel](rng):
            cargs = []
            bufs = {}
            for name, ty in params:
                v = args[name]
                if "*" in ty:
                    if v is None:
                        ref = np.asarray(refs[name])
                        dt = tol.get("dtype", ref.dtype if ref.dtype.kind ==
                                     "i" else np.float32)
                        v = np.frombuffer(b"\xff" * (ref.size * np.dtype(
                            dt).itemsize), dtype=dt).copy()
                    v = np.ascontiguousarray(v)
                    p = cu.alloc(v)
                    bufs[name] = (p, v)
                    cargs.append(p)
                else:
                    base = ty.replace("const", "").strip()
                    cargs.append(SCALARS[base](v))
            cu.launch(f, (launch["grid_x"], launch["grid_y"],
                          launch["grid_z"]),
                      (launch["block_x"], launch["block_y"],
                       launch["block_z"]), launch["shared_bytes"], cargs)
            bad = []
            for name, ref in refs.items():
                p, v = bufs[name]
                got = cu.read(p, np.empty_like(v)).astype(np.float64)
                ref = np.asarray(ref, dtype=np.float64).reshape(-1)
                got = got.reshape(-1)
                if not np.allclose(got, ref, rtol=tol["rtol"],
                                   atol=tol["atol"]):
                    err = np.abs(got - ref)
                    err[np.isnan(err)] = np.inf
                    i = int(np.argmax(err))
                    bad.append("%s: max |err| %.3g at %d (got %r want %r)" %
                               (name, err[i], i, got[i], ref[i]))
            for p, _ in bufs.values():
                cu.lib.cuMemFree_v2(p)
            print("%s %s %s%s" % ("FAIL" if bad else "ok  ", kernel, label,
                                  (": " + "; ".join(bad)) if bad else ""))
            fails += bool(bad)
    print("%d failure(s)" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
