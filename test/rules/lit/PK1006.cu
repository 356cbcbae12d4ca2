// PK1006: local headers are translated too and get the target's file names
// (foo.cuh -> foo.hpp for HIP, foo.hiph -> foo.cuh for CUDA); the
// #include "..." directives that name them are rewritten to match, so the
// output tree builds as it is, also when a header is found through an -I
// directory of the program (#include <detail/config.cuh> below).  System
// headers are not touched by this rule.
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s \
// RUN:   --extra-arg=-I%S/Inputs/PK1006 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1006.hip
// RUN: FileCheck %s --match-full-lines --check-prefix=HDR \
// RUN:   --input-file=%t/hip/Inputs/PK1006/block_reduce.hpp
// RUN: ls %t/hip/Inputs/PK1006/detail/config.hpp
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
//
// HIP input back to CUDA: reduce.hip includes wave_utils.hiph.
// RUN: %pk port -q --to cuda --report %t/back.json -o %t/back \
// RUN:   %S/Inputs/PK1006/hip/reduce.hip 2>&1 | count 0
// RUN: FileCheck %s --match-full-lines --check-prefix=BACK \
// RUN:   --input-file=%t/back/cuda/reduce.cu
// RUN: ls %t/back/cuda/wave_utils.cuh
// RUN: FileCheck %s --check-prefix=BACK-REPORT --input-file=%t/back.json
// BACK: #include "wave_utils.cuh"
// BACK-REPORT:      "replacement": "wave_utils.cuh",
// BACK-REPORT-NEXT: "rule": "PK1006",
// BACK-REPORT-NEXT: "why": "local header wave_utils.hiph is translated to wave_utils.cuh"
//
// The included header's own local include is rewritten in its output.
// HDR: #include "detail/config.hpp"
// REPORT:      "counts": {
// REPORT:        "PK1006": 3
// REPORT:      "replacement": "detail/config.hpp",
// REPORT-NEXT: "rule": "PK1006",
// REPORT-NEXT: "why": "local header detail/config.cuh is translated to detail/config.hpp"
#include <cuda_runtime.h>
#include <vector>
// CHECK: #include <vector>
#include "Inputs/PK1006/block_reduce.cuh"
// CHECK: #include "Inputs/PK1006/block_reduce.hpp"
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "Inputs/PK1006/block_reduce.hpp",
// REPORT-NEXT: "rule": "PK1006",
// REPORT-NEXT: "why": "local header Inputs/PK1006/block_reduce.cuh is translated to Inputs/PK1006/block_reduce.hpp"
#include <detail/config.cuh>
// CHECK: #include <detail/config.hpp>
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "detail/config.hpp",
// REPORT-NEXT: "rule": "PK1006",

__global__ void row_sums(const float *in, float *out) {
  __shared__ float scratch[REDUCE_BLOCK];
  float s = block_sum(in[blockIdx.x * blockDim.x + threadIdx.x], scratch);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}
