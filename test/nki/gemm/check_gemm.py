#!/usr/bin/python3
# Rules: PK5001
"""The GEMM lifter end to end.

1. `port-kernel validate --to nki --json` on the corpus GEMMs: every NKI
   cell passes against the CPU reference, with the traced operation counts
   of docs/performance.md.
2. `port --to nki` of the same sources with PK_NKI_DUMP_TILE_IR: each kernel
   is a GEMM family whose program has nc_matmul into a float32 PSUM tile of
   at most [128, 512], K tiles of 128 and the documented tile shapes.
3. The lifted kernels at sizes that need several M, N and K tiles with
   ragged edges, run on the NumPy NKI simulator against NumPy
   (wmma_gemm_warptile also at its case's sizes, in place of step 1).
4. A launch that does not reach every element of C, or a block with other
   than the threads the staging assumes, fails the trace-time assertion.

    check_gemm.py --pk PORT_KERNEL --source-dir SRC --work DIR
"""

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys

import numpy as np

CASES = {
    # case: (kernel, traced ops at the case's sizes)
    "sgemm_tiled": ("sgemm_tiled", 12),
    "sgemm_regblock": ("sgemm_regblock", 8),
    "wmma_hgemm": ("wmma_hgemm", 8),
    "wmma_bf16_gemm": ("wmma_bf16_gemm", 11),
    "wmma_gemm_smem": ("wmma_gemm_smem", 8),
    "wmma_gemm_warptile": ("wmma_gemm_warptile", 10),
}
# Not run through `validate` here (its original on the emulator alone takes
# about 9 s): the lifted kernel is run at the case's sizes in big() instead.
NOT_VALIDATED = {"wmma_gemm_warptile"}

FAILURES = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILURES.append(what)


def validate(pk, src, work):
    out = os.path.join(work, "validate.json")
    cmd = [pk, "validate", "--to", "nki", "--json"]
    cmd += [os.path.join(src, "corpus", c) for c in CASES
            if c not in NOT_VALIDATED]
    with open(out, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, text=True)
    check(r.returncode == 0, "validate --to nki exits 0 (got %d): %s" %
          (r.returncode, r.stderr[-2000:]))
    doc = json.load(open(out))
    for case in doc["cases"]:
        cells = {c["variant"]: c for c in case["results"]}
        nki = cells.get("nki", {})
        name = case["name"]
        check(nki.get("status") == "pass",
              "%s: NKI output passes (%s)" % (name, json.dumps(nki)[:1500]))
        want = CASES[name][1]
        check(nki.get("nki_ops") == want, "%s: %s traced operations, want %d" %
              (name, nki.get("nki_ops"), want))


def allocs(body, acc):
    for s in body:
        if "alloc" in s:
            acc.append((s["memory"], s["dtype"], tuple(s["shape"])))
        if "body" in s:
            allocs(s["body"], acc)
    return acc


def ops(body, acc):
    for s in body:
        if "op" in s:
            acc.append(s["op"])
        if "body" in s:
            ops(s["body"], acc)
    return acc


def port(pk, src, work):
    mods = {}
    for case, (kernel, _) in CASES.items():
        out = os.path.join(work, "port", case)
        shutil.rmtree(out, ignore_errors=True)
        dump = os.path.join(work, case + ".jsonl")
        if os.path.exists(dump):
            os.remove(dump)
        env = dict(os.environ, PK_NKI_DUMP_TILE_IR=dump)
        cu = os.path.join(src, "corpus", case, case + ".cu")
        r = subprocess.run([pk, "port", "-q", "--to", "nki", "-o", out, cu],
                           env=env, capture_output=True, text=True)
        check(r.returncode == 0, "%s: port --to nki exits 0: %s" %
              (case, r.stderr[-1000:]))
        ir = [json.loads(l) for l in open(dump)] if os.path.exists(dump) else []
        ir = [k for k in ir if k["kernel"] == kernel]
        check(len(ir) == 1, "%s: one tile program" % case)
        if not ir:
            continue
        k = ir[0]
        check("GEMM" in k["family"], "%s: GEMM family (%s)" % (case, k["family"]))
        o = ops(k["body"], [])
        check(o.count("nc_matmul") == 1 and "nc_transpose" in o,
              "%s: one nc_matmul per K tile, A transposed to [K, M]: %s" %
              (case, o))
        a = allocs(k["body"], [])
        check(("psum", "float32", ("128", "512")) in a or
              ("psum", "float32", ("128", "128")) in a,
              "%s: float32 PSUM accumulator tile: %s" % (case, a))
        for m, d, s in a:
            if m in ("sbuf", "psum"):
                check(int(s[0]) <= 128 and int(s[1]) <= 512,
                      "%s: on-chip tile %s within [128, 512]" % (case, s))
        py = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs
              if f.endswith(".py")]
        spec = importlib.util.spec_from_file_location(case + "_nki", py[0])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods[case] = mod
    return mods


