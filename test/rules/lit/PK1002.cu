// PK1002: CUDA type names (runtime handles and structures, enum types,
// cuComplex.h types, __nv_bfloat16) become their HIP names wherever they are
// spelled: declarations, casts, template arguments, sizeof, typedefs.  Types
// spelled the same in HIP (dim3, float4, ...) are left alone.  The table
// holds ROCm 5's bfloat16 (--rocm-version=5; ROCm 6's is PK1016's), and the
// output's dependence on the version is a PK1016 note.
// RUN: rm -rf %t && %pk port -q --to hip --rocm-version=5 --report %t/r.json -o %t %s 2>&1 \
// RUN:   | not grep -v PK1016
// RUN: FileCheck %s --match-full-lines --input-file=%t/hip/PK1002.hip
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT:      "counts": {
// REPORT:        "PK1002": 14,
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuComplex.h>
#include <vector>

typedef cudaStream_t stream_handle;
// CHECK: typedef hipStream_t stream_handle;
// REPORT:      "line": [[@LINE-2]],
// REPORT-NEXT: "offset": {{[0-9]+}},
// REPORT-NEXT: "replacement": "hipStream_t",
// REPORT-NEXT: "rule": "PK1002",
// REPORT-NEXT: "why": "cudaStream_t -> hipStream_t"

struct DeviceInfo {
  cudaDeviceProp prop;
// CHECK:  hipDeviceProp_t prop;
  cudaFuncAttributes attrs;
// CHECK:  hipFuncAttributes attrs;
};

template <typename T> struct Buffer {
  T *ptr;
  enum cudaMemcpyKind kind;
// CHECK:  enum hipMemcpyKind kind;
};

__global__ void to_bf16(const float *in, __nv_bfloat16 *out, cuFloatComplex *z) {
// CHECK: __global__ void to_bf16(const float *in, hip_bfloat16 *out, hipFloatComplex *z) {
// REPORT:      "replacement": "hip_bfloat16",
// REPORT-NEXT: "rule": "PK1002",
// REPORT-NEXT: "why": "__nv_bfloat16 -> hip_bfloat16 (hip_bfloat16 is a struct with float conversion and arithmetic operators; the __bfloat16 intrinsics have no HIP 5.2.3 counterparts)"
  out[threadIdx.x] = __nv_bfloat16(in[threadIdx.x]);
// CHECK:  out[threadIdx.x] = hip_bfloat16(in[threadIdx.x]);
  z[threadIdx.x] = make_cuFloatComplex(in[threadIdx.x], 0.f);
}

size_t setup(std::vector<cudaEvent_t> &events, Buffer<cuDoubleComplex> &b) {
// CHECK: size_t setup(std::vector<hipEvent_t> &events, Buffer<hipDoubleComplex> &b) {
  cudaPointerAttributes attr;
// CHECK:  hipPointerAttribute_t attr;
// REPORT:      "replacement": "hipPointerAttribute_t",
// REPORT-NEXT: "rule": "PK1002",
// REPORT-NEXT: "why": "cudaPointerAttributes -> hipPointerAttribute_t (the memory kind field is memoryType in HIP (type in CUDA))"
  cudaError_t e = cudaPointerGetAttributes(&attr, b.ptr);
// CHECK:  hipError_t e = hipPointerGetAttributes(&attr, b.ptr);
  b.kind = (cudaMemcpyKind)1;
// CHECK:  b.kind = (hipMemcpyKind)1;
  dim3 grid(4);
// CHECK:  dim3 grid(4);
  float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
// CHECK:  float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
  (void)v; (void)grid; (void)e;
  return sizeof(cudaStream_t) + events.size() * sizeof(cudaEvent_t);
// CHECK:  return sizeof(hipStream_t) + events.size() * sizeof(hipEvent_t);
}
