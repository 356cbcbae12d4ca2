// CPU references of the kernels in main.cu, parallel with OpenMP as llm.c's are
// (nvcc -Xcompiler -fopenmp). Without OpenMP the pragmas are ignored and they
// run on one thread.
#pragma once
#ifdef _OPENMP
#include <omp.h>
#endif

// Also compiled for the device: the reference and the kernel share it, so the
// reference's threads make checked reads of a device (managed) buffer.
__host__ __device__ inline float gelu_at(const float* row, int c) {
  const float k = 0.7978845608f;  // sqrt(2 / pi)
  float x = row[c];
  return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
}

inline void row_gelu_sums_cpu(const float* in, float* out, int rows, int cols) {
#pragma omp parallel for
  for (int r = 0; r < rows; ++r) {
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += gelu_at(in + r * cols, c);
    out[r] = s;
  }
}

// How many threads a parallel region gets (1 without OpenMP).
inline int team_size() {
  int team = 1;
#pragma omp parallel
  {
#ifdef _OPENMP
#pragma omp single
    team = omp_get_num_threads();
#endif
  }
  return team;
}
