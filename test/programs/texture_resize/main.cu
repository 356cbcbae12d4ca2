// Texture-based resampling: resize an RGBA8 image, blur a float image, map values through
// a lookup table; each result is checked against a host computation of the same formulas.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "resample.cuh"

#define CHECK(call)                                                                  \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                         \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));   \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

static float frac8(float f) { return std::nearbyint(f * 256.0f) / 256.0f; }
static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

int main() {
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int failures = 0;

  // 1. Resize a 37x23 RGBA8 image to 50x31 with bilinear filtering.
  const ImageSize in{37, 23}, out{50, 31};
  std::vector<uchar4> img(in.width * in.height);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x)
      img[y * in.width + x] = make_uchar4((x * 7) & 255, (y * 11) & 255, (x * y) & 255, 255);
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &fmt, in.width, in.height));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), in.width * sizeof(uchar4),
                            in.width * sizeof(uchar4), in.height, cudaMemcpyHostToDevice));
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.normalizedCoords = 1;
  cudaTextureObject_t imgTex;
  CHECK(cudaCreateTextureObject(&imgTex, &res, &td, nullptr));
  float4 *dResized;
  CHECK(cudaMalloc(&dResized, out.width * out.height * sizeof(float4)));
  resizeRgba(imgTex, dResized, out, stream);
  std::vector<float4> resized(out.width * out.height);
  CHECK(cudaMemcpyAsync(resized.data(), dResized, resized.size() * sizeof(float4),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  auto texel = [&](int x, int y, int c) {
    const uchar4 &p = img[clampi(y, 0, in.height - 1) * in.width + clampi(x, 0, in.width - 1)];
    unsigned char v = c == 0 ? p.x : c == 1 ? p.y : c == 2 ? p.z : p.w;
    return (float)(v / 255.0);
  };
  int bad = 0;
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      float u = (x + 0.5f) / out.width * in.width - 0.5f;
      float v = (y + 0.5f) / out.height * in.height - 0.5f;
      int i = (int)std::floor(u), j = (int)std::floor(v);
      float a = frac8(u - std::floor(u)), b = frac8(v - std::floor(v));
      const float4 &g = resized[y * out.width + x];
      const float got[4] = {g.x, g.y, g.z, g.w};
      for (int c = 0; c < 4; ++c) {
        float want = 0.0f;
        want += (1 - a) * (1 - b) * texel(i, j, c);
        want += a * (1 - b) * texel(i + 1, j, c);
        want += (1 - a) * b * texel(i, j + 1, c);
        want += a * b * texel(i + 1, j + 1, c);
        if (std::fabs(got[c] - want) > 1e-5f) ++bad;  // filtering precision of real hardware
      }
    }
  printf("resize %dx%d -> %dx%d: %d wrong\n", in.width, in.height, out.width, out.height, bad);
  failures += bad;

  // 2. 3x3 box blur of a float image in pitched memory.
  const ImageSize fs{40, 24};
  std::vector<float> f(fs.width * fs.height);
  for (int i = 0; i < (int)f.size(); ++i) f[i] = (float)((i * 37) % 101) / 4.0f;
  float *pitched;
  size_t pitch;
  CHECK(cudaMallocPitch((void **)&pitched, &pitch, fs.width * sizeof(float), fs.height));
  CHECK(cudaMemcpy2D(pitched, pitch, f.data(), fs.width * sizeof(float), fs.width * sizeof(float),
                     fs.height, cudaMemcpyHostToDevice));
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = pitched;
  res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  res.res.pitch2D.width = fs.width;
  res.res.pitch2D.height = fs.height;
  res.res.pitch2D.pitchInBytes = pitch;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t fTex;
  CHECK(cudaCreateTextureObject(&fTex, &res, &td, nullptr));
  float *dBlur;
  CHECK(cudaMalloc(&dBlur, f.size() * sizeof(float)));
  boxBlur(fTex, dBlur, fs, stream);
  std::vector<float> blur(f.size());
  CHECK(cudaMemcpy(blur.data(), dBlur, blur.size() * sizeof(float), cudaMemcpyDeviceToHost));
  bad = 0;
  for (int y = 0; y < fs.height; ++y)
    for (int x = 0; x < fs.width; ++x) {
      float sum = 0.0f;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          sum += f[clampi(y + dy, 0, fs.height - 1) * fs.width + clampi(x + dx, 0, fs.width - 1)];
      if (blur[y * fs.width + x] != sum / 9.0f) ++bad;
    }
  printf("box blur %dx%d: %d wrong\n", fs.width, fs.height, bad);
  failures += bad;

  // 3. A lookup table in linear memory.
  const int lutSize = 256, n = 5000;
  std::vector<int> lut(lutSize), src(n), mapped(n);
  for (int i = 0; i < lutSize; ++i) lut[i] = (i * i) % 1009;
  for (int i = 0; i < n; ++i) src[i] = (i * 131) % lutSize;
  int *dLut, *dSrc, *dDst;
  CHECK(cudaMalloc(&dLut, lutSize * sizeof(int)));
  CHECK(cudaMalloc(&dSrc, n * sizeof(int)));
  CHECK(cudaMalloc(&dDst, n * sizeof(int)));
  CHECK(cudaMemcpy(dLut, lut.data(), lutSize * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dSrc, src.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = dLut;
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = lutSize * sizeof(int);
  memset(&td, 0, sizeof td);
  cudaTextureObject_t lutTex;
  CHECK(cudaCreateTextureObject(&lutTex, &res, &td, nullptr));
  applyLut(lutTex, dSrc, dDst, n, stream);
  CHECK(cudaMemcpy(mapped.data(), dDst, n * sizeof(int), cudaMemcpyDeviceToHost));
  bad = 0;
  for (int i = 0; i < n; ++i) bad += mapped[i] != lut[src[i]];
  printf("lookup table over %d values: %d wrong\n", n, bad);
  failures += bad;

  CHECK(cudaDestroyTextureObject(imgTex));
  CHECK(cudaDestroyTextureObject(fTex));
  CHECK(cudaDestroyTextureObject(lutTex));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFree(pitched));
  CHECK(cudaFree(dResized));
  CHECK(cudaFree(dBlur));
  CHECK(cudaFree(dLut));
  CHECK(cudaFree(dSrc));
  CHECK(cudaFree(dDst));
  CHECK(cudaStreamDestroy(stream));
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
