#!/usr/bin/python3
"""rules.lib_coverage: no name of the CUDA math libraries that the ROCm library
has is missed by the library tables.

What check_cuda_enumerators.py does for the runtime headers, for the
libraries of rules_common.LIBRARY_TABLES:

  cuBLAS    cublas_v2.h, cublas_api.h  cublas -> hipblas, CUBLAS_ -> HIPBLAS_
  cuBLASLt  cublasLt.h                 cublasLt -> hipblasLt, CUBLASLT_ -> HIPBLASLT_
  cuRAND    curand.h, curand_kernel.h  curand -> hiprand, CURAND_ -> HIPRAND_
            (and the curand_*.h headers curand_kernel.h includes)
  cuSPARSE  cusparse.h                 cusparse -> hipsparse, CUSPARSE_ -> HIPSPARSE_

Every function, enumerator, type (struct, enum and union tags, typedef names,
callback types) and object-like macro (still defined after the headers) that
these headers declare, in the bundled declarations (lib/Frontend/cuda-decls)
or in an installed toolkit (--cuda-path, when present), is mapped by its
prefix; a cuBLAS name of the v2 API (cublasSgemm_v2, cublasSgemm_v2_64) is
also mapped without its _v2, as the tables map it (hipblasSgemm,
hipblasSgemm_64).  Each HIP spelling is
probed in the library's headers, compiled as check_lib_names.py compiles
them (hipBLAS with HIPBLAS_V2): as a type, an enumerator or integral
constant, a declared name (function) and a macro, all probes of a library in
one compile per side (host, then device for what the host lacks), failures
attributed by line.  A CUDA name whose counterpart exists and that is not a
cuda: entry of rules/cuda2hip (mapped or unsupported) fails the test, with
the kind the entry takes.

Exit 77 (skipped) when the ROCm 6.3 headers, hipRAND or hipSPARSE are absent,
as rules.lib_names_exist; cuBLASLt is not checked where the ROCm 6.3 headers
lack hipBLASLt.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc  # noqa: E402
from check_hip_names import check_line, macro_prefix  # noqa: E402
from check_lib_names import (PRELUDES, add_library_args, library_commands,  # noqa: E402
                             libraries_present)

# (label, HIP library, header test, [(cuda prefix, hip prefix)]).  A header
# belongs to the first library whose test accepts its name.
LIBRARIES = [
    ('cuBLASLt', 'hipblaslt', lambda h: h.startswith('cublasLt'),
     [('cublasLt', 'hipblasLt'), ('CUBLASLT_', 'HIPBLASLT_')]),
    ('cuBLAS', 'hipblas', lambda h: h in ('cublas_v2.h', 'cublas_api.h'),
     [('cublas', 'hipblas'), ('CUBLAS_', 'HIPBLAS_')]),
    ('cuRAND', 'hiprand', lambda h: h.startswith('curand'),
     [('curand', 'hiprand'), ('CURAND_', 'HIPRAND_')]),
    ('cuSPARSE', 'hipsparse', lambda h: h in ('cusparse.h', 'cusparse_v2.h'),
     [('cusparse', 'hipsparse'), ('CUSPARSE_', 'HIPSPARSE_')]),
]
HIP_NAMES = {'hipblas': 'hipBLAS', 'hipblaslt': 'hipBLASLt', 'hiprand': 'hipRAND',
             'hipsparse': 'hipSPARSE'}
# The headers whose declarations are collected (what a program includes; they
# include the rest of their library).
TOP_HEADERS = ['cublas_v2.h', 'cublasLt.h', 'curand.h', 'curand_kernel.h', 'cusparse.h']

MARKER = re.compile(r'^# \d+ "([^"]*)"', re.M)
NAME = r'((?:cublas|CUBLAS_|curand|CURAND_|cusparse|CUSPARSE_)\w*)'
TAG = re.compile(r'\b(?:struct|enum|union)\s+' + NAME)
TYPEDEF = re.compile(r'\btypedef\b[^;{}]*?\b' + NAME + r'\s*(?:\[[^;]*\])?;')
CALLBACK = re.compile(r'\btypedef\b[^;{}]*?\(\s*\*\s*' + NAME + r'\s*\)\s*\(')
# typedef enum { ... } cusparseFillMode_t;  typedef struct { ... } curandDiscreteDistribution_st;
# (possibly with a deprecation attribute after the name)
BODY_TYPEDEF = re.compile(r'\}\s*' + NAME + r'\b(?=[^;{}]*;)')
ENUM_BODY = re.compile(r'\benum\b[^{;()]*(?:\([^;{]*\))?[^{;]*\{([^{}]*)\}')
# A declaration: the name with its parameter list after a type (an identifier
# or a declarator's * or &), not a call in an inline body (after return, =,
# an operator or a parenthesis).
FUNC = re.compile(r'([\w*&])\s*\b' + NAME + r'\s*\(')
NOT_TYPES = {'return', 'else', 'do', 'case', 'goto', 'throw', 'new', 'delete', 'sizeof',
             'co_return', 'co_yield', 'typedef'}
DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+' + NAME + r'(?![\w(])', re.M)


def library_of(header):
    for lib in LIBRARIES:
        if lib[2](header):
            return lib
    return None


def collect(cmd, include_dir, found):
    """Adds {name: (library label, kind, header)} of the library headers of
    include_dir (the preprocessed text, attributed by line markers; macros
    from the header files)."""
    src = ''.join(f'#include <{h}>\n' for h in TOP_HEADERS
                  if os.path.exists(os.path.join(include_dir, h)))
    r = rc.run(cmd + ['-E', '-', '-o', '-'], input=src)
    if r.returncode != 0:
        raise SystemExit('cannot preprocess the library headers of %s:\n%s'
                         % (include_dir, r.stderr[-3000:]))
    chunks, cur, pos = {}, None, 0
    for m in MARKER.finditer(r.stdout):
        if cur is not None:
            chunks.setdefault(cur, []).append(r.stdout[pos:m.start()])
        cur, pos = m.group(1), m.end()
    chunks.setdefault(cur, []).append(r.stdout[pos:])
    files = set()
    for path, parts in chunks.items():
        if not path or os.path.dirname(os.path.abspath(path)) != os.path.abspath(include_dir):
            continue
        h = os.path.basename(path)
        lib = library_of(h)
        if not lib:
            continue
        files.add(path)
        text = ''.join(parts)

        def add(n, kind):
            if any(n.startswith(c) for c, _ in lib[3]):
                found.setdefault(n, (lib[0], kind, h))
        for body in ENUM_BODY.finditer(text):
            for item in body.group(1).split(','):
                m = re.match(r'\s*([A-Za-z_]\w*)', item)
                if m:
                    add(m.group(1), 'enum')
        for rx in (TAG, TYPEDEF, CALLBACK, BODY_TYPEDEF):
            for m in rx.finditer(text):
                add(m.group(1), 'type')
        for m in FUNC.finditer(text):
            before = text[max(0, m.start(2) - 64):m.start(2)].split()
            if before and re.search(r'\b(?:' + '|'.join(NOT_TYPES) + r')$', before[-1]):
                continue
            add(m.group(2), 'function')
    # Macros: the object-like ones of the library headers that are still
    # defined after them (cusparse.h #undefs its CUSPARSE_DEPRECATED helpers).
    r = rc.run(cmd + ['-E', '-dM', '-', '-o', '-'], input=src)
    defined = {l.split()[1] for l in r.stdout.splitlines() if l.startswith('#define ')}
    for path in sorted(files):
        h = os.path.basename(path)
        lib = library_of(h)
        text = open(path, encoding='utf-8', errors='replace').read()
        for m in DEFINE.finditer(text):
            n = m.group(1)
            if n in defined and any(n.startswith(c) for c, _ in lib[3]):
                found.setdefault(n, (lib[0], 'macro', h))


def spellings(name, prefixes, label):
    """The HIP spellings of a CUDA name, the one the tables use first."""
    for c, h in prefixes:
        if name.startswith(c):
            plain = h + name[len(c):]
            if label == 'cuBLAS' and '_v2' in plain:
                return [plain.replace('_v2', '', 1), plain]
            return [plain]
    return []


# The kind an entry takes, by the probes its HIP name passes: the CUDA
# name's kind where it passes, else the first of these (a type or an
# enumerator passes the using-declaration of a function too; a macro that
# names a function, as hipBLAS's hipblasCgemm, is a function, one that
# stands for a value is a macro).
KIND_ORDER = ('type', 'enum', 'function', 'macro')
MACRO_KIND_ORDER = ('type', 'function', 'macro', 'enum')


def main():
    ap = argparse.ArgumentParser()
    add_library_args(ap)
    ap.add_argument('--cuda-path', default='/usr/local/cuda')
    a = ap.parse_args()
    unchecked = libraries_present(a)
    if unchecked is None:
        return 77

    decls = os.path.join(a.source_dir, 'lib', 'Frontend', 'cuda-decls')
    found = {}
    # As the front end parses without a toolkit (check_bundled_decls.py).
    collect([a.clang, '-x', 'cuda', '-nocudainc', '-nocudalib', '--cuda-host-only',
             '--cuda-gpu-arch=sm_90', '--cuda-path=/nonexistent', '-isystem', decls,
             '-include', '__pk_cuda_prelude.h'], decls, found)
    sources = ['bundled declarations']
    toolkit = os.path.join(a.cuda_path, 'include')
    if os.path.exists(os.path.join(toolkit, 'cublas_v2.h')):
        collect([a.clang, '-x', 'c++', '-std=c++17', '-isystem', toolkit], toolkit, found)
        sources.append(toolkit)

    table = set()
    for _, doc in rc.load_tables(os.path.join(a.source_dir, 'rules')):
        if rc.is_header_table(doc):
            continue
        for e in doc.get('entries') or []:
            table.add(e['cuda'])

    errors = 0
    checked = 0
    cmds = library_commands(a.clang, a.offload_arch, a.hip_include, a.rocm6_include)
    for label, hiplib, _, prefixes in LIBRARIES:
        names = sorted(n for n, v in found.items() if v[0] == label)
        if hiplib in unchecked:
            continue
        checked += len(names)
        # One probe line per (name, HIP spelling, kind).
        probes = []
        for n in names:
            if n in table:
                continue
            for sp in spellings(n, prefixes, label):
                for k in KIND_ORDER:
                    probes.append((n, sp, k))
        if not probes:
            continue
        prelude = PRELUDES[hiplib] + ''.join(macro_prefix(i, sp) for i, (_, sp, k)
                                             in enumerate(probes) if k == 'macro')
        lines = [check_line(i, sp, k) for i, (_, sp, k) in enumerate(probes)]
        bad, log = rc.compile_lines(cmds[hiplib] + ['--offload-host-only'], prelude, lines)
        if -1 in bad:
            print(f'error: the {hiplib} probe does not compile outside the checked lines:\n'
                  + log[-3000:])
            return 1
        # Device-only declarations: the device side, for what the host lacks.
        again = sorted(bad)
        if again:
            dbad, log = rc.compile_lines(cmds[hiplib] + ['--offload-device-only'], prelude,
                                         [lines[i] if i in bad else '' for i in
                                          range(len(lines))])
            if -1 in dbad:
                print(f'error: the {hiplib} device probe does not compile outside the '
                      'checked lines:\n' + log[-3000:])
                return 1
            bad = bad & dbad
        passed = {}  # name -> (spelling, {kinds})
        for i, (n, sp, k) in enumerate(probes):
            if i in bad:
                continue
            cur = passed.get(n)
            if cur is None:
                passed[n] = (sp, {k})
            elif cur[0] == sp:
                cur[1].add(k)
        for n in sorted(passed):
            sp, kinds = passed[n]
            ckind = found[n][1]
            order = MACRO_KIND_ORDER if ckind == 'macro' else (ckind,) + KIND_ORDER
            kind = next(k for k in order if k in kinds)
            print(f'error: {n} ({found[n][2]}) is not in rules/cuda2hip, and '
                  f'{HIP_NAMES[hiplib]} has {sp}: add the entry (kind: {kind})')
            errors += 1
    libs = ', '.join(l for l, h, _, _ in LIBRARIES if h not in unchecked)
    print(f'{checked} names of {libs} ({"; ".join(sources)}) checked against their '
          'ROCm libraries: ' + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
