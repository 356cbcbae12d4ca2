// PK6006: warp-synchronous code that port cannot make safe by itself is
// reported and left as written.
// RUN: rm -rf %t && %pk port -q --to cuda -o %t %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --match-full-lines --input-file=%t/cuda/PK6006.cu

__device__ void tail(volatile float *s, int tid) {
  s[tid] += s[tid + 16];
// CHECK:  s[tid] += s[tid + 16];
// DIAG: PK6006.cu:[[@LINE-2]]:3: warning: 's[tid] += s[tid + 16]' reads another lane's volatile shared-memory slot and writes its own with no __syncwarp: {{.*}}the lanes that run it are not known {{.*}} [PK6006]
}

__global__ void cross(float *g, const int *idx) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = g[tid];
  g[tid] = s[(tid + 1) % 256];
// CHECK:  g[tid] = s[(tid + 1) % 256];
// DIAG: PK6006.cu:[[@LINE-2]]:12: warning: 's[(tid + 1) % 256]' reads a slot of 's' that a thread of another warp writes ('s[tid]') with no __syncthreads() between: {{.*}} [PK6006]
  __syncthreads();
  s[idx[tid]] = 1.f;
  g[tid] += s[tid];
// DIAG: PK6006.cu:[[@LINE-1]]:13: warning: 's[tid]' reads shared memory ('s') written by 's[idx[tid]]' with no barrier between; {{.*}} [PK6006]
  if (g[tid] > 0.f)
    tail(s, tid);
}
