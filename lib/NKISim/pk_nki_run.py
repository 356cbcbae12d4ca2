#!/usr/bin/python3
# Rules: none (NKI validation runner)
"""Runs one kernel of an NKI output file on one validation case.

    pk_nki_run.py [--backend auto|sim|nki] [--target trn1|trn2|trn3]
                  [--result R.json] MODULE.py KERNEL CASE.json

MODULE.py is a port-kernel NKI output (it defines PK_KERNELS, the calling
convention: docs/nki.md).  CASE.json describes the case's arguments in the
kernel's CUDA parameter order:

    {"grid": [4, 1, 1], "block": [256, 1, 1],
     "args": [{"name": "y", "type": "float", "count": 3000, "file": "arg0.bin",
               "output": true, "result": "out0.bin"},
              {"name": "a", "type": "float", "value": 2.5}, ...]}

Buffers are flat little-endian arrays of the case's element type (file names
relative to CASE.json).  The runner evaluates each tensor's shape, gives the
kernel the first prod(shape) elements, and writes every output buffer to its
"result" file: the initial contents with the returned tensor's elements in
front.  It imports the real `nki` package when it is installed (backend
auto), the NumPy simulator next to this file otherwise.

The result (R.json, or stdout) is one JSON object: status "ok", "not-lifted"
or "error" (with kind "interface", "simulator" or "python"), message,
detail, backend, ops (traced operations; null on the real package).
Exit status: 0 ok, 1 not lifted or failed, 2 usage error.

--target picks the generation whose SBUF capacity the simulator enforces
(default: PK_NKI_TARGET, else trn1, the smallest).  The runner's own checks
cost O(number of parameters): no loop over the launch's blocks or threads.
"""

import argparse
import importlib.util
import json
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))

# case.yaml element type -> (NKI dtype name, NumPy storage of the file)
CASE_TYPES = {
    "float": ("float32", "<f4"),
    "half": ("float16", "<f2"),
    "bf16": ("bfloat16", "<u2"),
    "int": ("int32", "<i4"),
    "unsigned": ("uint32", "<u4"),
    "uint8": ("uint8", "u1"),
    "double": (None, "<f8"),
}
LAUNCH_NAMES = ("grid_x", "grid_y", "grid_z", "block_x", "block_y",
                "block_z", "shared_bytes")


class RunError(Exception):
    def __init__(self, kind, message, detail=""):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.detail = detail


def import_nki(backend):
    """Imports `nki` (real or simulated) and returns (module, backend)."""
    # This file's directory holds the simulator's `nki`: keep it off the path
    # unless the simulator is wanted.
    sys.path[:] = [p for p in sys.path
                   if os.path.abspath(p or os.curdir) != HERE]
    if backend in ("auto", "nki"):
        try:
            import nki  # noqa: F401
            if not getattr(nki, "SIMULATOR", False):
                return nki, "nki"
        except ImportError:
            if backend == "nki":
                raise RunError("python", "the nki package is not installed")
        for name in [m for m in sys.modules if m == "nki" or
                     m.startswith("nki.")]:
            del sys.modules[name]
    sys.path.insert(0, HERE)
    import nki
    return nki, "simulator"


def python_error(exc, module_path):
    """file:line: error: Type: message, at the innermost frame of the
    module when there is one."""
    tb = traceback.extract_tb(exc.__traceback__)
    where = None
    for fr in tb:
        if os.path.abspath(fr.filename) == os.path.abspath(module_path):
            where = fr
    if where is None and tb:
        where = tb[-1]
    if isinstance(exc, SyntaxError) and exc.filename:
        return "%s:%s: error: SyntaxError: %s" % (exc.filename, exc.lineno,
                                                  exc.msg)
    loc = "%s:%d: " % (where.filename, where.lineno) if where else ""
    return "%serror: %s: %s" % (loc, type(exc).__name__, exc)


def diagnostics_for(module_path, kernel):
    """The diagnostic comments of an output file ('# ...[PKnnnn]' lines),
    those naming the kernel first."""
    try:
        with open(module_path, encoding="utf-8") as f:
            lines = [ln.strip() for ln in f]
    except OSError:
        return []
    diags = [ln.lstrip("#").strip() for ln in lines
             if ln.startswith("#") and "[PK" in ln]
    named = [d for d in diags if kernel in d]
    return named or diags


def eval_shape(shape, env, pname):
    dims = []
    for e in shape:
        try:
            v = eval(str(e), {"__builtins__": {}, "min": min, "max": max},
                     dict(env))
        except Exception as exc:  # noqa: BLE001 (reported)
            raise RunError("interface", "shape of '%s': cannot evaluate %r: "
                           "%s" % (pname, e, exc))
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise RunError("interface", "shape of '%s': %r is %r, not a "
                           "positive integer" % (pname, e, v))
        dims.append(v)
    return tuple(dims)


