// Separable Gaussian/derivative filters and a 5x5 sharpening filter on a
// ragged image (97 x 61), taps in __constant__ memory uploaded with
// cudaMemcpyToSymbol; compared with a host convolution.
#include <cmath>
#include <cstdio>
#include <vector>

#include "convolution.cuh"

static inline int clampHost(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

static void rowsHost(std::vector<float> &dst, const std::vector<float> &src, int w, int h,
                     const float *taps, int r) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float s = 0.0f;
      for (int k = -r; k <= r; ++k)
        s += taps[r - k] * src[y * w + clampHost(x + k, 0, w - 1)];
      dst[y * w + x] = s;
    }
}

static void colsHost(std::vector<float> &dst, const std::vector<float> &src, int w, int h,
                     const float *taps, int r) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float s = 0.0f;
      for (int k = -r; k <= r; ++k)
        s += taps[r - k] * src[clampHost(y + k, 0, h - 1) * w + x];
      dst[y * w + x] = s;
    }
}

static bool compare(const char *what, const std::vector<float> &got,
                    const std::vector<float> &want) {
  double maxErr = 0.0, maxRef = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    maxErr = std::fmax(maxErr, std::fabs(got[i] - want[i]));
    maxRef = std::fmax(maxRef, std::fabs(want[i]));
  }
  bool ok = maxErr <= 1e-5 * (1.0 + maxRef);
  printf("%-22s max error %.3g (max |ref| %.3g) %s\n", what, maxErr, maxRef, ok ? "ok" : "WRONG");
  return ok;
}

template <int R>
static bool runSeparable(const char *what, const std::vector<float> &rowTaps,
                         const std::vector<float> &colTaps, const std::vector<float> &img,
                         float *d_src, float *d_tmp, float *d_dst, int w, int h) {
  setSeparableTaps(rowTaps.data(), colTaps.data(), R);
  convolutionSeparable<R>(d_dst, d_tmp, d_src, w, h);
  std::vector<float> out(w * h), tmp(w * h), ref(w * h);
  CUDA_CHECK(cudaMemcpy(out.data(), d_dst, w * h * sizeof(float), cudaMemcpyDeviceToHost));
  rowsHost(tmp, img, w, h, rowTaps.data(), R);
  colsHost(ref, tmp, w, h, colTaps.data(), R);
  return compare(what, out, ref);
}

