#!/usr/bin/python3
"""rules.emu_shims_cover_tables: the emulator's HIP stand-in declares what the
tables turn the CUDA stand-in's names into.

`validate` runs a CUDA original on the emulator's CUDA headers and its HIP
port on the emulator's HIP headers (lib/Emu/shim).  A name the CUDA side
declares is one a program may use; the port renames it by the tables
(rules/cuda2hip), so the HIP side must declare the new name, or the port of
a program that passes as CUDA fails to build as HIP for a reason that is the
emulator's, not the port's (the CUDA samples' helper_cuda.h met
hipComputeModeProhibited this way).

For every entry of every table (function, type, enum, macro; namespaces
through their checked members) whose CUDA name compiles in a probe against
the CUDA stand-in, the HIP name must compile in the same probe against the
HIP stand-in.  The probes include every header of the header tables that the
stand-in provides (CUDA side: the CUDA header; HIP side: its HIP
counterpart, which must then exist in the stand-in too).  Each name is
referenced as check_hip_names.py does.
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc
import check_hip_names as chn  # noqa: E402
from check_hip_names import check_line, macro_prefix  # noqa: E402


def probe(a, lang, includes, names):
    """The indices of `names` ([(name, kind)]) that do not compile."""
    base = [a.clang, '-std=c++17', '-x', 'c++', '-fsyntax-only', '-w',
            f'-I{a.shim_dir}', f'-I{a.include_dir}', '-include', 'pkemu/prelude.h',
            f'-DPKEMU_LANG_{lang}', f'-DPKEMU_DEFAULT_WARP={32 if lang == "CUDA" else 64}']
    prelude = ''.join(f'#include <{h}>\n' for h in includes)
    prelude += ''.join(macro_prefix(i, n) for i, (n, k) in enumerate(names) if k == 'macro')
    lines = [check_line(i, n, k) for i, (n, k) in enumerate(names)]
    bad, log = rc.compile_lines(base, prelude, lines, suffix='.cpp')
    if -1 in bad:
        sys.exit(f'error: the {lang} probe does not compile outside the checked lines:\n'
                 + log[-3000:])
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--shim-dir', default='', help='default: <source-dir>/lib/Emu/shim')
    ap.add_argument('--include-dir', default='', help='default: <source-dir>/lib/Emu/include')
    a = ap.parse_args()
    a.shim_dir = a.shim_dir or os.path.join(a.source_dir, 'lib', 'Emu', 'shim')
    a.include_dir = a.include_dir or os.path.join(a.source_dir, 'lib', 'Emu', 'include')
    entries = []  # (file, cuda, hip, kind)
    headers = []  # (file, cuda header, hip header)
    for path, doc in rc.load_tables(os.path.join(a.source_dir, 'rules')):
        fname = os.path.basename(path)
        for e in doc.get('entries') or []:
            hip = e.get('hip')
            if not hip:
                continue
            if rc.is_header_table(doc):
                headers.append((fname, e['cuda'], hip))
            elif e.get('kind') in ('function', 'type', 'enum', 'macro'):
                entries.append((fname, e['cuda'], hip, e['kind']))

    # The versioned spellings (TargetCommon.cpp) of the default ROCm 6 replace
    # the tables' entries of their names: the port of a program names them.
    shim_text = rc.header_tree_text(a.shim_dir, ('.h', '.hpp', '.inc'), extensionless=True)

    def shim_kind(name):
        return 'macro' if rc.defines_macro(shim_text, name) else 'function'
    versioned = {c: r6 for c, _, r6 in chn.rocm_spellings(a.source_dir)
                 if r6 and not r6.endswith('.h') and r6 not in ('float', 'int', 'double')}
    entries = [e for e in entries if e[1] not in versioned]
    entries += [('TargetCommon.cpp', c, h, None) for c, h in sorted(versioned.items())]

    errors = []
    cuda_inc, hip_inc = [], []
    for fname, c, h in headers:
        if not os.path.isfile(os.path.join(a.shim_dir, c)):
            continue  # a header the CUDA stand-in does not provide
        if not os.path.isfile(os.path.join(a.shim_dir, h)):
            errors.append(f'{fname}: {c} -> {h}: the CUDA stand-in has {c}, the HIP '
                          f'stand-in has no {h}')
            continue
        cuda_inc.append(c)
        if h not in hip_inc:
            hip_inc.append(h)

    cuda_bad = probe(a, 'CUDA', cuda_inc, [(c, k or shim_kind(c)) for _, c, _, k in entries])
    declared = [e for i, e in enumerate(entries) if i not in cuda_bad]
    hip_bad = probe(a, 'HIP', hip_inc, [(h, k or shim_kind(h)) for _, _, h, k in declared])
    for i in sorted(hip_bad):
        fname, c, h, k = declared[i]
        errors.append(f'{fname}: {c} -> {h}: the CUDA stand-in declares {c}, the HIP '
                      f'stand-in has no {k or "declaration"} {h}')
    for e in errors:
        print('error: ' + e)
    print(f'{len(declared)} names the CUDA stand-in declares (of {len(entries)} table '
          f'entries), {len(cuda_inc)} headers: ' + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
