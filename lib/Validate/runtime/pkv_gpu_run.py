#!/usr/bin/env python3
# Builds and runs a GPU bundle written by `port-kernel validate --gpu-bundle`
# (or by `validate --gpu`, which runs it itself).  Needs only python3, bash and
# nvcc; no port-kernel and no LLVM.  See docs/validate.md, "On an NVIDIA GPU".
#
# For each entry of manifest.json and each variant (the original source and
# its CUDA port): build the driver with nvcc -O3 -arch=ARCH, run it on the
# GPU, read its result line (the comparison with the CPU reference) and its
# timing line (CUDA events, median of repeats), print a table and write
# results.json.  Exit status: 0 every variant passed (or was skipped),
# 1 something failed, 2 usage error, 3 no nvcc or no usable NVIDIA GPU.
import argparse
import concurrent.futures
import datetime
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

PROBE = r"""
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    std::printf("{\"ok\":false,\"reason\":\"%s\"}\n", cudaGetErrorString(e));
    return 1;
  }
  if (n == 0) {
    std::printf("{\"ok\":false,\"reason\":\"no CUDA device\"}\n");
    return 1;
  }
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    std::printf("{\"ok\":false,\"reason\":\"cannot read device 0\"}\n");
    return 1;
  }
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  std::printf("{\"ok\":true,\"name\":\"%s\",\"major\":%d,\"minor\":%d,"
              "\"count\":%d,\"runtime\":%d,\"driver_api\":%d,"
              "\"memory_mib\":%llu}\n",
              p.name, p.major, p.minor, n, rt, drv,
              (unsigned long long)(p.totalGlobalMem >> 20));
  return 0;
}
"""


def eprint(*a):
    print(*a, file=sys.stderr, flush=True)


def find_nvcc(given):
    if given:  # an explicit choice, no fallback
        w = shutil.which(given)
        return w if w and os.access(w, os.X_OK) else None
    cands = []
    if os.environ.get("NVCC"):
        cands.append(os.environ["NVCC"])
    w = shutil.which("nvcc")
    if w:
        cands.append(w)
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            cands.append(os.path.join(os.environ[var], "bin", "nvcc"))
    cands.append("/usr/local/cuda/bin/nvcc")
    for c in cands:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def nvcc_version(nvcc):
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    m = re.search(r"release ([0-9.]+), (V[0-9.]+)", out)
    return m.group(1) + " (" + m.group(2) + ")" if m else out.strip()[-40:]


