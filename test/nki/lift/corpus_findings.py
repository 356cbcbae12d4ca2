#!/usr/bin/python3
# Rules: PK5001, PK5002, PK5003, PK5004, PK5040
"""Ports the whole corpus with `port-kernel port --to nki` and checks which
kernels are lifted and, for each corpus kernel that is not, the finding a
user gets: the rule, the file and line of the construct that stops it, and
the reason.

    corpus_findings.py --pk PORT_KERNEL --source-dir SRC --work DIR
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

LIFTED = {
    "saxpy": "saxpy", "bias_gelu": "bias_gelu",
    "warp_softmax": "softmax_warp_per_row", "layernorm": "layernorm_fwd",
    "rmsnorm": "rmsnorm_f16", "block_reduce": "block_reduce_sum",
    "transpose": "transpose_padded", "sgemm_tiled": "sgemm_tiled",
    "sgemm_regblock": "sgemm_regblock", "wmma_hgemm": "wmma_hgemm",
    "wmma_bf16_gemm": "wmma_bf16_gemm", "wmma_gemm_smem": "wmma_gemm_smem",
    "attention_scores": "attention_scores", "hip_wave_reduce": "row_sums",
    "inclusive_scan": "scan_inclusive",
    "wmma_gemm_warptile": "wmma_gemm_warptile",
    "attention_wmma": "attention_wmma",
}
# case -> (kernel, rule, source line text the finding points at, reason)
REFUSED = {
    "histogram": ("histogram256", "PK5002", "atomicAdd", "atomicAdd"),
    "stream_compact": ("compact_by_threshold", "PK5003", None,
                       "depends on data read at run time"),
}

FINDING = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): warning: "
                     r"kernel '(?P<kernel>[^']+)' is not lifted to NKI: "
                     r"(?P<msg>.*) \[(?P<rule>PK\d{4})\]$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pk", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    corpus = os.path.join(a.source_dir, "corpus")
    out = os.path.join(a.work, "corpus-nki")
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([a.pk, "port", "-q", "--to", "nki", "-o", out, corpus],
                       capture_output=True, text=True)
    findings = {}
    for line in r.stderr.splitlines():
        m = FINDING.match(line.strip())
        if m:
            findings[m.group("kernel")] = m
    failures = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            failures.append(what)

    outputs = {}
    for d, _, fs in os.walk(out):
        for f in fs:
            if f.endswith(".py"):
                outputs[f[:-3]] = open(os.path.join(d, f)).read()
    for case, kernel in sorted(LIFTED.items()):
        src = outputs.get(case, "")
        check(re.search(r"^def %s\(" % kernel, src, re.M) is not None and
              kernel not in findings,
              "%s: '%s' is lifted (a def in %s.py, no finding)" %
              (case, kernel, case))
    for case, (kernel, rule, at, why) in sorted(REFUSED.items()):
        m = findings.get(kernel)
        check(m is not None, "%s: '%s' has a finding" % (case, kernel))
        if not m:
            continue
        src = os.path.join(corpus, case, case + ".cu")
        check(os.path.samefile(m.group("file"), src) if
              os.path.exists(m.group("file")) else
              m.group("file").endswith(case + ".cu"),
              "%s: the finding is in %s.cu" % (case, case))
        lines = open(src).read().splitlines()
        text = lines[int(m.group("line")) - 1]
        check(m.group("rule") == rule and why in m.group("msg") and
              (at is None or at in text),
              "%s: %s at line %s (%s): %s" %
              (case, m.group("rule"), m.group("line"), text.strip(),
               m.group("msg")))
        check(re.search(r"^def %s\(" % kernel, outputs.get(case, ""), re.M)
              is None, "%s: no kernel is emitted for '%s'" % (case, kernel))
    if failures:
        print("%d check(s) failed" % len(failures))
        print(r.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
