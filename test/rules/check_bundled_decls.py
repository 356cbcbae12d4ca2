#!/usr/bin/python3
"""rules.bundled_decls_parse: the bundled CUDA declarations are enough.

1. Every sample under inputs/ parses with zero errors in bundled mode
   (no CUDA toolkit; lib/Frontend/cuda-decls with __pk_cuda_prelude.h and
   the nvcc compatibility header, as the front end parses).
2. When a CUDA toolkit is installed (--cuda-path, default /usr/local/cuda),
   the same samples also parse with zero errors against it, so that the
   samples are real CUDA and the bundled mode accepts what the toolkit does.
3. Every CUDA name of rules/cuda2hip (supported or not) is declared in
   bundled mode, and every CUDA header that the tables map to a HIP header
   can be included.
4. With a toolkit: every CUDA name of the tables exists there too (except
   names that recent toolkits removed, listed in REMOVED_FROM_TOOLKIT), and
   the enumerators and flag macros of the tables have the same values in the
   bundled declarations as in the toolkit.
"""
import argparse
import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc  # noqa: E402

# Headers of the CUDA toolkit that the bundled declarations do not provide;
# the tables still know them so that their #include is reported.
NOT_BUNDLED = {'nvrtc.h', 'cuda_pipeline.h', 'cuda_awbarrier.h', 'cublas.h',
               'cufft.h', 'cublas_api.h'}
# Header directories of the toolkit that the bundled declarations do not
# provide either; with a toolkit, its headers are checked to exist there.
NOT_BUNDLED_DIRS = ('thrust/',)  # Thrust (PK1030): the toolkit's, under include/cccl in CUDA 13
# Host APIs of those libraries: the tables diagnose each use (their HIP
# counterparts are separate libraries); a source using them parses only
# against an installed toolkit.
NOT_BUNDLED_NAMES = re.compile(r'^(cufft|CUFFT_)')
# Headers of those libraries that the toolkit check includes besides ALL_HEADERS.
TOOLKIT_EXTRA_HEADERS = ['cufft.h']

# Names the tables keep for older sources although recent toolkits dropped
# them; they may be absent from the installed toolkit.
REMOVED_FROM_TOOLKIT = {'cudaDevAttrCooperativeMultiDeviceLaunch', 'cudaConfigureCall',
                        # flags of the removed multi-device cooperative launch
                        'cudaCooperativeLaunchMultiDeviceNoPreSync',
                        'cudaCooperativeLaunchMultiDeviceNoPostSync',
                        # removed runtime functions (PK6010; rules/cuda-legacy): the
                        # nvcc compatibility header declares them for parsing
                        'cudaThreadSynchronize', 'cudaThreadExit', 'cudaThreadGetLimit',
                        'cudaThreadSetLimit', 'cudaThreadSetCacheConfig',
                        'cudaThreadGetCacheConfig', 'cudaSetDoubleForDevice',
                        'cudaSetDoubleForHost',
                        # CUDA 12.2-12.9 names of the memory-location forms
                        # (PK1028), which CUDA 13 gave the plain names
                        'cudaMemPrefetchAsync_v2', 'cudaMemAdvise_v2'}

ALL_HEADERS = ['cuda_runtime.h', 'cuda_profiler_api.h', 'cuda.h', 'cuda_fp16.h', 'cuda_bf16.h',
               'mma.h', 'cooperative_groups.h', 'cooperative_groups/reduce.h',
               'curand_kernel.h', 'curand.h', 'cuComplex.h', 'library_types.h', 'cublas_v2.h',
               'cub/cub.cuh', 'cusparse.h', 'cuda_fp8.h', 'cublasLt.h']


def bundled_cmd(clang, resource_dir, decls, shim):
    # As the front end parses without a toolkit: the bundled declarations, the
    # prelude and the nvcc compatibility header.
    return [clang, '-fsyntax-only', '-x', 'cuda', '-nocudainc', '-nocudalib', '--cuda-host-only',
            '--cuda-gpu-arch=sm_90', '--cuda-path=/nonexistent', '-resource-dir', resource_dir,
            '-isystem', decls, '-isystem', shim, '-include', '__pk_cuda_prelude.h',
            '-include', '__pk_nvcc_compat.h']


