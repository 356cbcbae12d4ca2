#!/usr/bin/python3
# Rules: PK5001
"""Name hygiene of `port --to nki`: corpus kernels whose parameters are
renamed to the names the emitter generates for them (tiles, loop variables,
tile bounds, launch dimensions: every name their tile program binds, read
from PK_NKI_DUMP_TILE_IR) and to the names the module needs (the imported
modules, the builtins the generated code calls, PK_KERNELS), and whose kernel
is renamed to one of the latter, are ported and run with
`port-kernel validate --to nki` on the NumPy NKI simulator against the
corpus references.  Every variant must pass, every generated name of a
kernel must be used by one of its variants, and the PK5001 note of each
variant must say which user names the output changed.

    check_names.py --pk PORT_KERNEL --source-dir SRC --work DIR
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

# case -> kernel (one family each: 1-D and 2-D element-wise maps, a warp per
# row, a block per row, a staged transpose, a block scan, a GEMM).
CASES = {
    "saxpy": "saxpy",
    "bias_gelu": "bias_gelu",
    "warp_softmax": "softmax_warp_per_row",
    "layernorm": "layernorm_fwd",
    "transpose": "transpose_padded",
    "inclusive_scan": "scan_inclusive",
    "sgemm_tiled": "sgemm_tiled",
}
# What the generated module reads that is not its own local: the modules it
# imports, the builtins the emitter calls, the calling-convention table.
MODULE_NAMES = ["nl", "nisa", "nki", "range", "min", "max", "len",
                "PK_KERNELS"]


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def tile_ir(pk, src, work, kernel):
    dump = os.path.join(work, "ir.jsonl")
    if os.path.exists(dump):
        os.remove(dump)
    out = os.path.join(work, "ir-out")
    shutil.rmtree(out, ignore_errors=True)
    r = run([pk, "port", "-q", "--to", "nki", "-o", out, src],
            env=dict(os.environ, PK_NKI_DUMP_TILE_IR=dump))
    if r.returncode != 0:
        raise SystemExit("port of %s failed: %s" % (src, r.stderr))
    with open(dump) as f:
        for line in f:
            k = json.loads(line)
            if k["kernel"] == kernel:
                return k
    raise SystemExit("%s: kernel %s not lifted" % (src, kernel))


def bound_names(ir):
    names = set(ir["launch"])

    def walk(body):
        for s in body:
            for key in ("assign", "loop", "alloc"):
                if key in s:
                    names.add(s[key])
            if "body" in s:
                walk(s["body"])
    walk(ir["body"])
    return names


def rename(text, old, new):
    # Identifiers only: not members (threadIdx.x, p->x), not substrings.
    return re.sub(r"(?<![.\w])(?<!->)%s(?!\w)" % re.escape(old), new, text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pk", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--max-variants", type=int, default=3,
                    help="variants per kernel (0: as many as it takes to "
                    "use every name)")
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    cases_dir = os.path.join(a.work, "cases")
    # Shared headers of the corpus (../common/...), next to the cases.
    shutil.copytree(os.path.join(a.source_dir, "corpus", "common"),
                    os.path.join(cases_dir, "common"))
    failures = []
    variants = {}  # variant dir name -> (kernel name, {old: new})
    for case, kernel in sorted(CASES.items()):
        src_dir = os.path.join(a.source_dir, "corpus", case)
        with open(os.path.join(src_dir, "case.yaml")) as f:
            spec = f.read()
        source = re.search(r"^source:\s*(\S+)", spec, re.M).group(1)
        with open(os.path.join(src_dir, source)) as f:
            text = f.read()
        ir = tile_ir(a.pk, os.path.join(src_dir, source), a.work, kernel)
        params = [p["name"] for p in ir["params"]]
        user = set(params) | {p + "_" for p in params}
        words = set(re.findall(r"[A-Za-z_]\w*", text))
        numbered = re.compile(r"_\d+$")
        generated = sorted((n for n in bound_names(ir) if n not in user),
                           key=lambda n: (bool(numbered.search(n)), n))
        # Names already in the file cannot be given to a parameter without
        # changing what the CUDA code means; each must be a name the
        # generated code binds (else the case proves nothing).
        pool = [n for n in generated if n not in words]
        skipped = [n for n in generated if n in words]
        mods = [n for n in MODULE_NAMES if n not in words]
        # Module names go early enough to be taken under the cap.
        pool = pool[:len(params)] + mods + pool[len(params):]
        if not generated:
            failures.append("%s: the tile program binds no names" % case)
            continue
        print("%s: %d generated names, %d module names; in the source "
              "already (not used): %s" % (case, len(generated), len(mods),
                                         skipped))
        nvar = (len(pool) + len(params) - 1) // len(params)
        if a.max_variants:
            nvar = min(nvar, a.max_variants)
        for v in range(nvar):
            chunk = pool[v * len(params):(v + 1) * len(params)]
            while len(chunk) < len(params):  # fill the last variant
                chunk.append(pool[len(chunk) % len(pool)])
                if len(set(chunk)) != len(chunk):
                    chunk[-1] = "pk_fill_%d" % len(chunk)
            mapping = dict(zip(params, chunk))
            new_kernel = mods[v % len(mods)]
            vtext = text
            for old in params:  # via placeholders: old and new may overlap
                vtext = rename(vtext, old, "PKTMP_" + old)
            for old, new in mapping.items():
                vtext = rename(vtext, "PKTMP_" + old, new)
            vtext = rename(vtext, kernel, new_kernel)
            name = "%s_v%d" % (case, v)
            d = os.path.join(cases_dir, name)
            shutil.copytree(src_dir, d)
            with open(os.path.join(d, source), "w") as f:
                f.write(vtext)
            vspec = re.sub(r"^name:.*$", "name: " + name, spec, flags=re.M)
            vspec = re.sub(r"^entry:\s*%s\b" % re.escape(kernel),
                           "entry: " + new_kernel, vspec, flags=re.M)
            with open(os.path.join(d, "case.yaml"), "w") as f:
                f.write(vspec)
            variants[name] = (new_kernel, mapping, source)

    # The PK5001 note names what the output changed.
    for name, (kernel, mapping, source) in sorted(variants.items()):
        out = os.path.join(a.work, "port", name)
        r = run([a.pk, "port", "--to", "nki", "-o", out,
                 os.path.join(cases_dir, name, source)])
        notes = [l for l in r.stderr.splitlines()
                 if "[PK5001]" in l and "'%s' lifted" % kernel in l]
        if r.returncode != 0 or len(notes) != 1:
            failures.append("%s: port exit %d, PK5001 notes %s\n%s" %
                            (name, r.returncode, notes, r.stderr))
            continue
        note = notes[0]
        if "the kernel is the Python function '%s_'" % kernel not in note:
            failures.append("%s: the note does not say the kernel '%s' was "
                            "renamed: %s" % (name, kernel, note))
        if "is '" not in note:
            failures.append("%s: the note names no renamed parameter (%s): "
                            "%s" % (name, mapping, note))
        print("ok   %s: %s" % (name, note.split("(names changed", 1)[-1]))

    r = run([a.pk, "validate", "--to", "nki", "--json", "-j", "2",
             cases_dir])
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        raise SystemExit("validate wrote no JSON (exit %d): %s" %
                         (r.returncode, r.stderr))
    seen = set()
    for c in doc["cases"]:
        for res in c["results"]:
            if res["variant"] != "nki":
                continue
            seen.add(c["name"])
            ok = res["status"] == "pass"
            print(("ok   " if ok else "FAIL ") + "%s on the NKI simulator" %
                  c["name"])
            if not ok:
                failures.append("%s: %s" % (c["name"], json.dumps(res)))
    missing = sorted(set(variants) - seen)
    if missing:
        failures.append("not validated: %s" % missing)
    if failures:
        print("\n".join("FAIL " + f for f in failures))
        return 1
    print("%d variants pass" % len(variants))
    return 0


if __name__ == "__main__":
    sys.exit(main())
