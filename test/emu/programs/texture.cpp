// Texture objects (pkemu/texture.h): arrays, linear and pitched memory, point and linear
// filtering (8-bit weights), address modes, normalised coordinates and reads. The expected
// values follow the CUDA C++ Programming Guide's texture-fetching formulas, computed here on
// the host. argv[1] selects the scenario; each prints "NAME: N wrong".
#include <cmath>
#include <cstdio>
#include <cstring>

constexpr int W = 8, H = 4;

__global__ void fetch2d(float* out, cudaTextureObject_t t, const float* xs, const float* ys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, xs[i], ys[i]);
}
__global__ void fetch1d(float* out, cudaTextureObject_t t, const float* xs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, xs[i]);
}
__global__ void fetch_lin(int* out, cudaTextureObject_t t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i - 2);  // two indices below 0, two past the end
}
__global__ void fetch3d(float* out, cudaTextureObject_t t, int w, int h, int d) {
  int x = threadIdx.x % w, y = (threadIdx.x / w) % h, z = threadIdx.x / (w * h);
  if (z < d) out[threadIdx.x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}
__global__ void fetch_rgba(float4* out, cudaTextureObject_t t) {
  out[threadIdx.x] = tex2D<float4>(t, threadIdx.x + 0.5f, 0.5f);
}

static float T(int x, int y) { return (float)(x * x + 10 * y); }

// Texel (x, y) of the 8x4 texture under clamp (non-normalised) or border.
static float texel(long x, long y, bool border) {
  if (border && (x < 0 || y < 0 || x >= W || y >= H)) return 0.0f;
  x = x < 0 ? 0 : (x >= W ? W - 1 : x);
  y = y < 0 ? 0 : (y >= H ? H - 1 : y);
  return T((int)x, (int)y);
}
static float q8(float a) { return std::nearbyint(a * 256.0f) / 256.0f; }
static float bilinear(float x, float y, bool border) {
  float xb = x - 0.5f, yb = y - 0.5f;
  long i = (long)std::floor(xb), j = (long)std::floor(yb);
  float a = q8(xb - std::floor(xb)), b = q8(yb - std::floor(yb));
  float r = 0.0f;
  r += (1 - a) * (1 - b) * texel(i, j, border);
  r += a * (1 - b) * texel(i + 1, j, border);
  r += (1 - a) * b * texel(i, j + 1, border);
  r += a * b * texel(i + 1, j + 1, border);
  return r;
}

static cudaTextureObject_t make_array_texture(cudaArray_t* arr, cudaTextureFilterMode filter,
                                              cudaTextureAddressMode mode, int normalized) {
  static float h[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) h[y][x] = T(x, y);
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  cudaMallocArray(arr, &d, W, H);
  cudaMemcpy2DToArray(*arr, 0, 0, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = *arr;
  cudaTextureDesc t;
  memset(&t, 0, sizeof t);
  t.addressMode[0] = t.addressMode[1] = mode;
  t.filterMode = filter;
  t.readMode = cudaReadModeElementType;
  t.normalizedCoords = normalized;
  cudaTextureObject_t obj = 0;
  cudaCreateTextureObject(&obj, &r, &t, nullptr);
  return obj;
}

static int run2d(cudaTextureObject_t obj, const float* xs, const float* ys, int n, float* got) {
  float *dx, *dy, *dout;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(dx, xs, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, ys, n * sizeof(float), cudaMemcpyHostToDevice);
  pkemu::launch(fetch2d, (n + 63) / 64, 64, 0, 0, dout, obj, dx, dy, n);
  cudaMemcpy(got, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  return 0;
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  int bad = 0;
  if (!strcmp(s, "point") || !strcmp(s, "linear") || !strcmp(s, "border")) {
    const bool lin = strcmp(s, "point") != 0, border = !strcmp(s, "border");
    cudaArray_t arr;
    cudaTextureObject_t obj = make_array_texture(&arr, lin ? cudaFilterModeLinear : cudaFilterModePoint,
                                                 border ? cudaAddressModeBorder : cudaAddressModeClamp, 0);
    // Texel centres, quarter and third points, and coordinates outside the texture.
    const int n = 64;
    float xs[n], ys[n], got[n];
    for (int k = 0; k < n; ++k) {
      xs[k] = -2.0f + 0.25f * k + (k % 3 == 0 ? 1.0f / 3.0f : 0.0f);
      ys[k] = -1.0f + 0.125f * k;
    }
    run2d(obj, xs, ys, n, got);
    for (int k = 0; k < n; ++k) {
      float want = lin ? bilinear(xs[k], ys[k], border)
                       : texel((long)std::floor(xs[k]), (long)std::floor(ys[k]), border);
      if (got[k] != want) {
        if (bad < 5) printf("  (%g, %g): got %.9g, want %.9g\n", xs[k], ys[k], got[k], want);
        ++bad;
      }
    }
    cudaDestroyTextureObject(obj);
    cudaFreeArray(arr);
  } else if (!strcmp(s, "weights")) {
    // One texel step from 0 to 1 at a third: the weight is 85/256, not 1/3.
    float h[2] = {0.0f, 1.0f};
    cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &d, 2);
    cudaMemcpyToArray(arr, 0, 0, h, sizeof h, cudaMemcpyHostToDevice);
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaTextureDesc t = {};
    t.filterMode = cudaFilterModeLinear;
    t.addressMode[0] = cudaAddressModeClamp;
    cudaTextureObject_t obj;
    cudaCreateTextureObject(&obj, &r, &t, nullptr);
    float x = 0.5f + 1.0f / 3.0f, *dx, *dout, got;
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dout, sizeof got);
    cudaMemcpy(dx, &x, sizeof x, cudaMemcpyHostToDevice);
    pkemu::launch(fetch1d, 1, 1, 0, 0, dout, obj, dx, 1);
    cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDeviceToHost);
    bad += got != 85.0f / 256.0f;
    printf("weights: %.9g\n", got);
  } else if (!strcmp(s, "wrap")) {
    // Normalised coordinates wrap: u and u + 1 and u - 2 read the same texel.
    cudaArray_t arr;
    cudaTextureObject_t obj = make_array_texture(&arr, cudaFilterModePoint, cudaAddressModeWrap, 1);
    const int n = 24;
    float xs[n], ys[n], got[n];
    for (int k = 0; k < n; ++k) {
      float u = ((k % 8) + 0.5f) / W;
      xs[k] = u + (float)(k / 8) - 1.0f;  // u - 1, u, u + 1
      ys[k] = 0.5f / H;
    }
    run2d(obj, xs, ys, n, got);
    for (int k = 0; k < n; ++k) bad += got[k] != T(k % 8, 0);
  } else if (!strcmp(s, "normalized_read")) {
    // uchar4 texels read as floats in [0, 1].
    uchar4 h[4];
    for (int i = 0; i < 4; ++i) h[i] = make_uchar4(0, 51, (unsigned char)(i * 85), 255);
    cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
    bad += d.x != 8 || d.w != 8 || d.f != cudaChannelFormatKindUnsigned;
    cudaArray_t arr;
    cudaMallocArray(&arr, &d, 4, 1);
    cudaMemcpy2DToArray(arr, 0, 0, h, sizeof h, sizeof h, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaTextureDesc t = {};
    t.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t obj;
    cudaCreateTextureObject(&obj, &r, &t, nullptr);
    float4* dout;
    cudaMalloc(&dout, 4 * sizeof(float4));
    pkemu::launch(fetch_rgba, 1, 4, 0, 0, dout, obj);
    float4 got[4];
    cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; ++i)
      bad += got[i].x != 0.0f || got[i].y != 0.2f || got[i].z != (float)(i * 85 / 255.0) || got[i].w != 1.0f;
  } else if (!strcmp(s, "linear_memory") || !strcmp(s, "destroyed")) {
    // tex1Dfetch over a device buffer: indices outside it read 0.
    const int n = 16;
    int h[n], *d, *dout, got[n + 4];
    for (int i = 0; i < n; ++i) h[i] = 100 + i;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&dout, sizeof got);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = d;
    r.res.linear.desc = cudaCreateChannelDesc<int>();
    r.res.linear.sizeInBytes = sizeof h;
    cudaTextureDesc t = {};
    cudaTextureObject_t obj;
    cudaCreateTextureObject(&obj, &r, &t, nullptr);
    if (!strcmp(s, "destroyed")) cudaDestroyTextureObject(obj);
    pkemu::launch(fetch_lin, 1, n + 4, 0, 0, dout, obj, n + 4);
    cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n + 4; ++i) {
      int j = i - 2;
      bad += got[i] != (j >= 0 && j < n ? 100 + j : 0);
    }
  } else if (!strcmp(s, "volume")) {
    // cudaMemcpy3D into a 3D array and back out, and tex3D at every voxel centre.
    const int w = 5, h = 3, d = 2, n = w * h * d;
    float vol[d][h][w], back[d][h][w];
    for (int z = 0; z < d; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) vol[z][y][x] = (float)(100 * z + 10 * y + x);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    cudaMalloc3DArray(&arr, &desc, make_cudaExtent(w, h, d));
    cudaMemcpy3DParms in = {};
    in.srcPtr = make_cudaPitchedPtr(vol, w * sizeof(float), w, h);
    in.dstArray = arr;
    in.extent = make_cudaExtent(w, h, d);
    in.kind = cudaMemcpyHostToDevice;
    bad += cudaMemcpy3D(&in) != cudaSuccess;
    cudaMemcpy3DParms out = {};
    out.srcArray = arr;
    out.dstPtr = make_cudaPitchedPtr(back, w * sizeof(float), w, h);
    out.extent = make_cudaExtent(w, h, d);
    out.kind = cudaMemcpyDeviceToHost;
    bad += cudaMemcpy3D(&out) != cudaSuccess;
    bad += memcmp(vol, back, sizeof vol) != 0;
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaTextureDesc t = {};
    cudaTextureObject_t obj;
    cudaCreateTextureObject(&obj, &r, &t, nullptr);
    float *dout, got[n];
    cudaMalloc(&dout, sizeof got);
    pkemu::launch(fetch3d, 1, n, 0, 0, dout, obj, w, h, d);
    cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) bad += got[i] != vol[i / (w * h)][(i / w) % h][i % w];
  } else if (!strcmp(s, "pitch2d")) {
    // Pitched memory as a 2D texture.
    float* p;
    size_t pitch;
    cudaMallocPitch((void**)&p, &pitch, W * sizeof(float), H);
    static float h[H][W];
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) h[y][x] = T(x, y);
    cudaMemcpy2D(p, pitch, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = p;
    r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    r.res.pitch2D.width = W;
    r.res.pitch2D.height = H;
    r.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc t = {};
    t.filterMode = cudaFilterModeLinear;
    t.addressMode[0] = t.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t obj;
    cudaCreateTextureObject(&obj, &r, &t, nullptr);
    const int n = 32;
    float xs[n], ys[n], got[n];
    for (int k = 0; k < n; ++k) {
      xs[k] = 0.3f * k - 1.0f;
      ys[k] = 0.15f * k;
    }
    run2d(obj, xs, ys, n, got);
    for (int k = 0; k < n; ++k) bad += got[k] != bilinear(xs[k], ys[k], false);
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  printf("%s: %d wrong\n", s, bad);
  return 0;
}