def toolkit_cmd(clang, cuda_path, shim):
    cmd = [clang, '-fsyntax-only', '-x', 'cuda', f'--cuda-path={cuda_path}',
           '--cuda-gpu-arch=sm_90', '-nocudalib', '--cuda-host-only', '-Wno-unknown-cuda-version',
           '-isystem', shim]
    cccl = os.path.join(cuda_path, 'include', 'cccl')
    if os.path.isdir(cccl):  # CUDA 13 keeps libcu++ (cuda/std/...) here
        cmd += ['-isystem', cccl]
    return cmd


def macros_of(cmd, prelude):
    r = rc.run(cmd + ['-E', '-dM', '-'], input=prelude)
    return {l.split()[1].split('(')[0] for l in r.stdout.splitlines() if l.startswith('#define ')}


def undeclared(cmd, prelude, names):
    """Names (not macros) that the global namespace lacks; None on a probe failure."""
    macros = macros_of(cmd, prelude)
    checked = [n for n in names if n not in macros]
    bad, log = rc.compile_lines(cmd, prelude, [f'namespace pk_{i} {{ using ::{n}; }}'
                                               for i, n in enumerate(checked)], suffix='.cu')
    if -1 in bad:
        return None, log
    return [checked[j] for j in sorted(bad)], log


SENTINEL = -987654321


