#!/usr/bin/python3
"""Runs the CUDA kernels of this directory on the SIMT emulator
(`port-kernel validate --to none --program`) with the cases of
check_idioms.py that are small enough for it, and compares the outputs with
the same NumPy references: a check of the references against the CUDA
semantics (not part of the test suite: it takes minutes).  For each case a
program is generated (the kernel's source followed by a main) that reads
every buffer from a binary file, launches the
kernel as check_idioms.py's case does, and writes the buffers back; output
buffers start as 0xFF bytes (NaN), so an element the kernel never writes
shows.

    run_emu.py --pk PORT_KERNEL --work DIR [--max-threads N] [KERNEL ...]
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_idioms  # noqa: E402

SIG = re.compile(r"__global__\s+void\s+(\w+)\s*\(([^)]*)\)", re.S)
TEMPLATE_ARGS = {"block_partial_syncwarp": "<256>", "block_partial_chunk": "<128>"}

PROLOGUE = r'''
#include <cstdio>
#include <cstdlib>
static void *pk_load(const char *path, size_t *bytes) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
  fseek(f, 0, SEEK_END);
  *bytes = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *h = malloc(*bytes ? *bytes : 1);
  if (fread(h, 1, *bytes, f) != *bytes) exit(3);
  fclose(f);
  void *d = 0;
  cudaMalloc(&d, *bytes ? *bytes : 4);
  cudaMemcpy(d, h, *bytes, cudaMemcpyHostToDevice);
  free(h);
  return d;
}
static void pk_save(const char *path, const void *d, size_t bytes) {
  void *h = malloc(bytes ? bytes : 1);
  cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(h, 1, bytes, f) != bytes) exit(4);
  fclose(f);
  free(h);
}
'''


def params_of(src, kernel):
    for m in SIG.finditer(open(src).read()):
        if m.group(1) == kernel:
            out = []
            for p in m.group(2).split(","):
                p = " ".join(p.replace("__restrict__", "").split())
                name = re.findall(r"(\w+)$", p)[0]
                out.append((name, p[:-len(name)].strip()))
            return out
    raise SystemExit("no __global__ %s in %s" % (kernel, src))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pk", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--max-threads", type=int, default=100000)
    ap.add_argument("kernels", nargs="*")
    a = ap.parse_args()
    fails = 0
    for src in sorted(glob.glob(os.path.join(HERE, "*.cu"))):
        kernel = os.path.splitext(os.path.basename(src))[0]
        if a.kernels and kernel not in a.kernels:
            continue
        if kernel not in check_idioms.CASES:
            continue
        params = params_of(src, kernel)
        rng = np.random.default_rng(sum(map(ord, kernel)))
        for ci, (label, args, launch, refs, tol) in enumerate(
                check_idioms.CASES[kernel](rng)):
            threads = 1
            for k in ("grid_x", "grid_y", "grid_z", "block_x", "block_y",
                      "block_z"):
                threads *= launch[k]
            if threads > a.max_threads:
                print("--   %s %s: %d threads, skipped" % (kernel, label,
                                                            threads))
                continue
            d = os.path.join(os.path.abspath(a.work), "%s_%d" % (kernel, ci))
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(os.path.join(d, "prog"))
            # The kernel's text itself, not an #include of it: the
            # emulator prepares (rewrites __shared__ in) the program's file.
            lines = ['#line 1 "%s"' % src, open(src).read(),
                     '#line 1 "prog.cu"', PROLOGUE, "int main() {"]
            call = []
            bufs = {}
            for i, (name, ty) in enumerate(params):
                v = args[name]
                if "*" in ty:
                    if v is None:
                        ref = np.asarray(refs[name])
                        dt = tol.get("dtype", ref.dtype if ref.dtype.kind ==
                                     "i" else np.float32)
                        v = np.frombuffer(b"\xff" * (ref.size * np.dtype(
                            dt).itemsize), dtype=dt)
                    v = np.ascontiguousarray(v)
                    path = os.path.join(d, "%s.bin" % name)
                    v.tofile(path)
                    bufs[name] = (path, v.dtype)
                    lines.append("  size_t b%d; void *d%d = pk_load(\"%s\", "
                                 "&b%d);" % (i, i, path, i))
                    call.append("(%s)d%d" % (ty, i))
                else:
                    call.append("(%s)%r" % (ty, v))
            lines.append("  %s%s<<<dim3(%d, %d, %d), dim3(%d, %d, %d), %d>>>"
                         "(%s);" % (kernel, TEMPLATE_ARGS.get(kernel, ""),
                                    launch["grid_x"], launch["grid_y"],
                                    launch["grid_z"], launch["block_x"],
                                    launch["block_y"], launch["block_z"],
                                    launch["shared_bytes"], ", ".join(call)))
            lines.append("  if (cudaDeviceSynchronize() != cudaSuccess) "
                         "return 5;")
            for i, (name, ty) in enumerate(params):
                if name in refs:
                    lines.append("  pk_save(\"%s.out\", d%d, b%d);" %
                                 (bufs[name][0], i, i))
            lines.append("  return 0;\n}")
            prog = os.path.join(d, "prog", "prog.cu")
            with open(prog, "w") as f:
                f.write("\n".join(lines) + "\n")
            r = subprocess.run([a.pk, "validate", "--to", "none",
                                "--program=" + prog, "--timeout", "600"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print("FAIL %s %s: validate exit %d: %s" %
                      (kernel, label, r.returncode,
                       (r.stdout + r.stderr).strip()[-600:]))
                fails += 1
                continue
            bad = []
            for name, ref in refs.items():
                path, dt = bufs[name]
                got = np.fromfile(path + ".out", dtype=dt).astype(np.float64)
                ref = np.asarray(ref, dtype=np.float64).reshape(-1)
                if got.size != ref.size or not np.allclose(
                        got, ref, rtol=tol["rtol"], atol=tol["atol"]):
                    if got.size != ref.size:
                        bad.append("%s: %d elements, want %d" %
                                   (name, got.size, ref.size))
                        continue
                    err = np.abs(got - ref)
                    err[np.isnan(err)] = np.inf
                    j = int(np.argmax(err))
                    bad.append("%s: max |err| %.3g at %d (got %r want %r)" %
                               (name, err[j], j, got[j], ref[j]))
            print("%s %s %s%s" % ("FAIL" if bad else "ok  ", kernel, label,
                                  (": " + "; ".join(bad)) if bad else ""),
                  flush=True)
            fails += bool(bad)
    print("%d failure(s)" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