def run(args):
    import numpy as np

    case_path = os.path.abspath(args.case)
    case_dir = os.path.dirname(case_path)
    with open(case_path, encoding="utf-8") as f:
        case = json.load(f)
    module_path = os.path.abspath(args.module)

    nki, backend = import_nki(args.backend)
    result = {"backend": backend, "ops": None}

    if not os.path.exists(module_path):
        raise RunError("not-lifted", "no NKI output file %s" % module_path)
    spec = importlib.util.spec_from_file_location(
        "pk_nki_module_" + os.path.splitext(os.path.basename(
            module_path))[0].replace("-", "_"), module_path)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:  # noqa: BLE001 (reported)
        raise RunError("python", python_error(exc, module_path))

    conv = getattr(mod, "PK_KERNELS", None)
    if not isinstance(conv, dict):
        diags = diagnostics_for(module_path, args.kernel)
        raise RunError("not-lifted", "%s defines no PK_KERNELS: no kernel "
                       "was lifted" % module_path, "\n".join(diags))
    # The Python function is named like the kernel unless that name would
    # shadow one the module needs ("function" then names it).
    entry = conv.get(args.kernel)
    fname = entry.get("function", args.kernel) if isinstance(entry, dict) \
        else args.kernel
    if entry is None or not hasattr(mod, fname):
        diags = diagnostics_for(module_path, args.kernel)
        raise RunError("not-lifted", "kernel '%s' was not lifted to NKI" %
                       args.kernel, "\n".join(diags))
    kernel = getattr(mod, fname)
    params = entry.get("params", [])
    launch = entry.get("launch", [])
    cargs = case.get("args", [])
    if len(params) != len(cargs):
        raise RunError("interface", "the NKI kernel '%s' has %d parameters; "
                       "the case gives %d arguments" %
                       (args.kernel, len(params), len(cargs)))

    # Scalars and launch dimensions first: shapes are expressions over them.
    env = {}
    grid = list(case.get("grid", [1, 1, 1])) + [1, 1, 1]
    block = list(case.get("block", [1, 1, 1])) + [1, 1, 1]
    for n, v in zip(LAUNCH_NAMES, grid[:3] + block[:3]):
        env[n] = int(v)
    # The launch's dynamic shared memory in bytes (extern __shared__).
    env["shared_bytes"] = int(case.get("shared_bytes", 0))
    for lname in launch:
        if lname not in LAUNCH_NAMES:
            raise RunError("interface", "unknown launch dimension '%s' "
                           "(expected one of %s)" %
                           (lname, ", ".join(LAUNCH_NAMES)))

    values = []
    for p, a in zip(params, cargs):
        pname = p.get("name", "?")
        ctype = a.get("type")
        if ctype not in CASE_TYPES or CASE_TYPES[ctype][0] is None:
            raise RunError("interface", "argument '%s': type %s has no NKI "
                           "dtype" % (a.get("name"), ctype))
        want = CASE_TYPES[ctype][0]
        if p.get("dtype") != want:
            raise RunError("interface", "parameter '%s' is %s in the NKI "
                           "output but the case's '%s' is %s (%s)" %
                           (pname, p.get("dtype"), a.get("name"), ctype,
                            want))
        is_buf = "count" in a
        if (p.get("kind") == "tensor") != is_buf:
            raise RunError("interface", "parameter '%s' is a %s in the NKI "
                           "output but the case's '%s' is a %s" %
                           (pname, p.get("kind"), a.get("name"),
                            "buffer" if is_buf else "scalar"))
        if not is_buf:
            v = a["value"]
            if want in ("int32", "uint32", "uint8"):
                v = int(v)
            elif want == "float32":
                v = float(np.float32(v))
            elif want == "float16":
                v = float(np.float16(v))
            else:
                v = float(bf16_values(np.array([v], dtype=np.float32))[0])
            # Shapes name a scalar by its Python name ("py" where it is
            # not the CUDA name).
            env[p.get("py", pname)] = v
        values.append(v if not is_buf else None)

    nl_mod = nki.language
    calls = []
    outs = []
    for i, (p, a) in enumerate(zip(params, cargs)):
        role = p.get("role", "in") if p.get("kind") == "tensor" else "in"
        if p.get("kind") != "tensor":
            calls.append(values[i])
            continue
        shape = eval_shape(p.get("shape", []), env, p.get("name", "?"))
        n = 1
        for d in shape:
            n *= d
        count = int(a["count"])
        if n > count:
            raise RunError("interface", "'%s' has shape %s = %d elements but "
                           "the case's buffer '%s' has %d" %
                           (p.get("name"), list(shape), n, a.get("name"),
                            count))
        raw = np.fromfile(os.path.join(case_dir, a["file"]),
                          dtype=CASE_TYPES[a["type"]][1])
        if raw.size != count:
            raise RunError("interface", "%s holds %d elements, not %d" %
                           (a["file"], raw.size, count))
        if role not in ("in", "out", "inout"):
            raise RunError("interface", "parameter '%s': unknown role %r" %
                           (p.get("name"), role))
        if role in ("out", "inout"):
            outs.append((i, p, a, shape, raw))
        if role == "out":
            continue
        vals = raw[:n]
        if a["type"] == "bf16":
            vals = bf16_from_bits(vals)
        vals = vals.reshape(shape)
        dt = getattr(nl_mod, p["dtype"])
        if backend == "simulator":
            calls.append(nki._core.from_numpy(vals, dtype=dt,
                                              name=p.get("name")))
        elif p["dtype"] == "bfloat16":
            try:
                import ml_dtypes
            except ImportError:
                raise RunError("python", "bfloat16 inputs on the real nki "
                               "package need ml_dtypes")
            calls.append(vals.astype(ml_dtypes.bfloat16))
        else:
            calls.append(np.ascontiguousarray(vals))
    for lname in launch:
        calls.append(env[lname])

    try:
        if backend == "simulator":
            ret = nki.simulate(kernel, keep_tensors=True,
                               target=args.target)(*calls)
            result["ops"] = nki.op_count()
            result["ops_by_name"] = nki.op_counts()
        else:
            ret = nki.simulate(kernel)(*calls)
    except Exception as exc:  # noqa: BLE001 (reported)
        sim_error = getattr(nki, "NKISimError", None)
        if sim_error is not None and isinstance(exc, sim_error):
            raise RunError("simulator", str(exc))
        raise RunError("python", python_error(exc, module_path))

    rets = list(ret) if isinstance(ret, (tuple, list)) else [ret]
    if len(outs) != len(rets):
        raise RunError("interface", "kernel '%s' returned %d values; its "
                       "PK_KERNELS entry has %d out/inout parameters" %
                       (args.kernel, len(rets), len(outs)))
    for (i, p, a, shape, raw), r in zip(outs, rets):
        if r is None or not hasattr(r, "shape"):
            raise RunError("interface", "kernel '%s' returned %r for '%s'; "
                           "expected a tensor" %
                           (args.kernel, r, p.get("name")))
        if backend == "simulator" and isinstance(r, nki.Tensor):
            if r.buffer.name != "shared_hbm":
                raise RunError("interface", "kernel '%s' returned '%s' in %s;"
                               " outputs are nl.shared_hbm tensors" %
                               (args.kernel, p.get("name"), r.buffer.name))
            got = np.array(r.data, copy=True)
        else:
            got = np.asarray(r)
        n = 1
        for d in shape:
            n *= d
        if got.size != n:
            raise RunError("interface", "returned '%s' has shape %s; its "
                           "PK_KERNELS shape is %s" %
                           (p.get("name"), list(got.shape), list(shape)))
        flat = got.reshape(-1)
        ctype = a["type"]
        if ctype == "bf16":
            enc = bf16_bits(flat.astype(np.float32))
        else:
            enc = flat.astype(CASE_TYPES[ctype][1])
        full = raw.copy()
        full[:n] = enc
        full.tofile(os.path.join(case_dir, a["result"]))
    result["status"] = "ok"
    return result