int main() {
  const int w = 97, h = 61;
  std::vector<float> img(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img[y * w + x] = (float)(16 + (x * 17 + y * 31 + (x * y) % 7) % 201);

  float *d_raw, *d_src, *d_tmp, *d_dst;
  CUDA_CHECK(cudaMalloc(&d_raw, w * h * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_src, w * h * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_tmp, w * h * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_dst, w * h * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_raw, img.data(), w * h * sizeof(float), cudaMemcpyHostToDevice));

  bool ok = true;

  // The raw image holds 8-bit levels; normalise it to [0, 1] on the device.
  {
    const float lo = 16.0f, scale = 1.0f / 200.0f;
    const int n = w * h, n4 = n / 4;
    normalizeImage<<<iDivUp(n4 > 4 ? n4 : 4, 256), 256>>>(d_src, d_raw, n, lo, scale);
    CUDA_CHECK_KERNEL();
    std::vector<float> norm(n);
    CUDA_CHECK(cudaMemcpy(norm.data(), d_src, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      img[i] = (img[i] - lo) * scale;
    ok &= compare("normalize (float4)", norm, img);
  }

  // Gaussian blur, sigma 1.5, radius 4 in both directions.
  {
    const int r = 4;
    std::vector<float> g(2 * r + 1);
    float s = 0.0f;
    for (int k = -r; k <= r; ++k)
      s += g[k + r] = expf(-(k * k) / (2.0f * 1.5f * 1.5f));
    for (float &t : g)
      t /= s;
    ok &= runSeparable<4>("gaussian r=4", g, g, img, d_src, d_tmp, d_dst, w, h);
  }
  // Sobel-like derivative in x (smoothing in y), radius 1: asymmetric taps
  // check the orientation of the convolution.
  {
    std::vector<float> dx = {-1.0f, 0.0f, 1.0f}, sm = {0.25f, 0.5f, 0.25f};
    ok &= runSeparable<1>("derivative x r=1", dx, sm, img, d_src, d_tmp, d_dst, w, h);
  }
  // A ramp of radius 7 (wider than the row tile's warp-sized apron split).
  {
    const int r = 7;
    std::vector<float> a(2 * r + 1), b(2 * r + 1);
    for (int k = 0; k <= 2 * r; ++k) {
      a[k] = 0.05f * (k + 1);
      b[k] = 0.1f - 0.005f * k;
    }
    ok &= runSeparable<7>("ramp r=7", a, b, img, d_src, d_tmp, d_dst, w, h);
  }

  // Sobel gradient magnitude: the x and y derivatives filtered concurrently
  // on two streams (tap sets 0 and 1), joined through an event.
  {
    const float deriv[3] = {-1.0f, 0.0f, 1.0f}, smooth[3] = {1.0f, 2.0f, 1.0f};
    const int n = w * h;
    float *d_gx, *d_gy, *d_tmp2, *d_mag;
    CUDA_CHECK(cudaMalloc(&d_gx, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_gy, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_tmp2, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_mag, n * sizeof(float)));
    cudaStream_t sx, sy;
    cudaEvent_t gyDone;
    CUDA_CHECK(cudaStreamCreate(&sx));
    CUDA_CHECK(cudaStreamCreate(&sy));
    CUDA_CHECK(cudaEventCreateWithFlags(&gyDone, cudaEventDisableTiming));
    setSeparableTapsAsync(deriv, smooth, 1, 0, sx);
    setSeparableTapsAsync(smooth, deriv, 1, 1, sy);
    convolutionSeparable<1>(d_gx, d_tmp, d_src, w, h, 0, sx);
    convolutionSeparable<1>(d_gy, d_tmp2, d_src, w, h, 1, sy);
    CUDA_CHECK(cudaEventRecord(gyDone, sy));
    CUDA_CHECK(cudaStreamWaitEvent(sx, gyDone, 0));
    magnitude<<<iDivUp(n, 256), 256, 0, sx>>>(d_mag, d_gx, d_gy, n);
    CUDA_CHECK_KERNEL();
    CUDA_CHECK(cudaStreamSynchronize(sx));
    std::vector<float> mag(n), gx(n), gy(n), tmp(n), ref(n);
    CUDA_CHECK(cudaMemcpy(mag.data(), d_mag, n * sizeof(float), cudaMemcpyDeviceToHost));
    rowsHost(tmp, img, w, h, deriv, 1);
    colsHost(gx, tmp, w, h, smooth, 1);
    rowsHost(tmp, img, w, h, smooth, 1);
    colsHost(gy, tmp, w, h, deriv, 1);
    for (int i = 0; i < n; ++i)
      ref[i] = std::sqrt(gx[i] * gx[i] + gy[i] * gy[i]);
    ok &= compare("sobel magnitude", mag, ref);
    CUDA_CHECK(cudaEventDestroy(gyDone));
    CUDA_CHECK(cudaStreamDestroy(sx));
    CUDA_CHECK(cudaStreamDestroy(sy));
    CUDA_CHECK(cudaFree(d_gx));
    CUDA_CHECK(cudaFree(d_gy));
    CUDA_CHECK(cudaFree(d_tmp2));
    CUDA_CHECK(cudaFree(d_mag));
  }

  // Unsharp mask in 2-D.
  {
    float f[FILTER2D_WIDTH][FILTER2D_WIDTH];
    for (int i = 0; i < FILTER2D_WIDTH; ++i)
      for (int j = 0; j < FILTER2D_WIDTH; ++j) {
        int di = i - FILTER2D_RADIUS, dj = j - FILTER2D_RADIUS;
        f[i][j] = -expf(-(di * di + dj * dj) / 2.0f) / 8.0f;
      }
    f[FILTER2D_RADIUS][FILTER2D_RADIUS] += 2.0f;
    CUDA_CHECK(cudaMemcpyToSymbol(c_filter2d, f, sizeof(f)));
    dim3 block(16, 16), grid(iDivUp(w, 16), iDivUp(h, 16));
    convolution2D<<<grid, block>>>(d_dst, d_src, w, h);
    CUDA_CHECK_KERNEL();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> out(w * h), ref(w * h);
    CUDA_CHECK(cudaMemcpy(out.data(), d_dst, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float s = 0.0f;
        for (int dy = -FILTER2D_RADIUS; dy <= FILTER2D_RADIUS; ++dy)
          for (int dx = -FILTER2D_RADIUS; dx <= FILTER2D_RADIUS; ++dx)
            s += f[dy + FILTER2D_RADIUS][dx + FILTER2D_RADIUS] *
                 img[clampHost(y + dy, 0, h - 1) * w + clampHost(x + dx, 0, w - 1)];
        ref[y * w + x] = s;
      }
    ok &= compare("unsharp 5x5", out, ref);

    // The symbol reads back as written.
    float back[FILTER2D_WIDTH][FILTER2D_WIDTH];
    CUDA_CHECK(cudaMemcpyFromSymbol(back, c_filter2d, sizeof(back)));
    for (int i = 0; i < FILTER2D_WIDTH; ++i)
      for (int j = 0; j < FILTER2D_WIDTH; ++j)
        if (back[i][j] != f[i][j])
          ok = false;
  }

  CUDA_CHECK(cudaFree(d_raw));
  CUDA_CHECK(cudaFree(d_src));
  CUDA_CHECK(cudaFree(d_tmp));
  CUDA_CHECK(cudaFree(d_dst));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
