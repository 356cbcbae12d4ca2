// complex_mul_pairs: c = a * b for n complex numbers stored as (re, im)
// pairs of floats, through a user's two-field struct.
// Idiom: a struct of one scalar type read through a cast pointer, an
// aggregate initialiser for the result.
// EXPECT: lift
#include <cuda_runtime.h>

struct cfloat {
  float re, im;
};

__global__ void complex_mul_pairs(float *c, const float *a, const float *b,
                                  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  cfloat x = reinterpret_cast<const cfloat *>(a)[i];
  cfloat y = reinterpret_cast<const cfloat *>(b)[i];
  cfloat z = {x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
  reinterpret_cast<cfloat *>(c)[i] = z;
}