def nvidia_smi():
    """GPU name, driver and compute capability as nvidia-smi reports them."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        r = subprocess.run([smi, "--query-gpu=name,driver_version,compute_cap",
                            "--format=csv,noheader"], capture_output=True,
                           text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0 or not r.stdout.strip():
        return None
    parts = [p.strip() for p in r.stdout.strip().splitlines()[0].split(",")]
    return {"name": parts[0], "driver": parts[1] if len(parts) > 1 else "",
            "compute_cap": parts[2] if len(parts) > 2 else ""}


def probe(nvcc, build):
    """Builds and runs a device query; returns (info, reason)."""
    os.makedirs(build, exist_ok=True)
    src = os.path.join(build, "probe.cu")
    exe = os.path.join(build, "probe")
    with open(src, "w") as f:
        f.write(PROBE)
    r = subprocess.run([nvcc, "-o", exe, src], capture_output=True, text=True)
    if r.returncode != 0:
        return None, "nvcc cannot build a device query: " + \
            (r.stderr.strip().splitlines() or ["?"])[-1]
    try:
        r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, "the device query hung"
    line = (r.stdout.strip().splitlines() or [""])[-1]
    try:
        info = json.loads(line)
    except ValueError:
        info = {"ok": False, "reason": "device query exit status %d" %
                r.returncode}
    if not info.get("ok"):
        return None, info.get("reason", "unknown")
    return info, ""


def run_bounded(cmd, cwd, env, timeout):
    """(returncode, stdout, stderr, timed_out)"""
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True,
                           text=True, errors="replace",
                           timeout=timeout or None)
        return r.returncode, r.stdout, r.stderr, False
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(
            e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(
            e.stderr, bytes) else (e.stderr or "")
        return None, out, err, True


def json_lines(text, key):
    found = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{\"" + key + "\":"):
            try:
                found = json.loads(line)
            except ValueError:
                pass
    return found


def error_summary(log, n=6):
    lines = [l.rstrip() for l in log.splitlines() if "error" in l]
    if not lines:
        lines = [l.rstrip() for l in log.splitlines() if l.strip()][-n:]
    return "\n".join(lines[:n])


def num(x):
    if isinstance(x, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(x, 0)
    return x


def jnum(x):
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    return x


class Cell:
    def __init__(self, variant):
        self.variant = variant
        self.status = "fail"
        self.kind = ""
        self.reason = ""
        self.detail = ""
        self.outputs = []
        self.timing = None
        self.exit_code = 0
        self.seconds = 0.0
        self.exe = None
        self.ms_runs = []

    def json(self):
        o = {"variant": self.variant, "status": self.status}
        for k in ("kind", "reason", "detail"):
            if getattr(self, k):
                o[k] = getattr(self, k)
        if self.outputs:
            o["max_abs"] = jnum(max(num(x["max_abs"]) for x in self.outputs))
            o["max_rel"] = jnum(max(num(x["max_rel"]) for x in self.outputs))
            o["outputs"] = [{k: x[k] for k in (
                "name", "count", "mismatches", "nan_mismatches", "max_abs",
                "max_rel", "first_bad") if k in x} for x in self.outputs]
        if self.timing:
            o["ms"] = self.timing["ms"]
            o["timing"] = self.timing
        o["exit_code"] = self.exit_code
        o["seconds"] = round(self.seconds, 3)
        return o


def build_one(args, nvcc, arch, entry, var):
    """Builds one driver; returns (cell or None on success, exe)."""
    cell = Cell(var["variant"])
    rel = var["driver"]
    exe = os.path.join(args.build_dir, entry["name"], var["variant"])
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    cmd = [nvcc, "-O3", "-std=c++17", "-arch=" + arch, "-o", exe] + \
        var.get("nvcc_flags", []) + [os.path.join(args.bundle, rel)]
    t0 = time.time()
    rc, out, err, to = run_bounded(cmd, args.bundle, None, args.timeout)
    cell.seconds = time.time() - t0
    with open(exe + ".log", "w") as f:
        f.write(" ".join(cmd) + "\n" + out + err)
    if to:
        cell.kind = "timeout"
        cell.reason = "nvcc timed out after %d s" % args.timeout
        return cell, None
    if rc != 0:
        cell.kind = "compile"
        cell.detail = error_summary(out + err)
        cell.reason = "compile error: " + \
            (cell.detail.splitlines() or ["nvcc exit %d" % rc])[0]
        return cell, None
    return None, exe


def run_case(args, entry, cell, exe):
    env = dict(os.environ)
    env["PKV_GPU_WARMUP"] = str(args.warmup)
    env["PKV_GPU_REPEATS"] = str(args.repeats)
    env["PKV_GPU_BATCH"] = str(args.batch)
    env["PKV_GPU_WARMUP_MS"] = str(args.warmup_ms)
    env["PKV_GPU_SPIN_MS"] = str(args.spin_ms)
    t0 = time.time()
    rc, out, err, to = run_bounded([exe], args.bundle, env, args.timeout)
    cell.seconds += time.time() - t0
    cell.exit_code = rc if rc is not None else -1
    tail = "\n".join(err.strip().splitlines()[-8:])
    if to:
        cell.kind = "timeout"
        cell.reason = "timed out after %d s" % args.timeout
        cell.detail = tail
        return
    if rc < 0:
        cell.kind = "crash"
        cell.reason = "crashed: signal %d" % -rc
        cell.detail = tail
        return
    res = json_lines(out, "pkv")
    cell.timing = json_lines(out, "pkv_gpu")
    if not res:
        cell.kind = "run"
        cell.reason = "no result (exit status %d)" % rc
        cell.detail = tail
        return
    cell.outputs = res.get("outputs", [])
    if res.get("status") == "error":
        cell.kind = "run"
        cell.reason = "runtime error: " + res.get("message", "")
        cell.detail = tail
        return
    if res.get("status") == "mismatch":
        cell.kind = "mismatch"
        parts = []
        for o in cell.outputs:
            if o.get("mismatches"):
                parts.append("%s[%d] = %.7g (want %.7g); %d of %d differ" % (
                    o["name"], o["first_bad"], num(o.get("got", 0)),
                    num(o.get("want", 0)), o["mismatches"], o["count"]))
        cell.reason = "mismatch: " + "; ".join(parts)
        return
    if rc != 0:
        cell.kind = "run"
        cell.reason = "exit status %d after a passing comparison" % rc
        return
    if cell.timing is None and args.repeats > 0:
        cell.kind = "run"
        cell.reason = "no timing line (the timed launches failed)"
        cell.detail = tail
        return
    cell.status = "pass"


def run_program(args, entry, cell, exe):
    """A self-checking program: passes when it exits 0 (and its output
    matches the expected/failure expressions); timed as whole runs."""
    runs = []
    total = args.prog_warmup + max(1, args.prog_repeats)
    for i in range(total):
        t0 = time.time()
        rc, out, err, to = run_bounded([exe] + entry.get("args", []),
                                       args.bundle, None, args.timeout)
        dt = time.time() - t0
        cell.seconds += dt
        cell.exit_code = rc if rc is not None else -1
        tail = "\n".join((out + err).strip().splitlines()[-6:])
        if to:
            cell.kind, cell.reason = "timeout", "timed out after %d s" % \
                args.timeout
            cell.detail = tail
            return
        if rc != 0:
            cell.kind = "crash" if rc < 0 else "run"
            cell.reason = ("crashed: signal %d" % -rc) if rc < 0 else \
                "exit status %d" % rc
            cell.detail = tail
            return
        fo = entry.get("fail_output")
        if fo:
            m = re.search(fo, out, re.M)
            if m:
                s = out.rfind("\n", 0, m.start()) + 1
                cell.kind = "run"
                cell.reason = "output matches --fail-output: " + \
                    out[s:].split("\n")[0]
                return
        eo = entry.get("expect_output")
        if eo and not re.search(eo, out, re.M):
            cell.kind = "run"
            cell.reason = "output does not match --expect-output '%s'" % eo
            cell.detail = tail
            return
        if i >= args.prog_warmup:
            runs.append(dt * 1000.0)
    cell.timing = {"ms": round(statistics.median(runs), 3),
                   "min": round(min(runs), 3), "max": round(max(runs), 3),
                   "warmup": args.prog_warmup, "repeats": len(runs),
                   "what": "whole program (wall clock)"}
    cell.status = "pass"


def fmt_ms(c):
    if c is None or c.status != "pass" or not c.timing:
        return "-"
    return "%.4f" % c.timing["ms"]


def err_cell(c):
    if c.status == "skip":
        return "SKIP"
    if c.status == "pass":
        if not c.outputs:
            return "PASS"
        a = max(num(x["max_abs"]) for x in c.outputs)
        r = max(num(x["max_rel"]) for x in c.outputs)
        return "PASS %.1e/%.1e" % (a, r)
    return "FAIL " + c.kind


def same_sources(bundle, entry, a, b):
    """True when variants a and b of a case have byte-identical sources (the
    port changed nothing): their speed differs only by measurement noise."""
    def files(v):
        root = os.path.join(bundle, "cases", entry["name"], v)
        out = {}
        for d, _, names in os.walk(root):
            for n in names:
                p = os.path.join(d, n)
                with open(p, "rb") as f:
                    out[os.path.relpath(p, root)] = f.read()
        return out
    fa = files(a)
    return bool(fa) and fa == files(b)


def speed(orig, port):
    if not orig or not port or orig.status != "pass" or \
            port.status != "pass" or not orig.timing or not port.timing:
        return None
    if port.timing["ms"] <= 0:
        return None
    return orig.timing["ms"] / port.timing["ms"]


def main():
    ap = argparse.ArgumentParser(
        description="Build and run a port-kernel GPU bundle on an NVIDIA GPU")
    ap.add_argument("--nvcc", help="nvcc to use (default: $NVCC, PATH, "
                    "$CUDA_HOME/bin, /usr/local/cuda/bin)")
    ap.add_argument("--arch", help="sm_XX (default: the GPU's, else sm_90)")
    ap.add_argument("--warmup", type=int, default=5,
                    help="untimed launches before timing (default 5)")
    ap.add_argument("--repeats", type=int, default=21,
                    help="timed samples; the median is reported (default 21)")
    ap.add_argument("--batch", type=int, default=0,
                    help="launches per timed sample (default 0: about "
                    "0.5 ms of kernels, at most 200)")
    ap.add_argument("--warmup-ms", dest="warmup_ms", type=int, default=100,
                    help="and at least this many milliseconds of warm-up "
                    "launches (default 100)")
    ap.add_argument("--spin-ms", dest="spin_ms", type=int, default=3,
                    help="each sample's launches are queued behind a kernel "
                    "that spins this long, so that the host's launch rate "
                    "does not limit them (default 3; 0: no spin)")
    ap.add_argument("--rounds", type=int, default=7,
                    help="runs of each driver, original and port "
                    "alternating; the median is reported (default 7)")
    ap.add_argument("--program-warmup", dest="prog_warmup", type=int,
                    default=1, help="untimed program runs (default 1)")
    ap.add_argument("--program-repeats", dest="prog_repeats", type=int,
                    default=5, help="timed program runs (default 5)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="parallel nvcc builds (runs are one at a time)")
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds per build and per run (0: none)")
    ap.add_argument("--build-dir", help="where executables go (default "
                    "BUNDLE/build)")
    ap.add_argument("--results", help="results file (default "
                    "BUNDLE/results.json)")
    ap.add_argument("--json", action="store_true",
                    help="print the results document instead of the table")
    ap.add_argument("--compile-only", action="store_true",
                    help="build every driver (-arch default sm_90) and stop; "
                    "no GPU needed")
    ap.add_argument("--probe", action="store_true",
                    help="print one JSON line about nvcc and the GPU; exit 0 "
                    "when both are usable, 3 otherwise")
    ap.add_argument("names", nargs="*", help="only these cases or programs")
    args = ap.parse_args()
    args.bundle = HERE
    args.build_dir = os.path.abspath(args.build_dir or
                                     os.path.join(HERE, "build"))
    results_path = args.results or os.path.join(HERE, "results.json")
    if min(args.repeats, args.warmup, args.batch, args.warmup_ms,
           args.spin_ms) < 0 or \
            args.rounds < 1:
        eprint("run.sh: error: --warmup, --warmup-ms, --repeats and --batch "
               "must be >= 0, --rounds >= 1")
        return 2

    nvcc = find_nvcc(args.nvcc)
    if not nvcc:
        msg = ("no nvcc: %s is not an executable" % args.nvcc) if \
            args.nvcc else ("no nvcc found ($NVCC, PATH, $CUDA_HOME/bin, "
                            "/usr/local/cuda/bin)")
        if args.probe:
            print(json.dumps({"ok": False, "reason": msg}))
        else:
            eprint("run.sh: error: " + msg)
        return 3
    gpu = {"nvcc": nvcc, "nvcc_version": nvcc_version(nvcc)}
    arch = args.arch
    if not args.compile_only:
        info, why = probe(nvcc, args.build_dir)
        if not info:
            msg = "no NVIDIA GPU: " + why
            if args.probe:
                print(json.dumps({"ok": False, "reason": msg}))
            else:
                eprint("run.sh: error: " + msg)
            return 3
        smi = nvidia_smi() or {}
        gpu.update({"name": smi.get("name") or info["name"],
                    "driver": smi.get("driver", ""),
                    "compute_cap": "%d.%d" % (info["major"], info["minor"]),
                    "count": info["count"],
                    "cuda_runtime": info["runtime"],
                    "cuda_driver_api": info["driver_api"],
                    "memory_mib": info["memory_mib"]})
        arch = arch or "sm_%d%d" % (info["major"], info["minor"])
    arch = arch or "sm_90"
    gpu["arch"] = arch
    if args.probe:
        print(json.dumps(dict(gpu, ok=True)))
        return 0

    try:
        with open(os.path.join(HERE, "manifest.json")) as f:
            man = json.load(f)
    except (OSError, ValueError) as e:
        eprint("run.sh: error: cannot read manifest.json: %s" % e)
        return 2
    entries = man.get("entries", [])
    if args.names:
        unknown = [n for n in args.names
                   if n not in [e["name"] for e in entries]]
        if unknown:
            eprint("run.sh: error: no such case: " + ", ".join(unknown))
            return 2
        entries = [e for e in entries if e["name"] in args.names]


    variants = man.get("variants", ["original", "cuda"])
    program = man.get("mode") == "program"
    cells = {}  # (name, variant) -> Cell
    todo = []
    for e in entries:
        for v in e["variants"]:
            c = Cell(v["variant"])
            cells[(e["name"], v["variant"])] = c
            if v.get("status") in ("fail", "skip"):
                c.status = v["status"]
                c.kind = v.get("kind", "")
                c.reason = v.get("reason", "")
                c.detail = v.get("detail", "")
            else:
                todo.append((e, v))

    # Builds in parallel.
    n = len(todo)
    eprint("building %d driver%s with %s -arch=%s (%d jobs)" % (
        n, "" if n == 1 else "s", nvcc, arch, max(1, args.jobs)))
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futs = {pool.submit(build_one, args, nvcc, arch, e, v): (e, v)
                for e, v in todo}
        done = 0
        built = []
        for f in concurrent.futures.as_completed(futs):
            e, v = futs[f]
            bad, exe = f.result()
            done += 1
            if bad:
                cells[(e["name"], v["variant"])] = bad
                eprint("[%d/%d] %s (%s): FAIL %s" % (done, n, e["name"],
                                                     v["variant"], bad.kind))
            else:
                eprint("[%d/%d] %s (%s): built" % (done, n, e["name"],
                                                   v["variant"]))
                cells[(e["name"], v["variant"])].exe = exe
                built.append((e, v))

    if args.compile_only:
        failed = [k for k, c in cells.items()
                  if c.status == "fail" and not c.exe]
        for k in sorted(failed):
            c = cells[k]
            eprint("  %s [%s]: %s" % (k[0], k[1], c.reason))
            if c.detail:
                for l in c.detail.splitlines():
                    eprint("      " + l)
        print("%d built, %d failed (nvcc -arch=%s)" % (
            sum(1 for c in cells.values() if c.exe), len(failed), arch))
        return 1 if failed else 0

    # Runs one at a time so that timings do not overlap: per case, --rounds
    # rounds that alternate original and port (each a fresh process, the
    # order reversed every other round), so that both see the same clocks;
    # the reported time is the median of the rounds' medians.
    rounds = 1 if program else max(1, args.rounds)
    total = sum(1 for e, v in todo if cells[(e["name"], v["variant"])].exe)
    i = 0
    for e in entries:
        vs = [v["variant"] for v in e["variants"]
              if cells.get((e["name"], v["variant"])) is not None and
              cells[(e["name"], v["variant"])].exe]
        runs = {v: [] for v in vs}
        for r in range(rounds):
            # Odd rounds run the variants in reverse order, so that neither
            # always runs first (clocks and caches favour no side).
            for v in (vs if r % 2 == 0 else vs[::-1]):
                key = (e["name"], v)
                if runs[v] is None:
                    continue
                t = Cell(v)
                t.exe = cells[key].exe
                (run_program if program else run_case)(args, e, t, t.exe)
                if t.status != "pass":
                    cells[key] = t
                    runs[v] = None
                elif runs[v] is not None:
                    runs[v].append(t)
        for v in vs:
            key = (e["name"], v)
            if runs[v]:
                c = runs[v][0]
                c.seconds = sum(t.seconds for t in runs[v])
                if c.timing and len(runs[v]) > 1:
                    ms = [t.timing["ms"] for t in runs[v] if t.timing]
                    c.timing = dict(c.timing)
                    c.timing["ms"] = statistics.median(ms)
                    c.timing["min"] = min(t.timing["min"] for t in runs[v])
                    c.timing["max"] = max(t.timing["max"] for t in runs[v])
                    c.timing["rounds"] = ms
                cells[key] = c
            i += 1
            c = cells[key]
            eprint("[%d/%d] %s (%s): %s%s" % (
                i, total, e["name"], v,
                {"pass": "PASS", "skip": "SKIP"}.get(c.status, "FAIL"),
                " %s ms" % fmt_ms(c) if c.status == "pass" and c.timing
                else ""))

    # Results.
    passed = sum(1 for c in cells.values() if c.status == "pass")
    skipped = sum(1 for c in cells.values() if c.status == "skip")
    failed = len(cells) - passed - skipped
    rows = []
    for e in entries:
        rc = [cells[(e["name"], v)] for v in variants
              if (e["name"], v) in cells]
        r = {"name": e["name"], "path": e.get("path", ""),
             "status": "fail" if any(c.status == "fail" for c in rc)
             else "pass",
             "results": [c.json() for c in rc]}
        s = speed(cells.get((e["name"], "original")),
                  cells.get((e["name"], variants[-1])))
        r["speed_ratio"] = round(s, 4) if s is not None else None
        r["same_source"] = (not program) and len(variants) > 1 and \
            same_sources(args.bundle, e, "original", variants[-1])
        rows.append(r)
    doc = {"mode": "gpu-program" if program else "gpu",
           "date": datetime.datetime.now(datetime.timezone.utc)
           .strftime("%Y-%m-%d %H:%M UTC"),
           "gpu": gpu,
           "timing": ({"warmup_runs": args.prog_warmup,
                       "repeats": args.prog_repeats,
                       "what": "whole program runs, median wall clock"}
                      if program else
                      {"warmup_launches": args.warmup,
                       "warmup_ms": args.warmup_ms,
                       "repeats": args.repeats,
                       "batch": args.batch or "auto (about 0.5 ms of "
                       "kernels, at most 200 launches)",
                       "spin_ms": args.spin_ms,
                       "rounds": args.rounds,
                       "what": "CUDA events, ms per launch: median over "
                       "rounds of the median sample"}),
           "variants": variants,
           ("programs" if program else "cases"): rows,
           "summary": {"passed": passed, "failed": failed,
                       "skipped": skipped},
           "ok": failed == 0}
    try:
        with open(results_path, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    except OSError as ex:
        eprint("run.sh: error: cannot write %s: %s" % (results_path, ex))
        return 2

    if args.json:
        print(json.dumps(doc, indent=2))
        return 1 if failed else 0

    print("GPU: %s (%s), driver %s, nvcc %s" % (
        gpu.get("name", "?"), arch, gpu.get("driver") or "?",
        gpu.get("nvcc_version", "?")))
    print("date: %s; %s" % (doc["date"], (
        "median wall time of %d program runs after %d warm-up" % (
            args.prog_repeats, args.prog_warmup)) if program else (
        "CUDA events, median of %d rounds (original and port alternating) "
        "of the median of %d samples of %s launches, after %d warm-up "
        "launches and %d ms" % (args.rounds, args.repeats,
                                args.batch or "auto", args.warmup,
                                args.warmup_ms))))
    namew = max([len("program" if program else "case")] +
                [len(e["name"]) for e in entries]) + 2
    head = ("program" if program else "case").ljust(namew)
    for v in variants:
        head += (v + " (32)").ljust(22) if v != "original" else \
            "original".ljust(22)
    for v in variants:
        head += (v + " ms").rjust(12)
    head += "  speed"
    print(head)
    for e, r in zip(entries, rows):
        line = e["name"].ljust(namew)
        for v in variants:
            c = cells.get((e["name"], v))
            line += (err_cell(c) if c else "-").ljust(22)
        for v in variants:
            line += fmt_ms(cells.get((e["name"], v))).rjust(12)
        s = r["speed_ratio"]
        line += "  " + ("%.2f" % s if s is not None else "n/a")
        if r.get("same_source") and s is not None:
            line += " ="
        print(line)
    print("(PASS a/r: largest absolute / relative error over the outputs; "
          "ms: median %s; speed: original ms / %s ms, the port's speed "
          "relative to the original%s)" % (
              "wall time per program run" if program else "time per launch",
              variants[-1], "" if program else
              "; =: the port's sources are identical to the original's, "
              "the difference is measurement noise"))
    header = False
    for e in entries:
        for v in variants:
            c = cells.get((e["name"], v))
            if not c or c.status == "pass":
                continue
            if not header:
                print("\nFailures:")
                header = True
            if c.status == "skip":
                print("  %s [%s] skipped: %s" % (e["name"], v, c.reason))
                continue
            print("  %s [%s]: %s" % (e["name"], v, c.reason))
            for l in (c.detail or "").splitlines():
                if l.strip() and l.strip() not in c.reason:
                    print("      " + l)
    print("\n%d passed, %d failed%s (%d %s%s x %d variant%s)" % (
        passed, failed, ", %d skipped" % skipped if skipped else "",
        len(entries), "program" if program else "case",
        "" if len(entries) == 1 else "s", len(variants),
        "" if len(variants) == 1 else "s"))
    print("results: " + results_path)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
