// scale_template_two_types: y[i] = a * x[i], a kernel template the file
// launches with two element types.
// Idiom: one template, two instantiations.  Each would be a kernel of its
// own (with its own dtype): refused with the reason, never lifted as one.
// EXPECT: refuse PK5007 "template kernels are not lifted"
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <class T>
__global__ void scale_template_two_types(T *y, const T *x, float a, int n) { // EXPECT-AT
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = (T)(a * (float)x[i]);
}

void scale_both(float *yf, const float *xf, __half *yh, const __half *xh,
                int n) {
  scale_template_two_types<<<(n + 255) / 256, 256>>>(yf, xf, 2.0f, n);
  scale_template_two_types<<<(n + 255) / 256, 256>>>(yh, xh, 2.0f, n);
}
