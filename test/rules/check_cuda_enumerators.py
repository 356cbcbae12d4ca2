#!/usr/bin/python3
"""rules.cuda_enumerators: no name of the CUDA runtime API that HIP has is
missed by the rename tables.

Every enumerator, function, type (struct, enum and union tags, typedef
names) and object-like macro of the runtime headers (cuda_runtime_api.h and what it
includes of the toolkit: driver_types.h, surface_types.h, texture_types.h,
library_types.h, device_types.h, ...) is collected from the bundled
declarations (lib/Frontend/cuda-decls) and, when installed, from a CUDA
toolkit (--cuda-path).  Each enumerator must be a cuda: entry of
rules/cuda2hip, or its HIP spelling (cuda -> hip; cudaDevAttr ->
hipDeviceAttribute) must not be an enumerator or constant in the HIP headers
given (--hip DIR, repeatable: Debian's ROCm 5.2 and ROCm 6.3).  A HIP
counterpart that exists in every HIP given and is not in the tables fails
the test, so a new miss (a new toolkit, a new ROCm) is caught.  A counterpart
that only the newest HIP given (the last --hip) has must be a versioned
spelling (TargetCommon.cpp's rocmSpelling: renamed under --rocm-version=6,
flagged under 5); one that only older versions have is a note.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc  # noqa: E402
import check_hip_names as chn  # noqa: E402

RUNTIME_HEADERS = ['cuda_runtime_api.h', 'driver_types.h', 'surface_types.h',
                   'texture_types.h', 'library_types.h', 'device_types.h']
# Prefixes whose HIP spelling is not the plain cuda -> hip one.
PREFIXES = [('cudaDevAttr', 'hipDeviceAttribute'), ('cuda', 'hip')]
MARKER = re.compile(r'^# \d+ "([^"]*)"', re.M)
# cudaError_t cudaDeviceSetLimit(...): a runtime function's declaration.
FUNC = re.compile(r'\b(?:cudaError_t|void|int|const\s+char\s*\*|char\s*\*)\s+(cuda[A-Z]\w*)\s*\(')
FUNCTIONS = {}  # name -> header, filled by enumerators()
TYPES = {}      # name -> header, filled by enumerators()
MACROS = {}     # name -> header, filled by enumerators()
# struct cudaArray, enum cudaComputeMode, typedef ... cudaStream_t;
TAG = re.compile(r'\b(?:struct|enum|union)\s+(cuda[A-Z]\w*)')
TYPEDEF = re.compile(r'\btypedef\b[^;{}]*?\b(cuda[A-Z]\w*)\s*;')
# #define cudaHostRegisterReadOnly 0x08 (object-like: no parameter list)
DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(cuda[A-Z]\w*)(?![\w(])', re.M)


def enumerators(cmd, include_dir):
    """{enumerator: header} of the enums declared in the runtime headers
    found in include_dir (the preprocessed text, attributed by line
    markers)."""
    src = ''.join(f'#include <{h}>\n' for h in RUNTIME_HEADERS
                  if os.path.exists(os.path.join(include_dir, h)))
    r = rc.run(cmd + ['-E', '-', '-o', '-'], input=src)
    if r.returncode != 0:
        raise SystemExit('cannot preprocess the runtime headers of %s:\n%s'
                         % (include_dir, r.stderr[-3000:]))
    # Keep the text that comes from the top level of include_dir.
    kept, cur = [], None
    pos = 0
    for m in MARKER.finditer(r.stdout):
        if cur is not None:
            kept.append((cur, r.stdout[pos:m.start()]))
        cur = m.group(1)
        pos = m.end()
    kept.append((cur, r.stdout[pos:]))
    out = {}
    for path, text in kept:
        if not path or os.path.dirname(os.path.abspath(path)) != os.path.abspath(include_dir):
            continue
        for body in re.finditer(r'\benum\b[^{;()]*(?:\([^;{]*\))?[^{;]*\{([^{}]*)\}', text):
            for item in body.group(1).split(','):
                m = re.match(r'\s*([A-Za-z_]\w*)', item)
                if m and m.group(1).startswith('cuda'):
                    out.setdefault(m.group(1), os.path.basename(path))
        # The functions the runtime API declares (a declaration: the name, then
        # its parameter list, at the start of a declarator).
        for m in FUNC.finditer(text):
            FUNCTIONS.setdefault(m.group(1), os.path.basename(path))
        for rx in (TAG, TYPEDEF):
            for m in rx.finditer(text):
                TYPES.setdefault(m.group(1), os.path.basename(path))
    # Macros are gone from the preprocessed text: read the headers.
    for h in RUNTIME_HEADERS:
        try:
            text = open(os.path.join(include_dir, h), encoding='utf-8', errors='replace').read()
        except OSError:
            continue
        for m in DEFINE.finditer(text):
            MACROS.setdefault(m.group(1), h)
    return out


def hip_spelling(name):
    for cuda, hip in PREFIXES:
        if name.startswith(cuda):
            return hip + name[len(cuda):]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--cuda-path', default='/usr/local/cuda')
    ap.add_argument('--hip', action='append', default=[], metavar='DIR')
    ap.add_argument('--offload-arch', default='gfx90a')
    ap.add_argument('--rocm-path', default='/usr')
    a = ap.parse_args()
    hips = a.hip or ['/usr/include']
    for d in [d for d in hips if not os.path.isdir(d)]:
        print(f'note: {d} does not exist: not checked against it')
    hips = [d for d in hips if os.path.isdir(d)]
    decls = os.path.join(a.source_dir, 'lib/Frontend/cuda-decls')
    # As the front end parses without a toolkit (check_bundled_decls.py).
    found = enumerators([a.clang, '-x', 'cuda', '-nocudainc', '-nocudalib', '--cuda-host-only',
                         '--cuda-gpu-arch=sm_90', '--cuda-path=/nonexistent', '-isystem', decls,
                         '-include', '__pk_cuda_prelude.h'], decls)
    toolkit = os.path.join(a.cuda_path, 'include')
    sources = ['bundled declarations']
    if os.path.exists(os.path.join(toolkit, 'cuda_runtime_api.h')):
        for k, v in enumerators([a.clang, '-x', 'c++', '-std=c++17', '-isystem', toolkit],
                                toolkit).items():
            found.setdefault(k, v)
        sources.append(toolkit)
    table = set()
    for _, doc in rc.load_tables(os.path.join(a.source_dir, 'rules')):
        for e in doc.get('entries') or []:
            table.add(e['cuda'])
    kind = {n: 'enum' for n in found}
    for names, k in ((FUNCTIONS, 'function'), (TYPES, 'type'), (MACROS, 'macro')):
        for n, h in names.items():
            if n not in found:
                found[n] = h
                kind[n] = k
    # Names with a versioned spelling (TargetCommon.cpp: ROCm 6 only) are
    # covered: renamed for ROCm 6, flagged for ROCm 5 (PK1033).
    versioned = {c for c, _, r6 in chn.rocm_spellings(a.source_dir) if r6}
    missing = sorted(n for n in found if n not in table and n not in versioned and hip_spelling(n))
    # Which HIP spellings exist, per HIP installation.
    cands = [(n, hip_spelling(n)) for n in missing]
    have = {n: [] for n in missing}
    for d in hips:
        major = chn.hip_major(d)
        base = [a.clang, '-x', 'hip', f'--offload-arch={a.offload_arch}', '-nogpulib',
                '-fsyntax-only', '-Wno-deprecated-declarations', '--offload-host-only']
        if os.path.abspath(d) == '/usr/include':
            base += [f'--rocm-path={a.rocm_path}', f'-I{d}']
        else:
            base += ['-nogpuinc', '-isystem', d, '-include', '__clang_hip_runtime_wrapper.h']
        # A macro's counterpart may be a macro or a declaration (HIP spells
        # some of CUDA's macros as enumerators): two probes, either passes.
        probes = [('macro', lambda n: kind[n] == 'macro'),
                  ('function', lambda n: kind[n] == 'macro'),
                  (None, lambda n: kind[n] != 'macro')]
        ok = set()
        for probe_kind, wanted in probes:
            idx = [i for i, (n, _) in enumerate(cands) if wanted(n)]
            if not idx:
                continue
            lines = [chn.check_line(i, cands[i][1], probe_kind or kind[cands[i][0]]) for i in idx]
            prelude = chn.PRELUDE
            if probe_kind == 'macro':
                prelude += ''.join(chn.macro_prefix(i, cands[i][1]) for i in idx)
            bad, log = rc.compile_lines(base, prelude, lines)
            if -1 in bad:
                print(f'error: the HIP probe of {d} does not compile:\n' + log[-3000:])
                return 1
            ok.update(idx[j] for j in range(len(idx)) if j not in bad)
        for i, (n, _) in enumerate(cands):
            if i in ok:
                have[n].append(f'ROCm {major}')
    errors = 0
    for n, h in cands:
        if len(have[n]) == len(hips):
            print(f'error: {n} ({found[n]}) is not in rules/cuda2hip, and HIP has {h} '
                  f'({", ".join(have[n])}): add the entry')
            errors += 1
        elif have[n] and have[n][-1] == f'ROCm {chn.hip_major(hips[-1])}' and len(hips) > 1:
            # The newest HIP has it: a versioned spelling (TargetCommon.cpp's
            # rocmSpelling) renames it for that version.
            print(f'error: {n} ({found[n]}): {h} exists only in {", ".join(have[n])}, and '
                  f'TargetCommon.cpp has no versioned spelling of it: add one')
            errors += 1
        elif have[n]:
            print(f'note: {n} ({found[n]}): {h} exists only in {", ".join(have[n])}')
    print(f'{len(found)} CUDA runtime enumerators, functions, types and macros ({"; ".join(sources)}) checked against '
          f'{len(hips)} HIP installation(s): ' + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
