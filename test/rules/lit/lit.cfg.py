# lit configuration of the focused rule tests: one file per rule ID, named
# after it (PK2001.cu, PK4001.hip, ...), with RUN lines and FileCheck
# expectations written inline next to the input.  Each file is one ctest
# (rule.<ID>); test/rules/check_rule_tests.py checks that every ID of
# lib/Core/include/pk/RuleTable.def has one.
#
# Substitutions:
#   %pk      the port-kernel binary under test (--param pk=PATH)
#   %rules   the built-in rename tables (rules/cuda2hip)
#   %s, %t   lit's: this file, a scratch path for this test
# FileCheck, not and count come from LLVM 19 (llvm-19-tools).
import os
import lit.formats

config.name = 'port-kernel rules'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.cu', '.cuh', '.hip', '.yaml']
config.excludes = ['Inputs']
config.test_source_root = os.path.dirname(__file__)

pk = lit_config.params.get('pk')
if not pk:
    lit_config.fatal('run with --param pk=/path/to/port-kernel')
llvm_bin = lit_config.params.get('llvm_bin', '/usr/lib/llvm-19/bin')
src = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))

# Scratch files (%t) go to the build tree of the binary under test
# (BUILD/bin/port-kernel -> BUILD/test/rules/lit), not into the sources.
config.test_exec_root = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(pk))), 'test', 'rules', 'lit')

config.substitutions.append(('%pk', pk))
config.substitutions.append(('%rules', os.path.join(src, 'rules', 'cuda2hip')))
config.environment['PATH'] = os.pathsep.join([llvm_bin, config.environment.get('PATH', '/usr/bin:/bin')])

# Compile checks of HIP outputs against real HIP headers (host and device
# side: run the substitution with --offload-host-only and with
# --offload-device-only):
#   %hip5   clang in HIP mode with Debian's ROCm 5.2 headers (/usr/include)
#   %hip6   the same with ROCm 6 headers (PK_ROCM6_INCLUDE, default
#           /work/shared/rocm-6.3/include)
# Where a version's headers are absent its substitution checks nothing
# (`true`), and lit says so.
clangxx = os.path.join(llvm_bin, 'clang++')
hip_common = f'{clangxx} -x hip --offload-arch=gfx90a -nogpulib -fsyntax-only -std=c++17'
rocm6 = os.environ.get('PK_ROCM6_INCLUDE', '/work/shared/rocm-6.3/include')
if os.path.isfile('/usr/include/hip/hip_version.h'):
    config.substitutions.append(('%hip5', f'{hip_common} --rocm-path=/usr -I/usr/include'))
else:
    lit_config.note('no ROCm 5 HIP headers in /usr/include: %hip5 checks nothing')
    config.substitutions.append(('%hip5', 'true'))
if os.path.isfile(os.path.join(rocm6, 'hip', 'hip_version.h')):
    config.substitutions.append(('%hip6', f'{hip_common} -nogpuinc -isystem {rocm6} '
                                          '-include __clang_hip_runtime_wrapper.h'))
else:
    lit_config.note(f'no ROCm 6 HIP headers at {rocm6}: %hip6 checks nothing')
    config.substitutions.append(('%hip6', 'true'))
