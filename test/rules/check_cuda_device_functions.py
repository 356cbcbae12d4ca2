#!/usr/bin/python3
"""rules.cuda_device_functions: no CUDA device function that HIP lacks passes
through the HIP port unnoticed.

The CUDA device library as the parse sees it (clang's CUDA headers in the
resource directory: __clang_cuda_math.h and __clang_cuda_device_functions.h,
which declare what nvcc's math_functions.h and device_functions.h do) is
collected by name.  Each name that HIP does not declare for the device
(probed with a using-declaration against every HIP given, --hip DIR,
repeatable: Debian's ROCm 5.2 and ROCm 6.3, with clang's HIP headers) must be
a cuda: entry of rules/cuda2hip (renamed, or `unsupported:` and flagged
PK1010 at each use) or one of the names a C++ rule ports (HANDLED_BY_RULES).
A name that only some HIP versions lack is listed as a note.  clang's own
implementation helpers (__nv_*, the typed atomic helpers, __pm0, ...) are
not CUDA API and are skipped.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc  # noqa: E402

HEADERS = ['__clang_cuda_math.h', '__clang_cuda_device_functions.h']
# Names ported by C++ rules rather than table entries.
HANDLED_BY_RULES = {
    # PK1032 (lib/Targets/HIP/IntMinMax.cpp)
    'umin': 'PK1032', 'umax': 'PK1032', 'llmin': 'PK1032', 'llmax': 'PK1032',
    'ullmin': 'PK1032', 'ullmax': 'PK1032',
}
# clang's helpers behind the CUDA API, not names CUDA programs call.
INTERNAL = re.compile(r'^(__nv_|__(i|u|ll|ull|ill|f|d)Atomic|__pm[0-9]$|__bool2mask$|'
                      r'__isfinited$|__signbitd$|__attribute__$)')
DECL = re.compile(r'^__DEVICE__\s+[^(;]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(', re.M)


def cuda_names(resource_dir):
    names = set()
    for h in HEADERS:
        path = os.path.join(resource_dir, 'include', h)
        text = open(path, encoding='utf-8').read()
        for m in DECL.finditer(text):
            if not INTERNAL.match(m.group(1)):
                names.add(m.group(1))
    return sorted(names)


def hip_missing(a, include_dir, names):
    base = [a.clang, '-x', 'hip', f'--offload-arch={a.offload_arch}', '-nogpulib',
            '-fsyntax-only', '-w', '--offload-device-only']
    if os.path.abspath(include_dir) == '/usr/include':
        base += [f'--rocm-path={a.rocm_path}', f'-I{include_dir}']
    else:
        base += ['-nogpuinc', '-isystem', include_dir, '-include',
                 '__clang_hip_runtime_wrapper.h']
    lines = [f'namespace pk_{i} {{ using ::{n}; }}' for i, n in enumerate(names)]
    bad, log = rc.compile_lines(base, '#include <hip/hip_runtime.h>\n', lines)
    if -1 in bad:
        sys.exit(f'error: the probe against {include_dir} does not compile outside the '
                 f'checked lines:\n{log[-3000:]}')
    return {names[i] for i in bad}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--resource-dir', required=True)
    ap.add_argument('--offload-arch', default='gfx90a')
    ap.add_argument('--rocm-path', default='/usr')
    ap.add_argument('--hip', action='append', default=[], metavar='DIR')
    a = ap.parse_args()
    tables = set()
    for _, doc in rc.load_tables(os.path.join(a.source_dir, 'rules')):
        for e in doc.get('entries') or []:
            tables.add(e['cuda'])
    names = cuda_names(a.resource_dir)
    dirs = [d for d in (a.hip or ['/usr/include']) if os.path.isdir(d)]
    if not dirs:
        print('no HIP headers to check against: skipped')
        return 77
    missing = [hip_missing(a, d, names) for d in dirs]
    everywhere = set.intersection(*missing)
    somewhere = set.union(*missing) - everywhere
    errors = [n for n in sorted(everywhere) if n not in tables and n not in HANDLED_BY_RULES]
    for n in sorted(somewhere):
        if n not in tables and n not in HANDLED_BY_RULES:
            print(f'note: {n}: missing in some of the HIP headers given only')
    for n in errors:
        print(f'error: {n}: a CUDA device function HIP does not declare, with no table '
              f'entry (rules/cuda2hip, unsupported: to flag it) and no rule')
    print(f'{len(names)} CUDA device functions, {len(everywhere)} missing in every HIP given '
          f'({", ".join(dirs)}): ' + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
