#!/usr/bin/python3
"""rules.hip_names_exist: every hip: name of rules/cuda2hip exists in HIP.

For the identifier tables each entry's hip name is referenced in a HIP
translation unit in the form its kind calls for:

  function  namespace pk_N { using ::NAME; }        (overloads and templates too)
  type      using pk_tN = NAME;
  enum      static_assert(enum or integral type)    (enumerators, constants)
  macro     #ifndef NAME / #error

and compiled with clang in HIP mode against the installed HIP headers, once
for the host side and once for the device side (device functions such as
wall_clock64 are declared only there).  An entry passes when its line
compiles on at least one side.  For the header table each hip header must be
found by #include (and all of them must compile together).
"""
import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc  # noqa: E402

PRELUDE = ('#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n'
           '#include <hip/hip_bfloat16.h>\n#include <hip/hip_cooperative_groups.h>\n'
           '#include <hip/hip_complex.h>\n')


def check_line(i, name, kind):
    if kind == 'function':
        return f'namespace pk_{i} {{ using ::{name}; }}'
    if kind == 'type':
        return f'using pk_t{i} = {name}; static_assert(sizeof(pk_t{i} *) != 0, "");'
    if kind == 'enum':
        return (f'static_assert(__is_enum(decltype({name})) || __is_integral(decltype({name})), '
                f'"{name} is not an enumerator or integral constant");')
    if kind == 'macro':
        return f'static_assert(__pk_defined_{i}, "{name} is not a macro");'
    raise ValueError(kind)


def macro_prefix(i, name):
    return f'#ifdef {name}\nconstexpr bool __pk_defined_{i} = true;\n#else\nconstexpr bool __pk_defined_{i} = false;\n#endif\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--rules-dir', default='', help='defaults to <source-dir>/rules')
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--offload-arch', default='gfx90a')
    ap.add_argument('--hip-include', default='/usr/include')
    ap.add_argument('--rocm-path', default='/usr')
    a = ap.parse_args()
    rules_dir = a.rules_dir or os.path.join(a.source_dir, 'rules')
    base = [a.clang, '-x', 'hip', f'--offload-arch={a.offload_arch}', '-nogpulib',
            f'--rocm-path={a.rocm_path}', f'-I{a.hip_include}', '-fsyntax-only',
            '-Wno-deprecated-declarations']
    errors = []
    entries = []  # (file, cuda, hip, kind)
    headers = []
    for path, doc in rc.load_tables(rules_dir):
        fname = os.path.basename(path)
        if rc.is_library_table(path):
            continue  # the ROCm libraries' tables: check_lib_names.py
        for e in doc.get('entries') or []:
            hip = e.get('hip')
            if not hip:
                continue
            if rc.is_header_table(doc):
                headers.append((fname, e['cuda'], hip))
            elif e.get('kind') not in rc.ENTRY_KINDS:
                errors.append(f'{fname}: {e["cuda"]} -> {hip}: missing or bad kind {e.get("kind")!r}')
            else:
                entries.append((fname, e['cuda'], hip, e['kind']))

    # Macro checks need a preprocessor block each; put them all before the
    # checked lines so each checked line stays a single line.
    macro_defs = ''.join(macro_prefix(i, h) for i, (_, _, h, k) in enumerate(entries) if k == 'macro')
    lines = [check_line(i, h, k) for i, (_, _, h, k) in enumerate(entries)]
    prelude = PRELUDE + macro_defs
    bad_host, log_host = rc.compile_lines(base + ['--offload-host-only'], prelude, lines)
    bad_dev, log_dev = rc.compile_lines(base + ['--offload-device-only'], prelude, lines)
    if -1 in bad_host and -1 in bad_dev:
        errors.append('the HIP probe does not compile outside the checked lines:\n' + log_host[-3000:])
    for i in sorted((bad_host & bad_dev) - {-1}):
        if 0 <= i < len(entries):
            fname, cuda, hip, kind = entries[i]
            errors.append(f'{fname}: {cuda} -> {hip}: {hip} is not a HIP {kind} (missing, misspelled or of another kind)')

    if headers:
        hlines = [f'#if !__has_include(<{h}>)\n#error "{h} not found"\n#endif' for _, _, h in headers]
        for (fname, cuda, hip), line in zip(headers, hlines):
            bad, log = rc.compile_lines(base + ['--offload-host-only', '-E', '-o', os.devnull],
                                        '', [line])
            if bad:
                errors.append(f'{fname}: {cuda} -> {hip}: header not found')
        together = '#include <hip/hip_runtime.h>\n' + ''.join(
            f'#include <{h}>\n' for _, _, h in headers)
        bad, log = rc.compile_lines(base + ['--offload-host-only'], together, [])
        if bad:
            errors.append('the HIP headers of headers.yaml do not compile together:\n' + log[-3000:])

    for e in errors:
        print('error: ' + e)
    print(f'{len(entries)} names and {len(headers)} headers checked against HIP: '
          + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
