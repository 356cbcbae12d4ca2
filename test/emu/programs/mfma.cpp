// MFMA builtins vs AMD's lane tables (f16 shapes, from CSV) and the documented formulas
// (bf16_1k and f32 shapes). usage: mfma <data dir>
#include <hip/hip_runtime.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

typedef _Float16 half4_t __attribute__((ext_vector_type(4)));
typedef short bf16x4_t __attribute__((ext_vector_type(4)));
typedef float float4_t __attribute__((ext_vector_type(4)));
typedef float float16_t __attribute__((ext_vector_type(16)));

enum Shape { F16_16, F16_32, BF16_16, BF16_32, F32_16, F32_32 };

__host__ __device__ static unsigned short bf16_bits(float f) {  // exact for the small integers used here
  unsigned u;
  memcpy(&u, &f, 4);
  return (unsigned short)(u >> 16);
}

// in: per lane 4 A elements, 4 B elements, 16 C values; out: 16 D values per lane.
__global__ void run(int shape, const float* ain, const float* bin, const float* cin, float* dout) {
  int L = threadIdx.x;
  const float* a = ain + 4 * L;
  const float* b = bin + 4 * L;
  const float* c = cin + 16 * L;
  float* d = dout + 16 * L;
  if (shape == F16_16 || shape == F16_32) {
    half4_t va = {(_Float16)a[0], (_Float16)a[1], (_Float16)a[2], (_Float16)a[3]};
    half4_t vb = {(_Float16)b[0], (_Float16)b[1], (_Float16)b[2], (_Float16)b[3]};
    if (shape == F16_16) {
      float4_t vc = {c[0], c[1], c[2], c[3]};
      float4_t r = __builtin_amdgcn_mfma_f32_16x16x16f16(va, vb, vc, 0, 0, 0);
      for (int i = 0; i < 4; ++i) d[i] = r[i];
    } else {
      float16_t vc;
      for (int i = 0; i < 16; ++i) vc[i] = c[i];
      float16_t r = __builtin_amdgcn_mfma_f32_32x32x8f16(va, vb, vc, 0, 0, 0);
      for (int i = 0; i < 16; ++i) d[i] = r[i];
    }
  } else if (shape == BF16_16 || shape == BF16_32) {
    bf16x4_t va, vb;
    for (int i = 0; i < 4; ++i) {
      va[i] = (short)bf16_bits(a[i]);
      vb[i] = (short)bf16_bits(b[i]);
    }
    if (shape == BF16_16) {
      float4_t vc = {c[0], c[1], c[2], c[3]};
      float4_t r = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(va, vb, vc, 0, 0, 0);
      for (int i = 0; i < 4; ++i) d[i] = r[i];
    } else {
      float16_t vc;
      for (int i = 0; i < 16; ++i) vc[i] = c[i];
      float16_t r = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(va, vb, vc, 0, 0, 0);
      for (int i = 0; i < 16; ++i) d[i] = r[i];
    }
  } else if (shape == F32_16) {
    float4_t vc = {c[0], c[1], c[2], c[3]};
    float4_t r = __builtin_amdgcn_mfma_f32_16x16x4f32(a[0], b[0], vc, 0, 0, 0);
    for (int i = 0; i < 4; ++i) d[i] = r[i];
  } else {
    float16_t vc;
    for (int i = 0; i < 16; ++i) vc[i] = c[i];
    float16_t r = __builtin_amdgcn_mfma_f32_32x32x2f32(a[0], b[0], vc, 0, 0, 0);
    for (int i = 0; i < 16; ++i) d[i] = r[i];
  }
}

__global__ void bad_modifier(float* dout) {
  float4_t vc = {0, 0, 0, 0};
  float4_t r = __builtin_amdgcn_mfma_f32_16x16x4f32(1.0f, 1.0f, vc, 1, 0, 0);
  dout[threadIdx.x] = r[0];
}

struct Coord { int i, j; };
struct Layout {
  int M, K, KE, NR;
  std::vector<std::vector<Coord>> a, b, d;  // [lane][element] -> (row, col)
};

// Parse "lane,X[i][j],..." rows of AMD's matrix instruction calculator output.
static bool read_csv(const std::string& path, std::vector<std::vector<Coord>>& t) {
  std::ifstream f(path);
  if (!f) return false;
  std::string line;
  t.assign(64, {});
  int rows = 0;
  while (std::getline(f, line)) {
    if (line.empty() || !isdigit((unsigned char)line[0])) continue;
    int lane = atoi(line.c_str());
    size_t p = line.find(',');
    while (p != std::string::npos) {
      Coord c{};
      if (sscanf(line.c_str() + p + 1, "%*c[%d][%d]", &c.i, &c.j) == 2) t[lane].push_back(c);
      p = line.find(',', p + 1);
    }
    ++rows;
  }
  return rows == 64;
}

