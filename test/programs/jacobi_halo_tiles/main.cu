// Jacobi iterations for -lap(u) = f on a ragged 2-D grid (not a multiple of
// the tile), ping-ponging two buffers; the device iterates, the host repeats
// the same sweeps and compares the fields, the per-sweep changes and the
// residual.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "stencil.cuh"

static void jacobiHost(const Grid2D &g, const std::vector<float> &in, std::vector<float> &out,
                       const std::vector<float> &f) {
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      int p = g.at(i, j);
      float s = in[p - 1] + in[p + 1] + in[p - g.pitch()] + in[p + g.pitch()];
      out[p] = 0.25f * (s + g.h2 * f[p]);
    }
}

int main(int argc, char **argv) {
  Grid2D g;
  g.nx = 75;
  g.ny = 53;
  const int iters = argc > 1 ? atoi(argv[1]) : 40;
  const float h = 1.0f / (g.nx + 1);
  g.h2 = h * h;
  g.stride = g.nx + 2; // host layout; the device's comes from cudaMallocPitch
  const int total = (g.nx + 2) * (g.ny + 2);
  const size_t rowBytes = (g.nx + 2) * sizeof(float);

  std::vector<float> h_u(total, 0.0f), h_f(total, 0.0f);
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      float x = (i + 1) * h, y = (j + 1) * h;
      h_f[g.at(i, j)] = 8.0f * sinf(3.14159265f * x) * sinf(2.0f * 3.14159265f * y);
      h_u[g.at(i, j)] = 0.01f * ((i * 13 + j * 7) % 17);
    }

  dim3 block(BLOCK_X, BLOCK_Y);
  dim3 grid((g.nx + BLOCK_X - 1) / BLOCK_X, (g.ny + BLOCK_Y - 1) / BLOCK_Y);
  const int nBlocks = grid.x * grid.y;

  // Pitched device rows; every array gets the same pitch.
  float *d_u[2], *d_f, *d_max, *d_r, *d_globalMax;
  size_t pitchBytes = 0, p2 = 0;
  checkCudaErrors(cudaMallocPitch(&d_u[0], &pitchBytes, rowBytes, g.ny + 2));
  for (float **p : {&d_u[1], &d_f, &d_r}) {
    checkCudaErrors(cudaMallocPitch(p, &p2, rowBytes, g.ny + 2));
    if (p2 != pitchBytes) {
      fprintf(stderr, "pitches differ\n");
      return EXIT_FAILURE;
    }
  }
  Grid2D dg = g;
  dg.stride = (int)(pitchBytes / sizeof(float));
  for (int k = 0; k < 2; ++k)
    checkCudaErrors(cudaMemcpy2D(d_u[k], pitchBytes, h_u.data(), rowBytes, rowBytes, g.ny + 2,
                                 cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy2D(d_f, pitchBytes, h_f.data(), rowBytes, rowBytes, g.ny + 2,
                               cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset2D(d_r, pitchBytes, 0, rowBytes, g.ny + 2));
  checkCudaErrors(cudaMalloc(&d_max, nBlocks * sizeof(float)));
  checkCudaErrors(cudaMalloc(&d_globalMax, sizeof(float)));

  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start, 0));

  std::vector<float> ref[2] = {h_u, h_u};
  std::vector<float> blockMax(nBlocks);
  bool ok = true;
  int cur = 0;
  for (int it = 0; it < iters; ++it) {
    jacobiSweep<BLOCK_X, BLOCK_Y><<<grid, block>>>(dg, d_u[cur], d_u[1 - cur], d_f);
    getLastCudaError("jacobiSweep");
    checkCudaErrors(cudaMemset(d_globalMax, 0, sizeof(float)));
    maxChange<BLOCK_X, BLOCK_Y><<<grid, block>>>(dg, d_u[cur], d_u[1 - cur], d_max, d_globalMax);
    getLastCudaError("maxChange");
    checkCudaErrors(cudaMemcpy(blockMax.data(), d_max, nBlocks * sizeof(float),
                               cudaMemcpyDeviceToHost));
    float change = *std::max_element(blockMax.begin(), blockMax.end());
    float atomicChange = -1.0f;
    checkCudaErrors(cudaMemcpy(&atomicChange, d_globalMax, sizeof(float), cudaMemcpyDeviceToHost));
    if (atomicChange != change) {
      printf("sweep %d: atomic max %g, block maxima %g\n", it, atomicChange, change);
      ok = false;
      break;
    }

    jacobiHost(g, ref[cur], ref[1 - cur], h_f);
    float want = 0.0f;
    for (int p = 0; p < total; ++p)
      want = std::max(want, std::fabs(ref[1 - cur][p] - ref[cur][p]));
    if (std::fabs(change - want) > 1e-5f + 1e-3f * want) {
      printf("sweep %d: max change %g, expected %g\n", it, change, want);
      ok = false;
      break;
    }
    cur = 1 - cur;
  }

  residual<<<grid, block>>>(dg, d_u[cur], d_f, d_r);
  getLastCudaError("residual");
  checkCudaErrors(cudaEventRecord(stop, 0));
  checkCudaErrors(cudaEventSynchronize(stop));
  float ms = 0.0f;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  std::vector<float> u(total), r(total);
  checkCudaErrors(cudaMemcpy2D(u.data(), rowBytes, d_u[cur], pitchBytes, rowBytes, g.ny + 2,
                               cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy2D(r.data(), rowBytes, d_r, pitchBytes, rowBytes, g.ny + 2,
                               cudaMemcpyDeviceToHost));

  double maxErr = 0.0, rnorm = 0.0, rnormRef = 0.0;
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      int p = g.at(i, j);
      maxErr = std::max(maxErr, (double)std::fabs(u[p] - ref[cur][p]));
      const std::vector<float> &v = ref[cur];
      double lap = v[p - 1] + v[p + 1] + v[p - g.pitch()] + v[p + g.pitch()] - 4.0 * v[p];
      double rr = h_f[p] + lap / g.h2;
      rnorm += (double)r[p] * r[p];
      rnormRef += rr * rr;
    }
  rnorm = std::sqrt(rnorm);
  rnormRef = std::sqrt(rnormRef);
  // The boundary ring must be untouched.
  for (int i = 0; i < g.nx + 2; ++i)
    if (u[i] != 0.0f || u[(g.ny + 1) * g.pitch() + i] != 0.0f)
      ok = false;
  printf("%d sweeps on %d x %d (pitch %d floats) in %.2f ms: max |u - u_ref| = %.3g, "
         "|r| = %.5g (host %.5g)\n",
         iters, g.nx, g.ny, dg.stride, ms, maxErr, rnorm, rnormRef);
  if (maxErr > 1e-5 || std::fabs(rnorm - rnormRef) > 1e-2 * rnormRef)
    ok = false;

  for (int k = 0; k < 2; ++k)
    checkCudaErrors(cudaFree(d_u[k]));
  checkCudaErrors(cudaFree(d_f));
  checkCudaErrors(cudaFree(d_r));
  checkCudaErrors(cudaFree(d_max));
  checkCudaErrors(cudaFree(d_globalMax));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
