// PK1030: Thrust ports to rocThrust: its headers and algorithms keep their
// names (no finding), the CUDA system's names become the HIP system's
// (thrust::cuda::par, thrust::system::cuda, thrust::cuda_cub,
// THRUST_DEVICE_SYSTEM_CUDA), and <thrust/system/cuda/*.h> the HIP system's
// headers (PK1020).
// RUN: rm -rf %t && %pk port -q --to hip --report %t/r.json -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1030.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1030",
// REPORT-NEXT: "why": "THRUST_DEVICE_SYSTEM_CUDA -> THRUST_DEVICE_SYSTEM_HIP: the device system of a rocThrust build is HIP, so the branch that was translated is kept"
// DIAG-NOT: {{warning|error}}
#include <thrust/device_vector.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/execution_policy.h>
#include <thrust/system/cuda/execution_policy.h>
// CHECK: #include <thrust/device_vector.h>
// CHECK: #include <thrust/execution_policy.h>
// CHECK-NEXT: #include <thrust/system/hip/execution_policy.h>
#include <cstdio>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
// CHECK: #if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_HIP
#define ON_DEVICE 1
#else
#define ON_DEVICE 0
#endif

struct Sorter {
  int thrust; // a member of that name is not Thrust's namespace
};

int sorted_sum(cudaStream_t stream, int n) {
  thrust::device_vector<int> v(n);
  thrust::sequence(v.begin(), v.end());
  thrust::sort(thrust::cuda::par.on(stream), v.begin(), v.end(), thrust::greater<int>());
// CHECK:  thrust::sort(thrust::hip::par.on(stream), v.begin(), v.end(), thrust::greater<int>());
  auto nosync = thrust::cuda::par_nosync.on(stream);
// CHECK:  auto nosync = thrust::hip::par_nosync.on(stream);
  thrust::system::cuda::detail::par_t policy;
// CHECK:  thrust::system::hip::detail::par_t policy;
  (void)policy;
  Sorter s{ON_DEVICE};
  return thrust::reduce(nosync, v.begin(), v.end()) + s.thrust;
// CHECK:  return thrust::reduce(nosync, v.begin(), v.end()) + s.thrust;
}
