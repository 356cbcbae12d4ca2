#!/usr/bin/python3
"""rules.lib_names_exist: every hip: name of the library tables exists in its library.

The tables of the ROCm math libraries (rules_common.LIBRARY_TABLES:
lib-cublas.yaml, lib-cublaslt.yaml, lib-curand.yaml, lib-cusparse.yaml, lib-cub.yaml,
lib-headers.yaml) are checked
against the headers of the library that declares their names, as
check_hip_names.py checks the runtime tables against HIP:

  hipblas   <hipblas/hipblas.h> of ROCm 6.3 (--rocm6-include), with HIPBLAS_V2
            (the hipDataType / hipblasComputeType_t form the tables target)
  hipblaslt <hipblaslt/hipblaslt.h> of ROCm 6.3 (hipBLASLt 0.11)
  hipcub    <hipcub/hipcub.hpp> of ROCm 6.3
  thrust    rocThrust's headers of ROCm 6.3 (lib-headers.yaml's thrust/system/hip/*)
  hiprand   <hiprand/hiprand.h> and <hiprand/hiprand_kernel.h> of Debian
            (libhiprand-dev, --hip-include) with the HIP runtime there
  hipsparse <hipsparse/hipsparse.h> of Debian (libhipsparse-dev)

Each entry is referenced in the form its kind calls for (function: a using
declaration; type: an alias; enum: a static_assert on an enumerator or
integral constant; macro: #ifdef; namespace: a namespace alias) and compiled
host side and device side; it passes when it compiles on one side.  A
namespace entry also checks the members that ported programs use
(NAMESPACE_MEMBERS).  Every header of lib-headers.yaml must be found, and
the headers of one library must compile together.

Exit 77 (skipped) when the ROCm 6.3 headers, hipRAND or hipSPARSE are absent.
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc  # noqa: E402
from check_hip_names import check_line, macro_prefix  # noqa: E402

# The members of a renamed namespace that ported programs use: each must be
# declared in the HIP library's namespace.
NAMESPACE_MEMBERS = {
    'hipcub': ['BlockReduce', 'BlockScan', 'WarpReduce', 'WarpScan', 'BlockLoad', 'BlockStore',
               'BlockRadixSort', 'DeviceReduce', 'DeviceScan', 'DeviceRadixSort', 'Sum', 'Max',
               'Min', 'BLOCK_REDUCE_WARP_REDUCTIONS', 'BLOCK_REDUCE_RAKING',
               'BLOCK_SCAN_RAKING', 'BLOCK_SCAN_WARP_SCANS', 'BLOCK_LOAD_DIRECT',
               'BLOCK_STORE_DIRECT'],
}

PRELUDES = {
    'hipblas': '#define HIPBLAS_V2\n#include <hip/hip_runtime.h>\n#include <hipblas/hipblas.h>\n',
    'hipblaslt': '#include <hip/hip_runtime.h>\n#include <hipblaslt/hipblaslt.h>\n',
    'hipcub': '#include <hip/hip_runtime.h>\n#include <hipcub/hipcub.hpp>\n',
    'thrust': '#include <hip/hip_runtime.h>\n#include <thrust/device_vector.h>\n',
    'hiprand': ('#include <hip/hip_runtime.h>\n#include <hiprand/hiprand.h>\n'
                '#include <hiprand/hiprand_kernel.h>\n'),
    'hipsparse': '#include <hip/hip_runtime.h>\n#include <hipsparse/hipsparse.h>\n',
}


def library_commands(clang, offload_arch, hip_include, rocm6_include):
    """{library: clang command prefix} that the probes of a library compile with."""
    common = [clang, '-x', 'hip', f'--offload-arch={offload_arch}', '-nogpulib',
              '-fsyntax-only', '-std=c++17', '-Wno-deprecated-declarations',
              '-Wno-unused-command-line-argument']
    rocm6 = common + ['-nogpuinc', '-isystem', rocm6_include,
                      '-include', '__clang_hip_runtime_wrapper.h']
    debian = common + ['--rocm-path=/usr', f'-I{hip_include}']
    return {'hipblas': rocm6, 'hipblaslt': rocm6, 'hipcub': rocm6, 'thrust': rocm6,
            'hiprand': debian, 'hipsparse': debian}


def library_of_header(h):
    top = h.split('/')[0]
    return top if top in PRELUDES else None


def add_library_args(ap):
    """The arguments of the library checks (this one and check_lib_coverage.py)."""
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--offload-arch', default='gfx90a')
    ap.add_argument('--hip-include', default='/usr/include',
                    help='the HIP runtime, hipRAND and hipSPARSE headers (Debian)')
    ap.add_argument('--rocm6-include', default='/work/shared/rocm-6.3/include',
                    help='ROCm 6.3 headers: HIP, hipBLAS, hipBLASLt, hipCUB')


def libraries_present(a):
    """None when a library every check needs is absent (the check is
    skipped, after saying why), else the set of libraries not checked:
    hipBLASLt is not part of the ROCm 6.3 headers every machine has."""
    for d, lib, what in ((a.rocm6_include, 'hipblas/hipblas.h', 'hipBLAS'),
                         (a.hip_include, 'hiprand/hiprand.h', 'hipRAND (libhiprand-dev)'),
                         (a.hip_include, 'hipsparse/hipsparse.h',
                          'hipSPARSE (libhipsparse-dev)')):
        if not os.path.isfile(os.path.join(d, lib)):
            print(f'skipped: no {what} headers under {d}')
            return None
    unchecked = set()
    if not os.path.isfile(os.path.join(a.rocm6_include, 'hipblaslt', 'hipblaslt.h')):
        print(f'note: no hipBLASLt headers under {a.rocm6_include}: cuBLASLt '
              '(lib-cublaslt.yaml, the hipblaslt/ headers) is not checked')
        unchecked.add('hipblaslt')
    return unchecked


def main():
    ap = argparse.ArgumentParser()
    add_library_args(ap)
    a = ap.parse_args()
    unchecked = libraries_present(a)
    if unchecked is None:
        return 77
    cmds = library_commands(a.clang, a.offload_arch, a.hip_include, a.rocm6_include)

    errors = []
    per_lib = {}  # lib -> [(file, cuda, hip, kind)]
    headers = []
    rules_dir = os.path.join(a.source_dir, 'rules')
    for path, doc in rc.load_tables(rules_dir):
        if not rc.is_library_table(path):
            continue
        fname = os.path.basename(path)
        lib = rc.LIBRARY_TABLES[fname]
        for e in doc.get('entries') or []:
            hip = e.get('hip')
            if not hip:
                continue
            if rc.is_header_table(doc):
                headers.append((fname, e['cuda'], hip))
            elif e.get('kind') not in rc.ENTRY_KINDS:
                errors.append(f'{fname}: {e["cuda"]} -> {hip}: missing or bad kind {e.get("kind")!r}')
            else:
                per_lib.setdefault(lib, []).append((fname, e['cuda'], hip, e['kind']))
                if e['kind'] == 'namespace':
                    for m in NAMESPACE_MEMBERS.get(hip, []):
                        per_lib[lib].append((fname, f'{e["cuda"]}::{m}', f'{hip}::{m}', 'member'))

    count = 0
    for lib, entries in sorted(per_lib.items()):
        if lib in unchecked:
            continue
        def line(i, h, k):
            if k == 'namespace':
                return f'namespace pk_ns{i} = ::{h};'
            if k == 'member':
                return f'namespace pk_{i} {{ using ::{h}; }}'
            return check_line(i, h, k)
        macro_defs = ''.join(macro_prefix(i, h) for i, (_, _, h, k) in enumerate(entries)
                             if k == 'macro')
        lines = [line(i, h, k) for i, (_, _, h, k) in enumerate(entries)]
        prelude = PRELUDES[lib] + macro_defs
        bad_h, log_h = rc.compile_lines(cmds[lib] + ['--offload-host-only'], prelude, lines)
        bad_d, log_d = rc.compile_lines(cmds[lib] + ['--offload-device-only'], prelude, lines)
        if -1 in bad_h and -1 in bad_d:
            errors.append(f'the {lib} probe does not compile outside the checked lines:\n'
                          + log_h[-3000:])
        for i in sorted((bad_h & bad_d) - {-1}):
            if 0 <= i < len(entries):
                fname, cuda, hip, kind = entries[i]
                errors.append(f'{fname}: {cuda} -> {hip}: {hip} is not a {lib} {kind} '
                              '(missing, misspelled or of another kind)')
        count += len(entries)

    for fname, cuda, hip in headers:
        lib = library_of_header(hip)
        if lib in unchecked:
            continue
        if not lib:
            errors.append(f'{fname}: {cuda} -> {hip}: no library of rules_common.LIBRARY_TABLES '
                          'declares this header directory')
            continue
        line = f'#if !__has_include(<{hip}>)\n#error "{hip} not found"\n#endif'
        bad, _ = rc.compile_lines(cmds[lib] + ['--offload-host-only', '-E', '-o', os.devnull],
                                  '', [line])
        if bad:
            errors.append(f'{fname}: {cuda} -> {hip}: header not found')
    for lib in sorted({library_of_header(h) for _, _, h in headers} - {None} - unchecked):
        together = PRELUDES[lib] + ''.join(f'#include <{h}>\n' for _, _, h in headers
                                           if library_of_header(h) == lib)
        bad, log = rc.compile_lines(cmds[lib] + ['--offload-host-only'], together, [])
        if bad:
            errors.append(f'the {lib} headers of lib-headers.yaml do not compile together:\n'
                          + log[-3000:])

    for e in errors:
        print('error: ' + e)
    checked = len([h for _, _, h in headers if library_of_header(h) not in unchecked])
    libs = ', '.join(l for l in ('hipBLAS', 'hipBLASLt', 'hipCUB') if l.lower() not in unchecked)
    print(f'{count} names and {checked} headers checked against {libs} (ROCm 6.3) '
          'and hipRAND, hipSPARSE (Debian): ' + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
