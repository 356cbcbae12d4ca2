#!/usr/bin/python3
# Rules: PK5001
"""Ports CUDA kernels with `port-kernel port --to nki`, runs each lifted
kernel on the NumPy NKI simulator (lib/NKISim) through the PK_KERNELS calling
convention and compares the results with NumPy references.  Also checks that
the output is tile-level (traced operations bounded by the number of tiles)
and that the JSON tile program (PK_NKI_DUMP_TILE_IR) has the expected tile
shapes.

    check_lift.py --pk PORT_KERNEL --source-dir SRC --work DIR
"""

import argparse
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np


def port(pk, src, work, name):
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    dump = os.path.join(work, name + ".tile-ir.jsonl")
    if os.path.exists(dump):
        os.remove(dump)
    env = dict(os.environ, PK_NKI_DUMP_TILE_IR=dump)
    r = subprocess.run([pk, "port", "-q", "--to", "nki", "-o", out, src],
                       env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("port failed (%d): %s" % (r.returncode, r.stderr))
    want = os.path.splitext(os.path.basename(src))[0] + ".py"
    found = [os.path.join(d, want) for d, _, fs in os.walk(out) if want in fs]
    if len(found) != 1:
        raise SystemExit("port wrote %d %s under %s" % (len(found), want, out))
    py = found[0]
    spec = importlib.util.spec_from_file_location(name + "_nki", py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    irs = {}
    with open(dump) as f:
        for line in f:
            k = json.loads(line)
            irs[k["kernel"]] = k
    return mod, irs, r.stderr


def allocs(body, acc):
    for s in body:
        if "alloc" in s:
            acc.append((s["memory"], tuple(s["shape"])))
        if "body" in s:
            allocs(s["body"], acc)
    return acc


def run(mod, kernel, args, launch=()):
    import nki
    spec = mod.PK_KERNELS[kernel]
    call = []
    for p, v in zip(spec["params"], args):
        if p["kind"] == "scalar" or p["role"] in ("in", "inout"):
            call.append(v)
    call += list(launch)
    fn = getattr(mod, kernel)
    out = nki.simulate(fn)(*call)
    return out, nki.op_count()


def refuses(mod, kernel, args, launch):
    """Whether tracing the kernel at this launch fails its assertions."""
    try:
        run(mod, kernel, args, launch=launch)
    except AssertionError:
        return True
    return False


FAILURES = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILURES.append(what)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pk", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(a.source_dir, "lib", "NKISim"))
    os.makedirs(a.work, exist_ok=True)
    rng = np.random.default_rng(7)
    corpus = os.path.join(a.source_dir, "corpus")

    # saxpy: 1-D grid-stride loop, ragged tail (3000 = 5 * 512 + 440).
    mod, irs, _ = port(a.pk, os.path.join(corpus, "saxpy", "saxpy.cu"),
                       a.work, "saxpy")
    spec = mod.PK_KERNELS["saxpy"]["params"]
    check([p.get("role") for p in spec] == ["inout", "in", None, None],
          "saxpy: y is inout, x in, a and n scalars")
    check(spec[0]["shape"] == ["n"], "saxpy: y has shape [n]")
    n = 3000
    y = rng.uniform(-1, 1, n).astype(np.float32)
    x = rng.uniform(-1, 1, n).astype(np.float32)
    out, ops = run(mod, "saxpy", [y, x, 2.5, n])
    ref = np.float32(2.5) * x + y
    check(np.allclose(out, ref, rtol=1e-6, atol=1e-6),
          "saxpy: matches a*x+y on 3000 elements")
    check(ops == 2 * 5, "saxpy: %d traced operations (5 rows of 512 in one "
          "tile, then the 440-element tail)" % ops)
    shapes = allocs(irs["saxpy"]["body"], [])
    check(("sbuf", ("128", "512")) in shapes, "saxpy: [128, 512] SBUF tiles")

    # bias_gelu: 2-D guarded map with a broadcast row (bias[col]) and an
    # inlined device function (tanh GELU); 37 x 100.
    mod, irs, _ = port(a.pk, os.path.join(corpus, "bias_gelu",
                                          "bias_gelu.cu"), a.work,
                       "bias_gelu")
    spec = mod.PK_KERNELS["bias_gelu"]["params"]
    check(spec[0]["role"] == "out" and spec[0]["shape"] == ["rows", "cols"],
          "bias_gelu: out is [rows, cols], role out")
    check(spec[2]["shape"] == ["1", "cols"], "bias_gelu: bias is a row")
    rows, cols = 37, 100
    xin = rng.uniform(-4, 4, (rows, cols)).astype(np.float32)
    bias = rng.uniform(-0.5, 0.5, (1, cols)).astype(np.float32)
    check(mod.PK_KERNELS["bias_gelu"]["launch"] ==
          ["grid_x", "block_x", "grid_y", "block_y"],
          "bias_gelu: the launch is a parameter (guarded, no grid-stride)")
    out, ops = run(mod, "bias_gelu", [None, xin, bias, rows, cols],
                   launch=(4, 32, 5, 8))
    v = (xin + bias).astype(np.float64)
    ref = 0.5 * v * (1 + np.tanh(0.7978845608028654 * (v + 0.044715 * v ** 3)))
    check(np.allclose(out, ref, rtol=1e-5, atol=1e-5),
          "bias_gelu: matches gelu(in + bias) on 37 x 100")
    check(ops <= 30, "bias_gelu: %d traced operations for one tile" % ops)
    shapes = allocs(irs["bias_gelu"]["body"], [])
    check(("sbuf", ("128", "512")) in shapes and
          ("psum", ("128", "512")) in shapes,
          "bias_gelu: [128, 512] SBUF and PSUM tiles")

    # warp_softmax: one warp per row, two butterfly reductions (max, sum)
    # become tensor_reduce over the free axis of each 512-column chunk.
    mod, irs, _ = port(a.pk, os.path.join(corpus, "warp_softmax",
                                          "warp_softmax.cu"), a.work,
                       "warp_softmax")
    k = "softmax_warp_per_row"
    spec = mod.PK_KERNELS[k]
    check([p.get("role") for p in spec["params"]] == ["in", "out", None, None]
          and spec["params"][0]["shape"] == ["rows", "cols"] and
          spec["launch"] == ["grid_x", "block_x"],
          "warp_softmax: in [rows, cols] in, out out, launch grid_x block_x")
    for rows, cols, grid in ((37, 100, 10), (300, 1300, 75)):
        x = rng.uniform(-6, 6, (rows, cols)).astype(np.float32)
        out, ops = run(mod, k, [x, None, rows, cols], launch=(grid, 128))
        e = np.exp(x - x.max(axis=1, keepdims=True))
        ref = e / e.sum(axis=1, keepdims=True)
        check(np.allclose(out, ref, rtol=1e-5, atol=1e-6),
              "warp_softmax: matches softmax on %d x %d" % (rows, cols))
        tiles = -(-rows // 128) * -(-cols // 512)
        check(ops <= 24 * tiles, "warp_softmax: %d traced operations for "
              "%d tiles" % (ops, tiles))
    shapes = allocs(irs[k]["body"], [])
    check(("sbuf", ("128", "1")) in shapes and
          ("sbuf", ("128", "512")) in shapes,
          "warp_softmax: [128, 512] tiles and [128, 1] row columns")
    try:
        run(mod, k, [x, None, 300, 1300], launch=(75, 96 + 16))
        refused = False
    except AssertionError:
        refused = True
    check(refused, "warp_softmax: a block that is not whole warps is refused")

    # A 2-D kernel on 300 x 1100: several partition and free tiles, both
    # ragged; a kernel with no bound checks takes launch dimensions.
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "kernels.cu")
    mod, irs, _ = port(a.pk, src, a.work, "kernels")
    rows, cols = 300, 1100
    p = rng.uniform(-1, 1, (rows, cols)).astype(np.float32)
    q = rng.uniform(0.5, 2, (rows, cols)).astype(np.float32)
    out, ops = run(mod, "blend", [None, p, q, 0.25, rows, cols],
                   launch=(35, 32, 38, 8))
    ref = np.sqrt(q) * 0.25 - p / q
    check(np.allclose(out, ref, rtol=1e-5, atol=1e-6),
          "blend: matches sqrt(q)*s - p/q on 300 x 1100 (3 x 3 tiles)")
    check(ops <= 9 * 12, "blend: %d traced operations for 9 tiles" % ops)
    try:
        run(mod, "blend", [None, p, q, 0.25, rows, cols],
            launch=(34, 32, 38, 8))
        refused = False
    except AssertionError:
        refused = True
    check(refused, "blend: a launch that does not reach cols is refused")
    check(mod.PK_KERNELS["fill_all"]["launch"] == ["grid_x", "block_x"],
          "fill_all: launch dimensions are parameters")
    h = rng.uniform(-2, 2, 4 * 128).astype(np.float16)
    out, ops = run(mod, "fill_all", [None, h], launch=(4, 128))
    check(out.dtype == np.float16 and
          np.allclose(out, (h.astype(np.float32) * 3.0).astype(np.float16)),
          "fill_all: half in, float arithmetic, half out over grid*block")

    # Block row programs (one block per row): block reductions through
    # warp shuffles and shared memory become tensor_reduce over the free axis.
    mod, irs, _ = port(a.pk, os.path.join(corpus, "layernorm",
                                          "layernorm.cu"), a.work, "layernorm")
    k = "layernorm_fwd"
    spec = mod.PK_KERNELS[k]
    check([p["shape"] for p in spec["params"][:6]] ==
          [["grid_x", "cols"], ["1", "cols"], ["1", "cols"],
           ["grid_x", "cols"], ["grid_x", "1"], ["grid_x", "1"]] and
          spec["launch"] == ["grid_x", "block_x"],
          "layernorm: x/y [rows, cols], gamma/beta rows, mean/rstd columns, "
          "rows = grid_x")
    for rows, cols, block in ((8, 300, 128), (200, 1100, 256)):
        x = rng.uniform(-2, 3, (rows, cols)).astype(np.float32)
        g = rng.uniform(0.5, 1.5, (1, cols)).astype(np.float32)
        b = rng.uniform(-0.5, 0.5, (1, cols)).astype(np.float32)
        (y, mu, rs), ops = run(mod, k, [x, g, b, None, None, None, cols, 1e-5],
                               launch=(rows, block))
        m = x.astype(np.float64).mean(axis=1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=1, keepdims=True)
        r = 1 / np.sqrt(v + 1e-5)
        check(np.allclose(y, (x - m) * r * g + b, rtol=1e-4, atol=1e-4) and
              np.allclose(mu, m, rtol=1e-5, atol=1e-5) and
              np.allclose(rs, r, rtol=1e-4, atol=1e-5),
              "layernorm: y, mean, rstd match on %d x %d (block %d)" %
              (rows, cols, block))
        tiles = -(-rows // 128) * -(-cols // 512)
        check(ops <= 40 * tiles, "layernorm: %d traced operations for %d "
              "tiles" % (ops, tiles))
    try:
        run(mod, k, [x, g, b, None, None, None, cols, 1e-5],
            launch=(rows, 100))
        refused = False
    except AssertionError:
        refused = True
    check(refused, "layernorm: a block that is not whole warps is refused")

    mod, irs, _ = port(a.pk, os.path.join(corpus, "rmsnorm", "rmsnorm.cu"),
                       a.work, "rmsnorm")
    k = "rmsnorm_f16"
    for rows, cols, block in ((6, 320, 64), (130, 600, 1024)):
        x = rng.uniform(-2, 2, (rows, cols)).astype(np.float16)
        w = rng.uniform(0.5, 1.5, (1, cols)).astype(np.float32)
        out, ops = run(mod, k, [None, x, w, cols, 1e-6], launch=(rows, block))
        xf = x.astype(np.float64)
        ref = xf / np.sqrt((xf ** 2).mean(axis=1, keepdims=True) + 1e-6) * w
        check(out.dtype == np.float16 and
              np.allclose(out.astype(np.float64), ref, rtol=2e-3, atol=2e-3),
              "rmsnorm: half rows match on %d x %d (block %d)" %
              (rows, cols, block))
    try:
        run(mod, k, [None, x, w, cols, 1e-6], launch=(rows, 2048))
        refused = False
    except AssertionError:
        refused = True
    check(refused, "rmsnorm: more warps than warpSums has slots is refused")

    # Per-block partial sums of a grid-stride loop: blocks on partitions,
    # the launch's grid_x is a parameter of the result.
    mod, irs, _ = port(a.pk, os.path.join(corpus, "block_reduce",
                                          "block_reduce.cu"), a.work,
                       "block_reduce")
    k = "block_reduce_sum"
    spec = mod.PK_KERNELS[k]
    check(spec["params"][0]["shape"] == ["n"] and
          spec["params"][1]["shape"] == ["grid_x", "1"],
          "block_reduce: in [n], partial [grid_x, 1]")
    for n, grid in ((5000, 6), (300000, 150), (256 * 7, 3), (100, 4)):
        x = rng.uniform(-1, 1, n).astype(np.float32)
        out, ops = run(mod, k, [x, None, n], launch=(grid, 256))
        ref = np.zeros(grid)
        for c in range(-(-n // 256)):
            ref[c % grid] += x[c * 256:(c + 1) * 256].astype(np.float64).sum()
        check(np.allclose(out.reshape(-1), ref, rtol=1e-5, atol=1e-4),
              "block_reduce: partial sums match for n = %d, %d blocks" %
              (n, grid))
        rounds = -(-n // (256 * grid)) * -(-grid // 128)
        check(ops <= 6 * rounds + 12, "block_reduce: %d traced operations "
              "for %d rounds" % (ops, rounds))
    try:
        run(mod, k, [x, None, n], launch=(grid, 128))
        refused = False
    except AssertionError:
        refused = True
    check(refused, "block_reduce: a block of another size than BLOCK_SIZE "
          "is refused")

    # HIP row sums counted in warpSize: the model runs HIP sources in
    # 64-lane waves (warpSize 64, shuffles of the whole wave), so the
    # per-wave partials fill partial[0:waves]; a 32-thread block is half a
    # wave (lanes past the block read nothing) and is not a proven shape.
    mod, irs, _ = port(a.pk, os.path.join(corpus, "hip_wave_reduce",
                                          "hip_wave_reduce.hip"), a.work,
                       "hip_wave_reduce")
    k = "row_sums"
    for rows, cols, block in ((7, 1000, 256), (300, 1300, 64), (5, 77, 1024)):
        x = rng.uniform(-1, 1, (rows, cols)).astype(np.float32)
        out, ops = run(mod, k, [x, None, rows, cols], launch=(rows, block))
        check(np.allclose(out.reshape(-1), x.astype(np.float64).sum(axis=1),
                          rtol=1e-5, atol=1e-4),
              "hip_wave_reduce: row sums match for %d x %d, block %d" %
              (rows, cols, block))
    check(refuses(mod, k, [x, None, rows, cols], (rows, 32)), "hip_wave_reduce: a block of half a wave is refused")

    # A map proven at some block shapes only (the block size written as a
    # constant): the launch is asserted to use one of them.
    mod, irs, _ = port(a.pk, os.path.join(a.source_dir, "test", "nki",
                                          "idioms", "map_thread_subset.cu"),
                       a.work, "map_thread_subset")
    k = "map_thread_subset"
    x = rng.uniform(-1, 1, 1000).astype(np.float32)
    out, ops = run(mod, k, [None, x, 1000], launch=(16, 64))
    check(np.allclose(out, 3 * x), "map_thread_subset: matches at 64 threads")
    check(refuses(mod, k, [None, x, 1000], (8, 128)), "map_thread_subset: a block of 128 threads is refused")

    # A GEMM through 16 x 16 shared tiles with zero fill, read from the
    # kernel model as one contraction: proven at 16 x 16 threads only.
    mod, irs, _ = port(a.pk, os.path.join(a.source_dir, "test", "nki",
                                          "idioms", "gemm_tiled_txty.cu"),
                       a.work, "gemm_tiled_txty")
    k = "gemm_tiled_txty"
    A = rng.uniform(-1, 1, (40, 70)).astype(np.float32)
    B = rng.uniform(-1, 1, (70, 50)).astype(np.float32)
    out, ops = run(mod, k, [A, B, None, 40, 50, 70], launch=(4, 3, 16, 16))
    check(np.allclose(out, A.astype(np.float64) @ B, rtol=1e-4, atol=1e-4),
          "gemm_tiled_txty: matches A @ B at 16 x 16 threads")
    check(refuses(mod, k, [A, B, None, 40, 50, 70], (2, 7, 32, 8)), "gemm_tiled_txty: a 32 x 8 block (tiles sized for 16 x "
          "16) is refused")

    # A transpose staged through a padded shared tile: nc_transpose.
    mod, irs, _ = port(a.pk, os.path.join(corpus, "transpose",
                                          "transpose.cu"), a.work, "transpose")
    k = "transpose_padded"
    for rows, cols in ((70, 45), (300, 200)):
        x = rng.uniform(-10, 10, (rows, cols)).astype(np.float32)
        out, ops = run(mod, k, [None, x, rows, cols],
                       launch=(-(-cols // 32), 32, -(-rows // 32), 8))
        check(out.shape == (cols, rows) and np.array_equal(out, x.T),
              "transpose: exact on %d x %d" % (rows, cols))
        tiles = -(-rows // 128) * -(-cols // 128)
        check(ops == 4 * tiles, "transpose: %d traced operations for %d "
              "tiles" % (ops, tiles))
    shapes = allocs(irs[k]["body"], [])
    check(("sbuf", ("128", "128")) in shapes and
          ("psum", ("128", "128")) in shapes,
          "transpose: [128, 128] SBUF and PSUM tiles")
    try:
        run(mod, k, [None, x, rows, cols], launch=(6, 32, 10, 8))
        refused = False
    except AssertionError:
        refused = True
    check(refused, "transpose: a grid that does not cover the matrix is "
          "refused")

    # Attention probabilities: a q row staged in shared memory, a per-thread
    # dot product over the head dimension (nc_matmul of the transposed q rows
    # with transposed chunks of 128 K rows), the scores in dynamic shared
    # memory (an SBUF row tile), then the row softmax.
    mod, irs, _ = port(a.pk, os.path.join(corpus, "attention_scores",
                                          "attention_scores.cu"),
                       a.work, "attention")
    k = "attention_scores"
    spec = mod.PK_KERNELS[k]
    check([p.get("shape") for p in spec["params"][:3]] ==
          [["seqQ", "headDim"], ["seqK", "headDim"], ["seqQ", "seqK"]] and
          spec["launch"] == ["grid_x", "block_x", "shared_bytes"],
          "attention: Q [seqQ, d], Kmat [seqK, d], P [seqQ, seqK]; launch "
          "grid_x, block_x, shared_bytes")
    shapes = allocs(irs[k]["body"], [])
    check(("sbuf", ("128", "seqK")) in shapes and
          ("psum", ("128", "128")) in shapes,
          "attention: scores held in a [128, seqK] SBUF tile, [128, 128] "
          "PSUM matmul tiles")

    def attn_ref(q, km, scale):
        s = (q.astype(np.float64) @ km.astype(np.float64).T) * scale
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    for sq, sk, d, block in ((12, 77, 32, 64), (200, 300, 128, 128),
                             (130, 129, 1, 32)):
        q = rng.uniform(-1, 1, (sq, d)).astype(np.float32)
        km = rng.uniform(-1, 1, (sk, d)).astype(np.float32)
        scale = float(np.float32(1 / math.sqrt(d)))
        out, ops = run(mod, k, [q, km, None, sq, sk, d, scale],
                       launch=(sq, block, 4 * sk))
        check(np.allclose(out, attn_ref(q, km, scale), rtol=1e-4, atol=1e-6),
              "attention: matches softmax(scale * Q K^T) on %d x %d, d = %d "
              "(block %d)" % (sq, sk, d, block))
        tiles = -(-sq // 128) * -(-sk // 128)
        check(ops <= 12 + 30 * tiles, "attention: %d traced operations for "
              "%d tiles of 128 x 128" % (ops, tiles))
    for launch, why in (((sq, block, 4 * sk - 4), "dynamic shared memory "
                         "smaller than a row of scores"),
                        ((sq - 1, block, 4 * sk), "fewer blocks than rows")):
        try:
            run(mod, k, [q, km, None, sq, sk, d, scale], launch=launch)
            refused = False
        except AssertionError:
            refused = True
        check(refused, "attention: a launch with %s is refused" % why)
    d = 129
    q = rng.uniform(-1, 1, (4, d)).astype(np.float32)
    km = rng.uniform(-1, 1, (5, d)).astype(np.float32)
    try:
        run(mod, k, [q, km, None, 4, 5, d, 0.1], launch=(4, 64, 20))
        refused = False
    except AssertionError:
        refused = True
    check(refused, "attention: a head dimension over 128 (the staged row's "
          "size, the matmul's K) is refused")

    # A tree: one .py per input (a header gets <stem>_cuh.py), the report
    # lists each kernel's finding, the unlifted kernel is left out.
    tree = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tree")
    out = os.path.join(a.work, "tree")
    shutil.rmtree(out, ignore_errors=True)
    report = os.path.join(a.work, "tree-report.json")
    r = subprocess.run([a.pk, "port", "-q", "--to", "nki", "-o", out,
                        "--report", report, tree],
                       capture_output=True, text=True)
    check(r.returncode == 0, "tree: port exits 0 (warnings only)")
    base = [d for d, _, fs in os.walk(out) if "scale.py" in fs]
    base = base[0] if base else out
    got = sorted(os.path.relpath(os.path.join(d, f), base)
                 for d, _, fs in os.walk(base) for f in fs)
    check(got == ["common_cuh.py", "scale.py", "sub/relu.py"],
          "tree: outputs %s" % got)
    with open(report) as f:
        rep = json.load(f)
    rules = sorted(x["rule"] for t in rep["targets"] for x in t["findings"])
    check(rules == ["PK5001", "PK5001", "PK5002"],
          "tree: report findings %s" % rules)
    spec = importlib.util.spec_from_file_location(
        "tree_scale", os.path.join(base, "scale.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    check(sorted(m.PK_KERNELS) == ["scale"] and not hasattr(m, "histogram"),
          "tree: scale.py has scale only")
    n = 700
    x = rng.uniform(-1, 1, n).astype(np.float32)
    o, _ = run(m, "scale", [None, x, n])
    check(np.array_equal(o, 2 * x), "tree: scale computes 2x")
    spec = importlib.util.spec_from_file_location(
        "tree_relu", os.path.join(base, "sub", "relu.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    x = rng.uniform(-10, 10, n).astype(np.float32)
    o, _ = run(m, "relu6", [None, x, n], launch=(3, 256))
    check(np.array_equal(o, np.minimum(np.maximum(x, 0), 6)),
          "tree: relu6 computes min(max(x, 0), 6)")

    # inclusive_scan: the block scan (shuffle-up warp scans, warp totals,
    # the sum before the tile) as byte-plane prefix sums by nc_matmul.
    mod, irs, _ = port(a.pk, os.path.join(corpus, "inclusive_scan",
                                          "inclusive_scan.cu"), a.work,
                       "inclusive_scan")
    k = "scan_inclusive"
    spec = mod.PK_KERNELS[k]
    check([(p["kind"], p["dtype"], p.get("role"), p.get("shape"))
           for p in spec["params"]] ==
          [("tensor", "int32", "in", ["n"]), ("tensor", "int32", "out", ["n"]),
           ("scalar", "int32", None, None)] and
          spec["launch"] == ["grid_x", "block_x"],
          "inclusive_scan: in [n] int32, out [n] int32, n; launch grid_x, "
          "block_x")

    def wrapped_cumsum(x):
        return (np.cumsum(x.astype(np.int64)) & 0xFFFFFFFF).astype(
            np.uint32).view(np.int32)

    # The case; several row tiles with ragged rows and tail; the largest n
    # accepted with full-range values (every byte plane at its bound).
    for n, lo, hi, block in ((1500, -100, 100, 256), (20000, -10**6, 10**6, 128),
                             (65536, -2**31, 2**31, 256)):
        x = rng.integers(lo, hi, n, dtype=np.int64).astype(np.int32)
        grid = -(-n // block)
        out, ops = run(mod, k, [x, None, n], launch=(grid, block))
        check(out.dtype == np.int32 and np.array_equal(out, wrapped_cumsum(x)),
              "inclusive_scan: exact prefix sums of %d ints in [%d, %d) "
              "(block %d)" % (n, lo, hi, block))
        tiles = -(-(n // 128) // 128) + (1 if n % 128 else 0)
        check(ops <= 30 + 80 * tiles, "inclusive_scan: %d traced operations "
              "for %d tiles" % (ops, tiles))
    shapes = allocs(irs[k]["body"], [])
    check(("psum", ("128", "128")) in shapes and
          ("sbuf", ("128", "128")) in shapes and ("sbuf", ("1", "4")) in shapes,
          "inclusive_scan: [128, 128] SBUF and PSUM tiles, a [1, 4] carry")
    x = np.ones(65537, dtype=np.int32)
    for args, launch, what in (
            ([x, None, 65537], (257, 256), "n > 65536 (fp32 sums not exact)"),
            ([x[:1500], None, 1500], (5, 256), "a grid that does not cover n"),
            ([x[:1500], None, 1500], (8, 200), "a block that is not whole "
             "warps")):
        try:
            run(mod, k, args, launch=launch)
            refused = False
        except AssertionError:
            refused = True
        check(refused, "inclusive_scan: %s is refused" % what)

    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
