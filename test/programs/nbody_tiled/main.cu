// A few n-body steps on 300 bodies (not a multiple of the 128-body tile),
// checked against an all-pairs host integration in double precision.
#include <cmath>
#include <cstdio>
#include <vector>

#include "bodysystem.cuh"

static void hostStep(std::vector<double> &p, std::vector<double> &v, const std::vector<float> &m,
                     int n, const NBodyParams &prm) {
  std::vector<double> a(3 * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double r[3], d2 = prm.softeningSquared;
      for (int c = 0; c < 3; ++c) {
        r[c] = p[3 * j + c] - p[3 * i + c];
        d2 += r[c] * r[c];
      }
      double inv = 1.0 / std::sqrt(d2);
      double s = m[j] * inv * inv * inv;
      for (int c = 0; c < 3; ++c)
        a[3 * i + c] += r[c] * s;
    }
  for (int i = 0; i < 3 * n; ++i) {
    v[i] = (v[i] + a[i] * prm.dt) * prm.damping;
    p[i] += v[i] * prm.dt;
  }
}

int main() {
  const int n = 300, blockSize = 128, steps = 3;
  const int numBlocks = (n + blockSize - 1) / blockSize;
  NBodyParams prm = {0.01f, 0.995f, 0.005f};

  std::vector<float4> hPos(n), hVel(n);
  std::vector<double> p(3 * n), v(3 * n);
  std::vector<float> mass(n);
  unsigned seed = 2024u;
  auto frand = [&seed]() {
    seed = seed * 1103515245u + 12345u;
    return ((seed >> 9) & 0x3fff) / 16384.0f * 2.0f - 1.0f;
  };
  for (int i = 0; i < n; ++i) {
    float x = frand(), y = frand(), z = frand() * 0.3f;
    mass[i] = 0.5f + 0.5f * (frand() + 1.0f) / (float)n;
    hPos[i] = make_float4(x, y, z, mass[i]);
    hVel[i] = make_float4(-y * 0.2f, x * 0.2f, 0.0f, 0.0f);
    p[3 * i] = x; p[3 * i + 1] = y; p[3 * i + 2] = z;
    v[3 * i] = hVel[i].x; v[3 * i + 1] = hVel[i].y; v[3 * i + 2] = 0.0;
  }

  float4 *dPos, *dVel;
  float3 *dAcc;
  float *dEnergy;
  gpuErrchk(cudaMalloc(&dPos, n * sizeof(float4)));
  gpuErrchk(cudaMalloc(&dVel, n * sizeof(float4)));
  gpuErrchk(cudaMalloc(&dAcc, n * sizeof(float3)));
  gpuErrchk(cudaMalloc(&dEnergy, numBlocks * sizeof(float)));
  gpuErrchk(cudaMemcpy(dPos, hPos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  gpuErrchk(cudaMemcpy(dVel, hVel.data(), n * sizeof(float4), cudaMemcpyHostToDevice));

  cudaDeviceProp prop;
  int dev = 0;
  gpuErrchk(cudaGetDevice(&dev));
  gpuErrchk(cudaGetDeviceProperties(&prop, dev));
  printf("device %d: %s, %d SMs, warp size %d\n", dev, prop.name, prop.multiProcessorCount,
         prop.warpSize);
  const size_t sharedBytes = blockSize * sizeof(float4);
  for (int s = 0; s < steps; ++s) {
    computeForces<<<numBlocks, blockSize, sharedBytes>>>(dPos, dAcc, n, prm.softeningSquared);
    gpuErrchk(cudaPeekAtLastError());
    integrateBodies<<<numBlocks, blockSize>>>(dPos, dVel, dAcc, n, prm);
    gpuErrchk(cudaPeekAtLastError());
    hostStep(p, v, mass, n, prm);
  }
  kineticEnergy<<<numBlocks, blockSize>>>(dPos, dVel, dEnergy, n);
  gpuErrchk(cudaPeekAtLastError());
  gpuErrchk(cudaDeviceSynchronize());

  std::vector<float> energy(numBlocks);
  gpuErrchk(cudaMemcpy(hPos.data(), dPos, n * sizeof(float4), cudaMemcpyDeviceToHost));
  gpuErrchk(cudaMemcpy(hVel.data(), dVel, n * sizeof(float4), cudaMemcpyDeviceToHost));
  gpuErrchk(cudaMemcpy(energy.data(), dEnergy, numBlocks * sizeof(float), cudaMemcpyDeviceToHost));

  double maxPosErr = 0.0, maxVelErr = 0.0, eGpu = 0.0, eRef = 0.0;
  for (int i = 0; i < n; ++i) {
    const float gp[3] = {hPos[i].x, hPos[i].y, hPos[i].z};
    const float gv[3] = {hVel[i].x, hVel[i].y, hVel[i].z};
    for (int c = 0; c < 3; ++c) {
      maxPosErr = std::fmax(maxPosErr, std::fabs(gp[c] - p[3 * i + c]));
      maxVelErr = std::fmax(maxVelErr, std::fabs(gv[c] - v[3 * i + c]));
    }
    eRef += 0.5 * mass[i] * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] +
                             v[3 * i + 2] * v[3 * i + 2]);
    if (hPos[i].w != mass[i])
      maxPosErr = 1e9; // the mass must ride along untouched
  }
  for (float e : energy)
    eGpu += e;
  const bool ok = maxPosErr < 1e-4 && maxVelErr < 2e-3 && std::fabs(eGpu - eRef) < 1e-3 * eRef;
  printf("n = %d, %d steps: max |dx| = %.3g, max |dv| = %.3g, E_kin = %.6f (host %.6f)\n", n,
         steps, maxPosErr, maxVelErr, eGpu, eRef);

  gpuErrchk(cudaFree(dPos));
  gpuErrchk(cudaFree(dVel));
  gpuErrchk(cudaFree(dAcc));
  gpuErrchk(cudaFree(dEnergy));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
