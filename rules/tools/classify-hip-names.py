#!/usr/bin/python3
"""Classify names as the AMD-platform HIP 5.2.3 headers declare them.

Reads names (one per line, or the second column of extract-nvidia-pairs.py
output) on stdin and prints "name<TAB>kind" with kind one of
function, type, enum, macro, missing.  "enum" covers enumerators and integral
constants.  The classification compiles probe translation units with clang in
HIP mode, so it sees exactly what a HIP program sees.

Usage: classify-hip-names.py [--clang clang++-19] [--column N] < names
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HIP_FLAGS = ['-x', 'hip', '--offload-arch=gfx90a', '-nogpulib', '--rocm-path=/usr',
             '-I/usr/include']
PRELUDE = ('#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n'
           '#include <hip/hip_bfloat16.h>\n#include <hip/hip_cooperative_groups.h>\n'
           '#include <hip/hip_complex.h>\n')


def failing_lines(clang, body, side):
    """Compile PRELUDE+body for one side ('host' or 'device'); return the set
    of body line indices with errors."""
    with tempfile.NamedTemporaryFile('w', suffix='.hip', delete=False) as f:
        f.write(PRELUDE + body)
        path = f.name
    try:
        r = subprocess.run([clang] + HIP_FLAGS + ['-fsyntax-only', '--offload-%s-only' % side,
                                                  '-ferror-limit=0', path],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    bad = set()
    base = PRELUDE.count('\n')
    for m in re.finditer(re.escape(path) + r':(\d+):\d+: error', r.stderr):
        bad.add(int(m.group(1)) - base - 1)
    return bad


def macros(clang):
    with tempfile.NamedTemporaryFile('w', suffix='.hip', delete=False) as f:
        f.write(PRELUDE)
        path = f.name
    try:
        out = subprocess.run([clang] + HIP_FLAGS + ['--offload-host-only', '-E', '-dM', path],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    return set(re.findall(r'^#define (\w+)', out, flags=re.M))


def classify(clang, names):
    """Device-only functions (clock64, wall_clock64, ...) are declared only in
    the device pass, so each name is looked up on the host side first and on
    the device side second."""
    kinds = classify_side(clang, names, 'host')
    missing = [n for n in names if kinds[n] == 'missing']
    if missing:
        kinds.update(classify_side(clang, missing, 'device'))
    return kinds


def classify_side(clang, names, side):
    mac = macros(clang)
    kinds = {n: 'macro' for n in names if n in mac}
    rest = [n for n in names if n not in kinds]
    bad = failing_lines(clang, ''.join(f'namespace pk_{i} {{ using ::{n}; }}\n'
                                       for i, n in enumerate(rest)), side)
    found = []
    for i, n in enumerate(rest):
        if i in bad:
            kinds[n] = 'missing'
        else:
            found.append(n)
    bad = failing_lines(clang, ''.join(f'using pk_t{i} = ::{n};\n' for i, n in enumerate(found)), side)
    nontype = []
    for i, n in enumerate(found):
        if i in bad:
            nontype.append(n)
        else:
            kinds[n] = 'type'
    bad = failing_lines(clang, ''.join(
        f'static_assert(__is_enum(decltype(::{n})) || __is_integral(decltype(::{n})), "");\n'
        for n in nontype), side)
    for i, n in enumerate(nontype):
        kinds[n] = 'function' if i in bad else 'enum'
    return kinds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--column', type=int, default=0, help='0-based tab-separated column')
    a = ap.parse_args()
    names = []
    for line in sys.stdin:
        cols = line.rstrip('\n').split('\t')
        if len(cols) > a.column and re.fullmatch(r'\w+', cols[a.column].strip()):
            names.append(cols[a.column].strip())
    names = list(dict.fromkeys(names))
    kinds = classify(a.clang, names)
    for n in names:
        print(f'{n}\t{kinds[n]}')


if __name__ == '__main__':
    main()