// matrix-cores.md: A[i][k] at L = i + M*(k/KE), e = k%KE; B[k][j] likewise;
// C/D[i][j] at L = j + M*((i/4) % (64/M)), r = 4*(i/8)... written in the inverse form:
// lane L register r holds D[8*(r/4) + 4*(L/M) + r%4][L%M].
static Layout formula(int M, int K, int KE, int NR) {
  Layout l{M, K, KE, NR, {}, {}, {}};
  l.a.assign(64, {});
  l.b.assign(64, {});
  l.d.assign(64, {});
  for (int L = 0; L < 64; ++L) {
    for (int e = 0; e < KE; ++e) {
      l.a[L].push_back({L % M, KE * (L / M) + e});  // (i, k)
      l.b[L].push_back({KE * (L / M) + e, L % M});  // (k, j)
    }
    for (int r = 0; r < NR; ++r) l.d[L].push_back({8 * (r / 4) + 4 * (L / M) + r % 4, L % M});
  }
  return l;
}

static int check(const char* name, int shape, const Layout& l, float* ain, float* bin, float* cin, float* dout) {
  int M = l.M, K = l.K, bad = 0;
  std::vector<float> A(M * K), B(K * M), C(M * M);
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < K; ++k) A[i * K + k] = pass ? (float)((i * K + k) % 251 + 1) : 0.f;
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < M; ++j) B[k * M + j] = pass ? (float)((k * M + j) % 241 + 1) : 0.f;
    for (int i = 0; i < M * M; ++i) C[i] = (float)(i + 1);
    for (int L = 0; L < 64; ++L) {
      for (int e = 0; e < l.KE; ++e) {
        ain[4 * L + e] = A[l.a[L][e].i * K + l.a[L][e].j];
        bin[4 * L + e] = B[l.b[L][e].i * M + l.b[L][e].j];
      }
      for (int r = 0; r < l.NR; ++r) cin[16 * L + r] = C[l.d[L][r].i * M + l.d[L][r].j];
    }
    hipLaunchKernelGGL(run, dim3(1), dim3(64), 0, 0, shape, ain, bin, cin, dout);
    hipDeviceSynchronize();
    for (int L = 0; L < 64; ++L)
      for (int r = 0; r < l.NR; ++r) {
        int i = l.d[L][r].i, j = l.d[L][r].j;
        float want = C[i * M + j];
        for (int k = 0; k < K; ++k) want += A[i * K + k] * B[k * M + j];
        if (dout[16 * L + r] != want && bad++ < 5)
          printf("MISMATCH %s pass %d lane %d reg %d (D[%d][%d]): got %g want %g\n", name, pass, L, r, i, j,
                 dout[16 * L + r], want);
      }
  }
  printf("%s: %s\n", name, bad ? "FAIL" : "ok");
  return bad;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::string dir = argv[1];
  float *ain, *bin, *cin, *dout;
  hipMallocManaged((void**)&ain, 64 * 4 * sizeof(float));
  hipMallocManaged((void**)&bin, 64 * 4 * sizeof(float));
  hipMallocManaged((void**)&cin, 64 * 16 * sizeof(float));
  hipMallocManaged((void**)&dout, 64 * 16 * sizeof(float));
  if (argc > 2 && std::string(argv[2]) == "modifier") {
    hipLaunchKernelGGL(bad_modifier, dim3(1), dim3(64), 0, 0, dout);
    return 0;
  }
  int bad = 0;
  const char* f16[2] = {"16x16x16f16", "32x32x8f16"};
  for (int s = 0; s < 2; ++s) {
    Layout l{s ? 32 : 16, s ? 8 : 16, 4, s ? 16 : 4, {}, {}, {}};
    std::string base = dir + "/layout_v_mfma_f32_" + f16[s];
    if (!read_csv(base + "_A.csv", l.a) || !read_csv(base + "_B.csv", l.b) || !read_csv(base + "_D.csv", l.d)) {
      printf("cannot read %s_*.csv\n", base.c_str());
      return 1;
    }
    // The CSV names A[i][k] and B[k][j]: same (row, col) convention as Layout.
    bad += check(f16[s], s ? F16_32 : F16_16, l, ain, bin, cin, dout);
  }
  bad += check("16x16x16bf16_1k", BF16_16, formula(16, 16, 4, 4), ain, bin, cin, dout);
  bad += check("32x32x8bf16_1k", BF16_32, formula(32, 8, 4, 16), ain, bin, cin, dout);
  bad += check("16x16x4f32", F32_16, formula(16, 4, 1, 4), ain, bin, cin, dout);
  bad += check("32x32x2f32", F32_32, formula(32, 2, 1, 16), ain, bin, cin, dout);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad ? 1 : 0;
}