def call(mod, kernel, args, launch):
    import nki
    spec = mod.PK_KERNELS[kernel]
    vals = []
    for p, v in zip(spec["params"], args):
        if p["kind"] == "scalar" or p["role"] in ("in", "inout"):
            vals.append(v)
    out = nki.simulate(getattr(mod, kernel))(*vals, *launch)
    return out, nki.op_count()


def big(mods):
    rng = np.random.default_rng(7)
    # sgemm_tiled (TILE = 16): M = 300, N = 700, K = 300: 3 x 2 x 3 tiles.
    if "sgemm_tiled" in mods:
        M, N, K = 300, 700, 300
        A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
        B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
        C = rng.uniform(-1, 1, (M, N)).astype(np.float32)
        launch = ((N + 15) // 16, (M + 15) // 16, 16, 16)
        out, n = call(mods["sgemm_tiled"], "sgemm_tiled",
                      [A, B, C, M, N, K, 1.5, -0.5], launch)
        ref = 1.5 * (A.astype(np.float64) @ B) - 0.5 * C
        check(np.allclose(out, ref, rtol=1e-4, atol=1e-4),
              "sgemm_tiled 300x700x300 matches NumPy (max error %g)" %
              np.abs(out - ref).max())
        # per (m, n) tile: 5 per K tile + eviction, alpha, 3 for beta, store
        check(n == 3 * 2 * (3 * 5 + 7), "sgemm_tiled: %d traced ops" % n)
        try:
            call(mods["sgemm_tiled"], "sgemm_tiled",
                 [A, B, C, M, N, K, 1.5, -0.5], (launch[0] - 1,) + launch[1:])
            check(False, "sgemm_tiled: a grid short of N is refused")
        except AssertionError as e:
            check("every element of C" in str(e),
                  "sgemm_tiled: a grid short of N is refused (%s)" % e)
    if "sgemm_regblock" in mods:
        M, N, K = 200, 600, 150
        A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
        B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
        launch = ((N + 63) // 64, (M + 63) // 64, 256, 1)
        out, n = call(mods["sgemm_regblock"], "sgemm_regblock",
                      [A, B, None, M, N, K], launch)
        ref = A.astype(np.float64) @ B
        check(np.allclose(out, ref, rtol=1e-4, atol=1e-4),
              "sgemm_regblock 200x600x150 matches NumPy (max error %g)" %
              np.abs(out - ref).max())
        check(n == 2 * 2 * (2 * 5 + 3), "sgemm_regblock: %d traced ops" % n)
        try:
            call(mods["sgemm_regblock"], "sgemm_regblock",
                 [A, B, None, M, N, K], launch[:2] + (128, 1))
            check(False, "sgemm_regblock: a block of 128 threads is refused")
        except AssertionError as e:
            check("256 threads" in str(e),
                  "sgemm_regblock: a block of 128 threads is refused (%s)" % e)
    if "wmma_hgemm" in mods:
        M, N, K = 160, 544, 272
        A = rng.uniform(-1, 1, (M, K)).astype(np.float16)
        B = rng.uniform(-1, 1, (K, N)).astype(np.float16)
        launch = (N // 32, M // 32, 128, 1)
        out, n = call(mods["wmma_hgemm"], "wmma_hgemm", [A, B, None, M, N, K],
                      launch)
        ref = A.astype(np.float64) @ B.astype(np.float64)
        check(np.allclose(out, ref, rtol=1e-4, atol=1e-3),
              "wmma_hgemm 160x544x272 matches NumPy (max error %g)" %
              np.abs(out - ref).max())
        check(n == 2 * 2 * (3 * 5 + 3), "wmma_hgemm: %d traced ops" % n)
        try:
            call(mods["wmma_hgemm"], "wmma_hgemm", [A, B, None, M, N, K + 8],
                 launch)
            check(False, "wmma_hgemm: K not a multiple of 16 is refused")
        except AssertionError as e:
            check("multiple of the fragment size" in str(e),
                  "wmma_hgemm: K not a multiple of 16 is refused (%s)" % e)
        except Exception as e:  # shapes checked before the kernel runs
            check(False, "wmma_hgemm: K + 8 gave %r" % e)

    if "wmma_gemm_smem" in mods:
        # Fragments from shared tiles zero-filled past the edges: M, N and K
        # need not be multiples of 16.  2 x 2 (m, n) tiles of 3 K tiles.
        M, N, K = 200, 600, 300
        A = rng.uniform(-1, 1, (M, K)).astype(np.float16)
        B = rng.uniform(-1, 1, (K, N)).astype(np.float16)
        launch = ((N + 31) // 32, (M + 31) // 32, 128, 1)
        out, n = call(mods["wmma_gemm_smem"], "wmma_gemm_smem",
                      [A, B, None, M, N, K], launch)
        ref = A.astype(np.float64) @ B.astype(np.float64)
        check(np.allclose(out, ref, rtol=1e-4, atol=1e-3),
              "wmma_gemm_smem 200x600x300 matches NumPy (max error %g)" %
              np.abs(out - ref).max())
        check(n == 2 * 2 * (3 * 5 + 3), "wmma_gemm_smem: %d traced ops" % n)
        for bad, what, msg in [
                (launch[:2] + (64, 1), "a block of 64 threads",
                 "128 threads"),
                ((launch[0] - 1,) + launch[1:], "a grid short of N",
                 "every element of C")]:
            try:
                call(mods["wmma_gemm_smem"], "wmma_gemm_smem",
                     [A, B, None, M, N, K], bad)
                check(False, "wmma_gemm_smem: %s is refused" % what)
            except AssertionError as e:
                check(msg in str(e),
                      "wmma_gemm_smem: %s is refused (%s)" % (what, e))


    if "wmma_gemm_warptile" in mods:
        # Warp tiles of 2x2 fragments (arrays of fragments, col-major
        # matrix_b from the staged rows of Bt): B given transposed, so N in
        # tiles of 128: at the case's sizes (one C tile, one K tile: 7 + 3)
        # and at 2 x 3 (m, n) tiles of 3 K tiles (7 each + 3: the PSUM
        # accumulator's memset, its eviction, the store).
        for M, N, K, ops in [(100, 72, 88, 10), (200, 300, 300, 2 * 3 * 24)]:
            A = rng.uniform(-1, 1, (M, K)).astype(np.float16)
            Bt = rng.uniform(-1, 1, (N, K)).astype(np.float16)
            launch = ((N + 63) // 64, (M + 63) // 64, 128, 1)
            out, n = call(mods["wmma_gemm_warptile"], "wmma_gemm_warptile",
                          [A, Bt, None, M, N, K], launch)
            ref = A.astype(np.float64) @ Bt.astype(np.float64).T
            check(np.allclose(out, ref, rtol=1e-4, atol=1e-4),
                  "wmma_gemm_warptile %dx%dx%d matches NumPy (max error %g)"
                  % (M, N, K, np.abs(out - ref).max()))
            check(n == ops, "wmma_gemm_warptile %dx%dx%d: %d traced ops, "
                  "want %d" % (M, N, K, n, ops))
        for bad, what, msg in [
                (launch[:2] + (256, 1), "a block of 256 threads",
                 "128 threads"),
                (launch[:1] + (launch[1] - 1,) + launch[2:],
                 "a grid short of M", "every element of C")]:
            try:
                call(mods["wmma_gemm_warptile"], "wmma_gemm_warptile",
                     [A, Bt, None, M, N, K], bad)
                check(False, "wmma_gemm_warptile: %s is refused" % what)
            except AssertionError as e:
                check(msg in str(e),
                      "wmma_gemm_warptile: %s is refused (%s)" % (what, e))


def lanes(pk, src, work):
    """WMMA over shared tiles outside the corpus: a one-warp kernel and a
    one-warp tile of arrays of fragments at ragged sizes, and fragment
    offsets that differ between lanes of one warp."""
    out = os.path.join(work, "port", "wmma_smem_lanes")
    shutil.rmtree(out, ignore_errors=True)
    cu = os.path.join(src, "test", "nki", "gemm", "wmma_smem_lanes.cu")
    r = subprocess.run([pk, "port", "-q", "--to", "nki", "-o", out, cu],
                       capture_output=True, text=True)
    check(r.returncode == 0, "wmma_smem_lanes: port --to nki exits 0: %s" %
          r.stderr[-1000:])
    py = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs
          if f.endswith(".py")]
    if not py:
        check(False, "wmma_smem_lanes: an NKI file")
        return
    spec = importlib.util.spec_from_file_location("wmma_smem_lanes_nki", py[0])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rng = np.random.default_rng(11)
    M, N, K = 40, 50, 37
    A = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    ref = A.astype(np.float64) @ B.astype(np.float64)
    out, n = call(mod, "one_warp", [A, B, None, M, N, K],
                  ((N + 15) // 16, (M + 15) // 16, 32, 1))
    check(np.allclose(out, ref, rtol=1e-4, atol=1e-3),
          "one_warp 40x50x37 matches NumPy (max error %g)" %
          np.abs(out - ref).max())
    check(n == 8, "one_warp: %d traced ops" % n)
    # Arrays of fragments with a row-major B and two k-steps per K tile.
    out, n = call(mod, "warp_tile_rowb", [A, B, None, M, N, K],
                  ((N + 31) // 32, (M + 31) // 32, 32, 1))
    check(np.allclose(out, ref, rtol=1e-4, atol=1e-3),
          "warp_tile_rowb 40x50x37 matches NumPy (max error %g)" %
          np.abs(out - ref).max())
    check(n == 8, "warp_tile_rowb: %d traced ops" % n)
    try:
        call(mod, "half_warps", [A, B, None, M, N, K],
             ((N + 15) // 16, (M + 31) // 32, 32, 1))
        check(False, "half_warps: lane-dependent fragment offsets are refused")
    except AssertionError as e:
        check("uniform over the lanes" in str(e),
              "half_warps: lane-dependent fragment offsets are refused (%s)" %
              e)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pk", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    sys.path.insert(0, os.path.join(a.source_dir, "lib", "NKISim"))
    validate(a.pk, a.source_dir, a.work)
    mods = port(a.pk, a.source_dir, a.work)
    big(mods)
    lanes(a.pk, a.source_dir, a.work)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
