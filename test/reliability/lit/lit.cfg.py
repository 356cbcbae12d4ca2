# lit configuration of the reliability cases written as annotated inputs:
# each file is one ctest (reliability.<name>) with RUN lines and FileCheck
# expectations next to the input.
#
# Substitutions:
#   %pk      the port-kernel binary under test (--param pk=PATH)
#   %src     the source tree
#   %s, %t   lit's: this file, a scratch path for this test
import os
import lit.formats

config.name = 'port-kernel reliability'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.cu', '.test']
config.test_source_root = os.path.dirname(__file__)

pk = lit_config.params.get('pk')
if not pk:
    lit_config.fatal('run with --param pk=/path/to/port-kernel')
llvm_bin = lit_config.params.get('llvm_bin', '/usr/lib/llvm-19/bin')
src = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))

# Scratch files go to the build tree of the binary under test.
config.test_exec_root = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(pk))), 'test', 'reliability', 'lit')

# Features: 'asan' in a sanitized build (--param sanitize=1).
if lit_config.params.get('sanitize') == '1':
    config.available_features.add('asan')

config.substitutions.append(('%pk', pk))
config.substitutions.append(('%src', src))
config.environment['PATH'] = os.pathsep.join([llvm_bin, config.environment.get('PATH', '/usr/bin:/bin')])
