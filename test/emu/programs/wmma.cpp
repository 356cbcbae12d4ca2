// WMMA m16n16k16 fragment layout vs the mapping observed on sm_90, and mma_sync numerics.
// usage: wmma <path to wmma_m16n16k16_sm90_observed.txt>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
using namespace nvcuda;

// Element (r, c) of every source matrix holds the value r * 16 + c (exact in half).
__global__ void layout(const half* rowm, const half* colm, const float* accm, float* out) {
  unsigned lane = threadIdx.x;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_row;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a_col;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_row;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b_col;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::load_matrix_sync(a_row, rowm, 16);
  wmma::load_matrix_sync(a_col, colm, 16);
  wmma::load_matrix_sync(b_row, rowm, 16);
  wmma::load_matrix_sync(b_col, colm, 16);
  wmma::load_matrix_sync(c, accm, 16, wmma::mem_row_major);
  for (int i = 0; i < a_row.num_elements; ++i) {
    out[(0 * 32 + lane) * 16 + i] = __half2float(a_row.x[i]);
    out[(1 * 32 + lane) * 16 + i] = __half2float(a_col.x[i]);
    out[(2 * 32 + lane) * 16 + i] = __half2float(b_row.x[i]);
    out[(3 * 32 + lane) * 16 + i] = __half2float(b_col.x[i]);
  }
  for (int i = 0; i < c.num_elements; ++i) out[(4 * 32 + lane) * 16 + i] = c.x[i];
}

__global__ void gemm(const half* a, const half* b, const float* c, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_col_major);
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  half *rowm, *colm;
  float *accm, *out;
  cudaMallocManaged(&rowm, 256 * sizeof(half));
  cudaMallocManaged(&colm, 256 * sizeof(half));
  cudaMallocManaged(&accm, 256 * sizeof(float));
  cudaMallocManaged(&out, 5 * 32 * 16 * sizeof(float));
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) {
      rowm[r * 16 + c] = __float2half((float)(r * 16 + c));
      colm[c * 16 + r] = __float2half((float)(r * 16 + c));
      accm[r * 16 + c] = (float)(r * 16 + c);
    }
  pkemu::launch(layout, 1, 32, 0, 0, rowm, colm, accm, out);
  cudaDeviceSynchronize();
  std::ifstream f(argv[1]);
  std::string line;
  int checked = 0, bad = 0;
  const char* names[5] = {"A_row", "A_col", "B_row", "B_col", "C_f32"};
  while (std::getline(f, line)) {
    int kind = -1;
    for (int k = 0; k < 5; ++k)
      if (line.rfind(names[k], 0) == 0) kind = k;
    if (kind < 0) continue;
    int lane = std::atoi(line.c_str() + line.find("lane") + 4);
    std::istringstream is(line.substr(line.find(':') + 1));
    std::string tok;
    for (int i = 0; is >> tok; ++i) {
      int r = 0, c = 0;
      std::sscanf(tok.c_str(), "(%d,%d)", &r, &c);
      float got = out[(kind * 32 + lane) * 16 + i];
      ++checked;
      if (got != (float)(r * 16 + c) && bad++ < 10)
        printf("MISMATCH %s lane %d x[%d]: holds element (%d,%d), want (%d,%d)\n", names[kind], lane, i,
               (int)got / 16, (int)got % 16, r, c);
    }
  }
  printf("layout elements checked: %d\n", checked);

  half *a, *b;
  float *c, *d;
  cudaMallocManaged(&a, 256 * sizeof(half));
  cudaMallocManaged(&b, 256 * sizeof(half));
  cudaMallocManaged(&c, 256 * sizeof(float));
  cudaMallocManaged(&d, 256 * sizeof(float));
  for (int i = 0; i < 256; ++i) {
    a[i] = __float2half((float)((i * 7) % 11 - 5));
    b[i] = __float2half((float)((i * 5) % 13 - 6));
    c[i] = (float)(i % 9);
  }
  pkemu::launch(gemm, 1, 32, 0, 0, a, b, c, d);
  cudaDeviceSynchronize();
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      float s = c[i * 16 + j];
      for (int k = 0; k < 16; ++k) s += __half2float(a[i * 16 + k]) * __half2float(b[j * 16 + k]);  // b col-major
      if (d[j * 16 + i] != s && bad++ < 20) printf("MISMATCH D[%d][%d]=%g want %g\n", i, j, d[j * 16 + i], s);
    }
  printf(bad || checked != 32 * 16 * 4 + 32 * 8 ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