def bf16_values(a):
    import numpy as np
    return bf16_from_bits(bf16_bits(np.asarray(a, dtype=np.float32)))


def bf16_bits(a):
    import numpy as np
    a = np.ascontiguousarray(a, dtype=np.float32)
    b = a.view(np.uint32)
    r = ((b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) >>
         np.uint32(16)).astype(np.uint16)
    r[np.isnan(a)] = np.uint16(0x7FC0)
    return r


def bf16_from_bits(b):
    import numpy as np
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) <<
            np.uint32(16)).view(np.float32)


def main(argv):
    ap = argparse.ArgumentParser(
        description="Run a kernel of a port-kernel NKI output on a case.")
    ap.add_argument("--backend", choices=("auto", "sim", "nki"),
                    default="auto",
                    help="auto: the real nki package when installed, else "
                         "the simulator")
    ap.add_argument("--target", choices=("trn1", "trn2", "trn3"),
                    help="the generation whose on-chip capacities the "
                         "simulator enforces (default: PK_NKI_TARGET, else "
                         "trn1)")
    ap.add_argument("--result", help="write the result JSON here")
    ap.add_argument("module")
    ap.add_argument("kernel")
    ap.add_argument("case")
    args = ap.parse_args(argv)
    if args.backend == "sim":
        args.backend = "simulator"
    try:
        result = run(args)
        code = 0
    except RunError as e:
        result = {"status": "not-lifted" if e.kind == "not-lifted"
                  else "error", "kind": e.kind, "message": e.message}
        if e.detail:
            result["detail"] = e.detail
        code = 1
    except (OSError, ValueError, KeyError) as e:
        result = {"status": "error", "kind": "runner",
                  "message": "%s: %s" % (type(e).__name__, e)}
        code = 1
    text = json.dumps(result, sort_keys=True)
    if args.result:
        with open(args.result, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
