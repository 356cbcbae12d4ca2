#!/usr/bin/python3
"""rules.hip_names_exist: every hip: name of rules/cuda2hip exists in HIP,
in each HIP installation given (--hip NAME=DIR, repeatable: Debian's ROCm 5.2
headers and the ROCm 6.3 headers), and so does every spelling that depends on
--rocm-version (the RocmSpelling rows of lib/Targets/TargetCommon.cpp: the
ROCm 5 spelling against ROCm 5.x headers, the ROCm 6 one against 6.x).

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
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules_common as rc  # noqa: E402

PRELUDE = ('#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n'
           '#include <hip/hip_bfloat16.h>\n#include <hip/hip_cooperative_groups.h>\n'
           '#include <hip/hip_complex.h>\n'
           '#if __has_include(<hip/hip_bf16.h>)\n#include <hip/hip_bf16.h>\n#endif\n'
           '#if __has_include(<hip/hip_fp8.h>)\n#include <hip/hip_fp8.h>\n#endif\n')

# A row of the RocmSpelling table: {"cuda", "rocm5", "rocm6"[, RuleId::PKnnnn]}.
ROCM_ROW = re.compile(r'\{"([^"]+)",\s*"([^"]*)",\s*"([^"]*)"(?:,\s*RuleId::PK\d{4})?\}')


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


def rocm_spellings(source_dir):
    """[(cuda, rocm5, rocm6)] of the versioned spellings (TargetCommon.cpp)."""
    text = open(os.path.join(source_dir, 'lib/Targets/TargetCommon.cpp'), encoding='utf-8').read()
    start = text.index('rocmSpelling(llvm::StringRef Cuda)')
    body = text[start:text.index('};', start)]
    return ROCM_ROW.findall(body)




def hip_macro(include_dir, name):
    """Whether a header of include_dir/hip defines name as a macro."""
    return rc.defines_macro(rc.header_tree_text(os.path.join(include_dir, 'hip')), name)


def hip_major(include_dir):
    try:
        text = open(os.path.join(include_dir, 'hip', 'hip_version.h'), encoding='utf-8').read()
    except OSError:
        return 0
    m = re.search(r'#define\s+HIP_VERSION_MAJOR\s+(\d+)', text)
    return int(m.group(1)) if m else 0


def check_installation(a, label, include_dir, entries, headers, errors):
    """Checks the names and headers against one HIP installation."""
    base = [a.clang, '-x', 'hip', f'--offload-arch={a.offload_arch}', '-nogpulib',
            '-fsyntax-only', '-Wno-deprecated-declarations']
    if os.path.abspath(include_dir) == '/usr/include':
        base += [f'--rocm-path={a.rocm_path}', f'-I{include_dir}']
    else:  # a header-only copy: no ROCm layout around it
        base += ['-nogpuinc', '-isystem', include_dir, '-include', '__clang_hip_runtime_wrapper.h']
    tag = f'[{label}] '
    # Macro checks need a preprocessor block each; put them all before the
    # checked lines so each checked line stays a single line.
    macro_defs = ''.join(macro_prefix(i, h) for i, (_, _, h, k) in enumerate(entries) if k == 'macro')
    lines = [check_line(i, h, k) for i, (_, _, h, k) in enumerate(entries)]
    prelude = PRELUDE + macro_defs
    bad_host, log_host = rc.compile_lines(base + ['--offload-host-only'], prelude, lines)
    bad_dev, log_dev = rc.compile_lines(base + ['--offload-device-only'], prelude, lines)
    if -1 in bad_host and -1 in bad_dev:
        errors.append(tag + 'the HIP probe does not compile outside the checked lines:\n' + log_host[-3000:])
    for i in sorted((bad_host & bad_dev) - {-1}):
        if 0 <= i < len(entries):
            fname, cuda, hip, kind = entries[i]
            errors.append(f'{tag}{fname}: {cuda} -> {hip}: {hip} is not a HIP {kind} (missing, misspelled or of another kind)')

    if headers:
        for fname, cuda, hip in headers:
            line = f'#if !__has_include(<{hip}>)\n#error "{hip} not found"\n#endif'
            bad, log = rc.compile_lines(base + ['--offload-host-only', '-E', '-o', os.devnull],
                                        '', [line])
            if bad:
                errors.append(f'{tag}{fname}: {cuda} -> {hip}: header not found')
        together = '#include <hip/hip_runtime.h>\n' + ''.join(
            f'#include <{h}>\n' for _, _, h in headers)
        bad, log = rc.compile_lines(base + ['--offload-host-only'], together, [])
        if bad:
            errors.append(tag + 'the HIP headers of headers.yaml do not compile together:\n' + log[-3000:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--source-dir', required=True)
    ap.add_argument('--rules-dir', default='', help='defaults to <source-dir>/rules')
    ap.add_argument('--clang', default='clang++-19')
    ap.add_argument('--offload-arch', default='gfx90a')
    ap.add_argument('--hip-include', default='', help='one HIP include directory (as --hip)')
    ap.add_argument('--hip', action='append', default=[], metavar='DIR',
                    help='a HIP include directory to check against (repeatable)')
    ap.add_argument('--rocm-path', default='/usr')
    a = ap.parse_args()
    rules_dir = a.rules_dir or os.path.join(a.source_dir, 'rules')
    dirs = a.hip + ([a.hip_include] if a.hip_include else [])
    if not dirs:
        dirs = ['/usr/include']
    errors = []
    entries = []  # (file, cuda, hip, kind)
    headers = []
    kinds = {}
    for path, doc in rc.load_tables(rules_dir):
        fname = os.path.basename(path)
        if rc.is_library_table(path):
            continue  # the ROCm libraries' tables: check_lib_names.py
        for e in doc.get('entries') or []:
            kinds[e['cuda']] = e.get('kind')
            hip = e.get('hip')
            if not hip:
                continue
            if rc.is_header_table(doc):
                headers.append((fname, e['cuda'], hip))
            elif e.get('kind') not in rc.ENTRY_KINDS:
                errors.append(f'{fname}: {e["cuda"]} -> {hip}: missing or bad kind {e.get("kind")!r}')
            else:
                entries.append((fname, e['cuda'], hip, e['kind']))

    # The spellings that depend on --rocm-version replace the table's entry
    # for their version: ROCm 5 spellings are checked against 5.x, ROCm 6
    # ones against 6.x (a table entry overridden for ROCm 6 is not).
    versioned = rocm_spellings(a.source_dir)
    over6 = {c for c, _, r6 in versioned}
    checked = 0
    absent = [d for d in dirs if not os.path.isdir(d)]
    for d in absent:
        print(f'note: {d} does not exist: not checked against it')
    dirs = [d for d in dirs if d not in absent]
    for d in dirs:
        major = hip_major(d)
        if not major:
            errors.append(f'{d}: no hip/hip_version.h')
            continue
        label = f'HIP {major} at {d}'
        ents = [e for e in entries if major < 6 or e[1] not in over6]
        hdrs = [h for h in headers if major < 6 or h[1] not in over6]
        for c, r5, r6 in versioned:
            sp = r6 if major >= 6 else r5
            if not sp or sp in ('float', 'int', 'double'):
                continue
            if sp.endswith('.h'):
                hdrs.append(('TargetCommon.cpp', c, sp))
            else:
                kind = kinds.get(c) if kinds.get(c) in ('type', 'function') else 'function'
                # A versioned name with no table entry is checked as what the
                # HIP headers make it: a macro (#define) or a declaration.
                if c not in kinds and hip_macro(d, sp):
                    kind = 'macro'
                ents.append(('TargetCommon.cpp', c, sp, kind))
        check_installation(a, label, d, ents, hdrs, errors)
        checked += len(ents) + len(hdrs)

    for e in errors:
        print('error: ' + e)
    print(f'{checked} names and headers checked against {len(dirs)} HIP installation(s): '
          + ('FAILED' if errors else 'ok'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
