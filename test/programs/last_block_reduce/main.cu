// Single-pass reduction with a last-block ticket (atomicInc) run twice
// without resetting the counter, and a ring of slots handed out by atomicDec;
// checked on the host.
#include <cmath>
#include <cstdio>
#include <vector>

#include "reduce.cuh"

int main() {
  const unsigned int n = 1 << 16;
  const int grids[2] = {48, 37};
  std::vector<float> h(n);
  double ref = 0.0;
  for (unsigned int i = 0; i < n; ++i) {
    h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
    ref += h[i];
  }
  float *in, *partial, *out;
  cudaMalloc((void **)&in, n * sizeof(float));
  cudaMalloc((void **)&partial, 64 * sizeof(float));
  cudaMalloc((void **)&out, sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int failures = 0;
  for (int g : grids) {
    cudaMemset(out, 0, sizeof(float));
    reduceSinglePass<BLOCK><<<g, BLOCK>>>(in, partial, out, n);
    float got = 0.0f;
    cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost);
    bool ok = fabs(got - ref) < 1e-2;
    printf("grid %d: sum %.4f (host %.4f) %s\n", g, got, ref, ok ? "ok" : "WRONG");
    failures += !ok;
  }
  // 20 blocks take slots of a ring of 8, counting down from 7 and wrapping.
  unsigned int *head;
  int *owner;
  cudaMalloc((void **)&head, sizeof(unsigned int));
  cudaMalloc((void **)&owner, 8 * sizeof(int));
  cudaMemset(head, 0, sizeof(unsigned int));
  cudaMemset(owner, 0, 8 * sizeof(int));
  ringSlots<<<20, 32>>>(head, owner, 8);
  int hostOwner[8];
  unsigned int hostHead = 0;
  cudaMemcpy(hostOwner, owner, sizeof hostOwner, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hostHead, head, sizeof hostHead, cudaMemcpyDeviceToHost);
  // From 0, atomicDec returns 0 and wraps the head to 7, then draws 7, 6, ...:
  // 20 draws take slot 0 and 7..5 three times, 4..1 twice; the head ends at 4.
  bool ringOk = hostHead == 4;
  for (int s = 0; s < 8; ++s) ringOk &= hostOwner[s] == (s == 0 || s >= 5 ? 3 : 2);
  printf("ring: head %u, owners %d %d %d %d %d %d %d %d %s\n", hostHead, hostOwner[0],
         hostOwner[1], hostOwner[2], hostOwner[3], hostOwner[4], hostOwner[5], hostOwner[6],
         hostOwner[7], ringOk ? "ok" : "WRONG");
  failures += !ringOk;
  cudaFree(in);
  cudaFree(partial);
  cudaFree(out);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
