// PK9102: third-party headers that are not installed (mpi.h, omp.h, gsl/...)
// do not change how CUDA maps to HIP.  With --stub-missing-includes each one
// is parsed as an empty header, errors in host code that follow from the
// missing declarations are tolerated, and every one of them is reported at
// its line (stderr, a comment in the output, the report).  An error in device
// code is never tolerated.  Without the option the file is not ported.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not %pk port -q --to hip -o %t/no %t/app.cu 2>&1 | FileCheck %s --check-prefix=OFF
// OFF: {{.*}}app.cu:2:10: error: 'mpi.h' file not found
// OFF: port-kernel: no output written
//
// RUN: %pk port -q --stub-missing-includes --to hip -o %t/o --report %t/r.json %t/app.cu 2>&1 | FileCheck %s --check-prefix=ON
// ON-DAG: {{.*}}app.cu:2:10: warning: 'mpi.h' is not installed: parsed with an empty stub (--stub-missing-includes); what it declares is unknown to this translation [PK9102]
// ON-DAG: {{.*}}app.cu:3:10: warning: 'gsl/span' is not installed: {{.*}} [PK9102]
// ON-DAG: {{.*}}app.cu:14:3: warning: error in host code tolerated because of a stubbed header: unknown type name 'MPI_Comm' [PK9102]
// RUN: FileCheck %s --check-prefix=OUT < %t/o/hip/app.hip
// OUT: // port-kernel: warning: 'mpi.h' is not installed: {{.*}} [PK9102]
// OUT-NEXT: #include <mpi.h>
// OUT: __global__ void scale(float *x, int n) {
// RUN: FileCheck %s --check-prefix=REPORT < %t/r.json
// REPORT: "rule": "PK9102"
//
// A name of the missing header used in device code: not tolerated.
// RUN: not %pk port -q --stub-missing-includes --to hip -o %t/dev %t/device_use.cu 2>&1 | FileCheck %s --check-prefix=DEV
// DEV: {{.*}}device_use.cu:3:{{[0-9]+}}: error: use of undeclared identifier 'CONFIG_WARP'
// DEV: note: stubbed headers (--stub-missing-includes): config_missing.h; errors in device code are never tolerated
// DEV: port-kernel: no output written

//--- app.cu
#include <cstdio>
#include <mpi.h>
#include <gsl/span>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.f;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm comm = MPI_COMM_WORLD;
  MPI_Comm_rank(comm, &rank);
  float *d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  scale<<<1, 64>>>(d, 64);
  cudaFree(d);
  MPI_Finalize();
  return rank;
}
//--- device_use.cu
#include "config_missing.h"
__global__ void k(float *x) {
  x[threadIdx.x % CONFIG_WARP] = 0.f;
}
