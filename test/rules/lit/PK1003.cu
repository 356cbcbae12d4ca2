// PK1003: #include directives of CUDA toolkit headers name the HIP headers
// that declare the same API, keeping <...> or "..."; an entry without a HIP
// header (device_launch_parameters.h) removes the directive.  Other headers
// stay as written.  ({{hip}} in the expected lines keeps them from reading
// as HIP includes, which would make this file HIP input.)
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | count 0
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1003.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT-NEXT:   "PK1003": 5
// REPORT-NEXT: },
#include <cuda_runtime.h>
// CHECK: #include <{{hip}}/hip_runtime.h>
// CHECK-NOT: {{^}}#include <device_launch_parameters.h>
#include <device_launch_parameters.h>
// REPORT:      "line": [[@LINE-1]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "",
// REPORT-NEXT: "rule": "PK1003",
// REPORT-NEXT: "why": "<device_launch_parameters.h> is not needed on the target"
#include <cuda_fp16.h>
// CHECK: #include <{{hip}}/hip_fp16.h>
#include <cooperative_groups.h>
// CHECK: #include <{{hip}}/hip_cooperative_groups.h>
#include "cuComplex.h"
// CHECK: #include "{{hip}}/hip_complex.h"
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "{{hip}}/hip_complex.h",
// REPORT-NEXT: "rule": "PK1003",
// REPORT-NEXT: "why": "<cuComplex.h> -> <{{hip}}/hip_complex.h>"
#include <cstdio>
// CHECK: #include <cstdio>
#include <vector>
// CHECK: #include <vector>

__global__ void half_copy(const __half *in, __half *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
