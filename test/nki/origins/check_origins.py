#!/usr/bin/python3
# Rules: PK5001
"""Which source lines became which tile operations (lib/Targets/NKI/
LiftOrigins.cpp, the report's NKI tables).

1. Every kernel that `port --to nki` lifts from the corpus and from the
   idiom suite (test/nki/idioms): every tile operation of its tile program
   (PK_NKI_DUMP_TILE_IR) has an origin: rule PK5001, a reason, and lines
   inside the kernel's own definition in its file, read from the source
   (not the fallback to the kernel's whole body).
2. `report --to nki --markdown` of the corpus: every row of a file's
   operation table names an output line of the ported module that holds
   that operation (the report's line numbers are the output's), every
   lifted operation has its row, and the HTML page has the same rows.
3. Kernels written here, with the lines each operation must come from: the
   reads of a parameter (through a pointer declared from it), the stores to
   one (an assignment of a class type, __half), the math function an
   activation computes, the warp shuffles a reduction stands for.

    check_origins.py --pk PORT_KERNEL --source-dir SRC --work DIR
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print("FAIL: " + msg)


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def port(pk, srcs, work, name):
    """Ports srcs to NKI; returns (tile programs, output dir)."""
    dump = os.path.join(work, name + ".jsonl")
    out = os.path.join(work, name + "-out")
    shutil.rmtree(out, ignore_errors=True)
    if os.path.exists(dump):
        os.remove(dump)
    r = run([pk, "port", "-q", "--to", "nki", "-o", out] + srcs,
            env=dict(os.environ, PK_NKI_DUMP_TILE_IR=dump))
    if r.returncode not in (0, 1):
        raise SystemExit("port failed (%d): %s" % (r.returncode, r.stderr))
    irs = []
    if os.path.exists(dump):
        with open(dump) as f:
            irs = [json.loads(line) for line in f]
    return irs, out


def ops(body):
    for s in body:
        if "body" in s:
            yield from ops(s["body"])
        elif "op" in s:
            yield s


def kernel_lines(src_text, name):
    """(first, last) line of the definition of __global__ NAME: from the
    line naming it to its closing brace (braces counted, no comments or
    strings in these sources' kernels hold one)."""
    lines = src_text.split("\n")
    pat = re.compile(r"\b%s\s*\(" % re.escape(name))
    for i, l in enumerate(lines):
        if not pat.search(l):
            continue
        # The definition: a __global__ within the 3 lines above or here.
        if not any("__global__" in lines[j] for j in range(max(0, i - 3), i + 1)):
            continue
        depth, seen = 0, False
        for j in range(i, len(lines)):
            depth += lines[j].count("{") - lines[j].count("}")
            seen = seen or "{" in lines[j]
            if seen and depth == 0:
                return i + 1, j + 1
    return None


def check_programs(irs, src_of):
    """Part 1: every operation has an origin inside its kernel."""
    n_ops = 0
    for ir in irs:
        src = src_of.get(ir["kernel"])
        if src is None:
            continue
        with open(src) as f:
            span = kernel_lines(f.read(), ir["kernel"])
        if span is None:
            fail("%s: kernel %s not found in %s" % (ir["kernel"], ir["kernel"], src))
            continue
        for op in ops(ir["body"]):
            n_ops += 1
            fr = op.get("from")
            where = "%s: %s %s" % (ir["kernel"], op["op"], op["dst"])
            if not fr:
                fail(where + ": no origin")
                continue
            if fr["rule"] != "PK5001" or not fr["why"]:
                fail(where + ": origin %r" % fr)
            # Read from the source: the parameter reads and stores, the calls
            # or the stores an operation computes toward; none of these
            # kernels needs the fallback to the kernel's whole body.
            if fr["why"].startswith("the kernel's"):
                fail(where + ": attributed to the whole kernel: " + fr["why"])
            if not (span[0] <= fr["line"] <= fr["end_line"] <= span[1]):
                fail(where + ": lines %d-%d outside the kernel (%d-%d)"
                     % (fr["line"], fr["end_line"], span[0], span[1]))
    return n_ops


ROW = re.compile(r"^\| `(?P<kernel>[^`]+)` \| (?P<lines>\d+(?:-\d+)?) \| "
                 r"(?P<out>\d+) \| `(?P<what>[^`]+)` \| (?P<rule>PK\d+) \| "
                 r"(?P<why>.*) \|$")


def check_report(pk, srcs, work, out_dir, n_ops):
    """Part 2: the report's rows point at the output's operations."""
    md = os.path.join(work, "report.md")
    r = run([pk, "report", "--to", "nki", "-o", os.path.join(work, "report.html"),
             "--markdown", md] + srcs)
    if r.returncode != 0:
        fail("report failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
        return
    rows = []
    with open(md) as f:
        for line in f:
            m = ROW.match(line.rstrip("\n"))
            if m:
                rows.append(m)
    if len(rows) != n_ops:
        fail("the report has %d operation rows, the tile programs %d operations"
             % (len(rows), n_ops))
    # The rows come per file in output order; find each file's module.
    modules = {}
    for py in glob.glob(os.path.join(out_dir, "**", "*.py"), recursive=True):
        with open(py) as f:
            text = f.read().split("\n")
        for i, l in enumerate(text):
            m = re.match(r"def (\w+)\(", l)
            if m:
                modules.setdefault(m.group(1), text)
    checked = 0
    for m in rows:
        text = None
        for name, t in modules.items():
            if name.rstrip("_") == m["kernel"].rstrip("_"):
                text = t
        if text is None:
            continue
        n = int(m["out"])
        got = text[n - 1].strip() if 0 < n <= len(text) else ""
        if not got.startswith(m["what"] + "("):
            fail("report row %s line %d: %r is not the output's line (%r)"
                 % (m["kernel"], n, m["what"], got))
        checked += 1
    # The HTML page has the same rows (its tables of class "origins").
    with open(os.path.join(work, "report.html")) as f:
        html = f.read()
    n_html = sum(t.count("<tr><td><code>") for t in
                 re.findall(r'<table class="origins">(.*?)</table>', html, re.S))
    if n_html != len(rows):
        fail("the HTML report has %d operation rows, the Markdown %d"
             % (n_html, len(rows)))
    if checked < len(rows) // 2:
        fail("only %d of %d report rows matched to an output module"
             % (checked, len(rows)))


# Part 3: kernels with known origins.  (source, kernel, [(op, fn or None,
# lines, why fragment)]): the first operation of that kind (and function)
# must have those lines and a reason containing the fragment.
OWN = {
    "own_map.cu": ("""#include <cuda_fp16.h>
__global__ void scaled_exp(__half *out, const __half *in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const __half *src = in + 0;
  if (i < n) {
    float v = __half2float(src[i]);
    float e = expf(v * s);
    out[i] = __float2half(e);
  }
}
""", "scaled_exp", [
        ("dma_copy", None, "in", (6, 6), "the reads of 'in' (line 6)"),
        ("activation", "nl.exp", None, (7, 7), "expf (line 7)"),
        ("dma_copy", None, "out", (8, 8), "the stores to 'out' (line 8)"),
    ]),
    "own_rows.cu": ("""__global__ void row_max(float *out, const float *x, int cols) {
  int row = blockIdx.x;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += 32)
    m = fmaxf(m, x[row * cols + c]);
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (threadIdx.x == 0)
    out[row] = m;
}
""", "row_max", [
        ("tensor_reduce", "nl.maximum", None, (5, 7), "__shfl_xor_sync"),
        ("dma_copy", None, "out", (9, 9), "the stores to 'out' (line 9)"),
    ]),
}


def check_own(pk, work):
    d = os.path.join(work, "own")
    os.makedirs(d, exist_ok=True)
    srcs = []
    for name, (text, _, _) in OWN.items():
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(text)
        srcs.append(p)
    irs, _ = port(pk, srcs, work, "own")
    by_kernel = {ir["kernel"]: ir for ir in irs}
    for name, (_, kernel, wants) in OWN.items():
        ir = by_kernel.get(kernel)
        if ir is None:
            fail("%s: kernel %s not lifted" % (name, kernel))
            continue
        for kind, fn, tensor, (lo, hi), why in wants:
            # A parameter's tensor: its Python name (`in` is `in_`).
            tpat = re.compile(r"^%s_*\[" % re.escape(tensor or ""))
            cands = [o for o in ops(ir["body"]) if o["op"] == kind
                     and (fn is None or o.get("fn") == fn)
                     and (tensor is None or tpat.match(o["dst"])
                          or any(tpat.match(s) for s in o["srcs"]))]
            if not cands:
                fail("%s: no %s %s %s" % (kernel, kind, fn or "", tensor or ""))
                continue
            fr = cands[0].get("from", {})
            if (fr.get("line"), fr.get("end_line")) != (lo, hi) or \
                    why not in fr.get("why", ""):
                fail("%s: %s %s: origin %r, want lines %d-%d and %r"
                     % (kernel, kind, fn or tensor, fr, lo, hi, why))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pk", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)

    srcs = sorted(glob.glob(os.path.join(a.source_dir, "corpus", "*", "*.cu")) +
                  glob.glob(os.path.join(a.source_dir, "test", "nki", "idioms",
                                         "*.cu")))
    # Each kernel's file (names are unique across these inputs but for a
    # few: the first wins, and a kernel not found where expected fails).
    src_of = {}
    for s in srcs:
        with open(s) as f:
            for m in re.finditer(r"__global__\s+(?:void\s+)?(?:__launch_bounds__\([^)]*\)\s+)?"
                                 r"(?:void\s+)?(\w+)\s*\(", f.read()):
                src_of.setdefault(m.group(1), s)
    irs, out = port(a.pk, srcs, a.work, "all")
    if len(irs) < 30:
        fail("only %d kernels lifted from %d files" % (len(irs), len(srcs)))
    n_ops = check_programs(irs, src_of)
    print("%d kernels, %d tile operations checked" % (len(irs), n_ops))
    # The report over the corpus (its kernels' operations only).
    corpus = [s for s in srcs if os.sep + "corpus" + os.sep in s]
    corpus_kernels = {k for k, s in src_of.items() if s in corpus}
    n_corpus = sum(1 for ir in irs if ir["kernel"] in corpus_kernels
                   for _ in ops(ir["body"]))
    check_report(a.pk, corpus, a.work, out, n_corpus)
    check_own(a.pk, a.work)
    if FAILURES:
        print("%d failures" % len(FAILURES))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