def constant_values(cmd, prelude, names):
    """Integral value of each name, read from clang's static_assert note."""
    lines = [f'static_assert((long long)({n}) == {SENTINEL}LL, "");' for n in names]
    body = prelude + ''.join(l + '\n' for l in lines)
    r = rc.run(cmd + ['-ferror-limit=0', '-'], input=body)
    base, cur, vals = prelude.count('\n'), None, {}
    for l in r.stderr.splitlines():
        m = re.match(r'<stdin>:(\d+):\d+: error', l)
        if m:
            cur = int(m.group(1)) - base - 1
            continue
        m = re.search(r"evaluates to '(-?\d+) == %d'" % SENTINEL, l)
        if m and cur is not None and 0 <= cur < len(names):
            vals[names[cur]] = int(m.group(1))
    return vals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--resource-dir', default='/usr/lib/llvm-19/lib/clang/19')
    ap.add_argument('--cuda-path', default='/usr/local/cuda')
    a = ap.parse_args()
    decls = os.path.join(a.source_dir, 'lib', 'Frontend', 'cuda-decls')
    shim = os.path.join(a.source_dir, 'lib', 'Frontend', 'cuda13-shim')
    inputs = sorted(glob.glob(os.path.join(a.source_dir, 'test', 'rules', 'inputs', '*.cu')))
    errors = []
    if not inputs:
        errors.append('no samples under test/rules/inputs')
    bcmd = bundled_cmd(a.clang, a.resource_dir, decls, shim)
    have_toolkit = os.path.isfile(os.path.join(a.cuda_path, 'include', 'cuda_runtime.h'))
    tcmd = toolkit_cmd(a.clang, a.cuda_path, shim) if have_toolkit else None

    for f in inputs:
        rel = os.path.relpath(f, a.source_dir)
        r = rc.run(bcmd + [f])
        if r.returncode != 0 or ' error:' in r.stderr:
            errors.append(f'{rel}: does not parse in bundled mode:\n{r.stderr[-4000:]}')
        if tcmd:
            r = rc.run(tcmd + [f])
            if r.returncode != 0 or ' error:' in r.stderr:
                errors.append(f'{rel}: does not parse with the toolkit at {a.cuda_path}:\n'
                              f'{r.stderr[-4000:]}')

    # CUDA names of the tables, declared in bundled mode.
    names, headers, namespaces = [], [], []
    toolkit_only = set()
    for path, doc in rc.load_tables(os.path.join(a.source_dir, 'rules')):
        for e in doc.get('entries') or []:
            if str(e.get('note') or '').startswith('toolkit only'):
                toolkit_only.add(e['cuda'])
            if e.get('kind') == 'namespace':
                namespaces.append((os.path.basename(path), e['cuda']))
                continue
            (headers if rc.is_header_table(doc) else names).append(
                (os.path.basename(path), e['cuda']))
    prelude = ''.join(f'#include <{h}>\n' for h in ALL_HEADERS)
    where = {n: f for f, n in names}
    # Entries noted "toolkit only": runtime API the bundled declarations leave
    # out (ported where a toolkit is installed; checked against it below).
    plain = [n for _, n in names if not NOT_BUNDLED_NAMES.match(n) and n not in toolkit_only]
    bcmd_stdin = bcmd + ['-x', 'cuda']
    missing, log = undeclared(bcmd_stdin, prelude, plain)
    if missing is None:
        errors.append('the bundled declaration probe does not compile:\n' + log[-3000:])
    else:
        for n in missing:
            errors.append(f'{where[n]}: {n} is not declared by lib/Frontend/cuda-decls')
    if tcmd:
        tcmd_stdin = tcmd + ['-x', 'cuda']
        # The toolkit declares the libraries the bundled mode leaves out.
        tprelude = prelude + ''.join(f'#include <{h}>\n' for h in TOOLKIT_EXTRA_HEADERS)
        missing, log = undeclared(tcmd_stdin, tprelude, [n for _, n in names])
        if missing is None:
            errors.append('the toolkit declaration probe does not compile:\n' + log[-3000:])
        else:
            for n in missing:
                if n not in REMOVED_FROM_TOOLKIT:
                    errors.append(f'{where[n]}: {n} is not a CUDA name (the toolkit at '
                                  f'{a.cuda_path} does not declare it)')
        consts = [n for path, doc in rc.load_tables(os.path.join(a.source_dir, 'rules'))
                  if not rc.is_header_table(doc) for e in doc.get('entries') or []
                  if e.get('kind') in ('enum', 'macro') for n in [e['cuda']]]
        # (a name the bundled mode lacks, as one noted "toolkit only", would
        # read the value of clang's typo correction)
        bv = constant_values(bcmd_stdin, prelude,
                             [n for n in consts if not NOT_BUNDLED_NAMES.match(n)
                              and n not in toolkit_only])
        tv = constant_values(tcmd_stdin, tprelude, consts)
        # Namespaces (CUB): declared by the toolkit.
        bad, log = rc.compile_lines(tcmd_stdin, tprelude, [f'namespace pk_ns{i} = ::{n};'
                                                           for i, (_, n) in enumerate(namespaces)],
                                    suffix='.cu')
        for i in sorted(bad):
            errors.append(f'{namespaces[i][0]}: {namespaces[i][1]} is not a namespace of the '
                          f'toolkit at {a.cuda_path}' if i >= 0 else
                          'the toolkit namespace probe does not compile:\n' + log[-3000:])
        compared = 0
        for n in consts:
            if n in bv and n in tv and n not in REMOVED_FROM_TOOLKIT:
                compared += 1
                if bv[n] != tv[n]:
                    errors.append(f'{where[n]}: {n} is {bv[n]} in lib/Frontend/cuda-decls but '
                                  f'{tv[n]} in the toolkit')
        print(f'{compared} enumerator/flag values compared with the toolkit')

    for fname, h in headers:
        if h in NOT_BUNDLED or h.startswith(NOT_BUNDLED_DIRS):
            if tcmd:
                line = f'#if !__has_include(<{h}>)\n#error "{h} not in the toolkit"\n#endif'
                b, _ = rc.compile_lines(tcmd + ['-E', '-o', os.devnull], '', [line], suffix='.cu')
                if b:
                    errors.append(f'{fname}: {h} is not a header of the toolkit at {a.cuda_path}')
            continue
        line = f'#if !__has_include(<{h}>)\n#error "{h} not bundled"\n#endif'
        b, _ = rc.compile_lines(bcmd + ['-E', '-o', os.devnull], '', [line], suffix='.cu')
        if b:
            errors.append(f'{fname}: {h} is not provided by lib/Frontend/cuda-decls')

    for e in errors:
        print('error: ' + e)
    mode = f'bundled and toolkit ({a.cuda_path})' if tcmd else 'bundled (no toolkit found)'
    print(f'{len(inputs)} samples in {mode} mode, {len(names)} CUDA names, '
          f'{len(headers)} headers: ' + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
