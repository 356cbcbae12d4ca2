// PK9001: an input that cannot be read or parsed, an output directory inside
// an input directory, an output that would overwrite an input, or an
// existing in-place backup is an error: non-zero exit, nothing written, the
// inputs untouched.  This file does not parse (scale_factor is undeclared).
//
// Parse error: clang's error follows the PK9001 line; no output at all.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %pk port -q --to hip,cuda -o %t/o %s 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: not ls %t/o
// DIAG: PK9001.cu: error: cannot parse as CUDA [PK9001]
#include <cuda_runtime.h>

#define WARP_SIZE 32

__global__ void partial_sums(const float *in, float *out, int n) {
  __shared__ float tile[WARP_SIZE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % WARP_SIZE] = i < n ? in[i] : 0.f;
  __syncthreads();
// DIAG-NEXT: PK9001.cu:[[@LINE+1]]:31: error: use of undeclared identifier 'scale_factor'
  out[blockIdx.x] = tile[0] * scale_factor;
}
// DIAG-NEXT: port-kernel: no output written

// Output directory inside the input directory: refused, input tree unchanged.
// RUN: mkdir -p %t/in && cp %S/Inputs/PK9001/saxpy.cu %t/in/
// RUN: not %pk port -q --to hip -o %t/in/out %t/in 2>&1 | FileCheck %s --check-prefix=INSIDE
// RUN: not ls %t/in/out
// RUN: diff %S/Inputs/PK9001/saxpy.cu %t/in/saxpy.cu
// INSIDE: port-kernel: error: output directory {{.*}}/in/out is inside the input {{.*}}/in; choose another -o or use --in-place [PK9001]
//
// An output that would overwrite an input (OUT/hip/saxpy.hip, a HIP file, is
// also an input): refused, that input unchanged.
// RUN: mkdir -p %t/ow/o/hip && cp %S/Inputs/PK9001/saxpy.cu %t/ow/
// RUN: cp %S/Inputs/PK9001/saxpy.hip %t/ow/o/hip/saxpy.hip
// RUN: not %pk port -q --to hip -o %t/ow/o %t/ow/saxpy.cu %t/ow/o/hip/saxpy.hip 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OVERWRITE
// RUN: diff %S/Inputs/PK9001/saxpy.hip %t/ow/o/hip/saxpy.hip
// OVERWRITE: ow/o/hip/saxpy.hip: error: -o would overwrite the input {{.*}}/ow/o/hip/saxpy.hip, which this run reads; choose another -o path [PK9001]
// OVERWRITE-NEXT: port-kernel: no output written
//
// --in-place never overwrites an existing backup.
// RUN: mkdir -p %t/ip && cp %S/Inputs/PK9001/saxpy.cu %t/ip/
// RUN: %pk port -q --to hip --in-place %t/ip/saxpy.cu
// RUN: cp %t/ip/saxpy.cu %t/ip/ported.cu
// RUN: not %pk port -q --to hip --in-place %t/ip/saxpy.cu 2>&1 | FileCheck %s --check-prefix=BACKUP
// RUN: diff %S/Inputs/PK9001/saxpy.cu %t/ip/saxpy.cu.orig
// RUN: diff %t/ip/ported.cu %t/ip/saxpy.cu
// BACKUP: port-kernel: error: backup {{.*}}/ip/saxpy.cu.orig already exists; refusing to overwrite it [PK9001]
//
// A missing input is an input that cannot be read.
// RUN: not %pk port -q --to hip -o %t/o %t/missing.cu 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: missing.cu: error: no such file or directory [PK9001]
//
// A '\' in a file name: the C++ front end would read it as a path separator
// and parse a/b.cu (or nothing) for a\b.cu.  The file is refused (exit 4:
// the other inputs are written), never copied unported; where a/b.cu exists
// too it is ported as itself, and a\b.cu is not taken for it.
// RUN: mkdir -p %t/bs/a && cp %S/Inputs/PK9001/saxpy.cu '%t/bs/a\b.cu'
// RUN: cp %S/Inputs/PK9001/saxpy.cu %t/bs/a/b.cu
// RUN: not %pk port -q --to hip,cuda,nki -o %t/bso %t/bs 2>&1 | FileCheck %s --check-prefix=BACKSLASH
// RUN: not ls '%t/bso/hip/a\b.cu'
// RUN: not ls '%t/bso/hip/a\b.hip'
// RUN: not ls '%t/bso/cuda/a\b.cu'
// RUN: not ls '%t/bso/nki/a\b.py'
// RUN: ls %t/bso/hip/a/b.hip %t/bso/cuda/a/b.cu %t/bso/nki/a/b.py
// BACKSLASH: bs/a\b.cu: error: cannot parse a file whose name contains '\': the C++ front end reads it as a path separator; rename the file [PK9001]
// BACKSLASH: port-kernel: 1 input file not ported (see the errors above): {{.*}}bs/a\b.cu; every other file was written [PK9100]
// A lone such file: nothing to write.
// RUN: rm -f %t/bs/a/b.cu && not %pk port -q --to hip -o %t/bso2 '%t/bs/a\b.cu' 2>&1 | FileCheck %s --check-prefix=LONE
// RUN: not ls %t/bso2
// LONE: bs/a\b.cu: error: cannot parse a file whose name contains '\'{{.*}} [PK9001]
// LONE: port-kernel: no output written
