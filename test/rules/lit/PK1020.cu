// PK1020: the headers of the CUDA math libraries name the ROCm library
// headers (hipBLAS, hipRAND, hipCUB); cuBLASLt has none and stays, flagged
// (PK1010).  ({{hip}} keeps the expected lines from reading as HIP includes.)
// RUN: rm -rf %t && %pk port -q --cuda-path=none --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1020.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "PK1020": 4
#include <cuda_runtime.h>
#include <cublas_v2.h>
// CHECK: #include <{{hip}}blas/hipblas.h>
#include <curand.h>
// CHECK: #include <{{hip}}rand/hiprand.h>
#include <curand_kernel.h>
// CHECK: #include <{{hip}}rand/hiprand_kernel.h>
#include <cub/cub.cuh>
// CHECK: #include <{{hip}}cub/hipcub.hpp>
