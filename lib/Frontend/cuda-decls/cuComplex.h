/*===- cuComplex.h - single and double precision complex numbers ----------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h): the complex types are the float2/double2 vector
 * types, with the accessor and arithmetic functions of the cuComplex API.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_CUCOMPLEX_H
#define __PK_CUCOMPLEX_H

#include "vector_types.h"
#include <math.h>

#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#endif

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

#define __PK_CX__ static __inline__ __host__ __device__
__PK_CX__ float cuCrealf(cuFloatComplex x) { return x.x; }
__PK_CX__ float cuCimagf(cuFloatComplex x) { return x.y; }
__PK_CX__ cuFloatComplex make_cuFloatComplex(float r, float i) {
  cuFloatComplex z; z.x = r; z.y = i; return z;
}
__PK_CX__ cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
__PK_CX__ cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) {
  return make_cuFloatComplex(a.x + b.x, a.y + b.y);
}
__PK_CX__ cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) {
  return make_cuFloatComplex(a.x - b.x, a.y - b.y);
}
__PK_CX__ cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b) {
  return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__PK_CX__ cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b) {
  float d = b.x * b.x + b.y * b.y;
  return make_cuFloatComplex((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d);
}
__PK_CX__ float cuCabsf(cuFloatComplex x) { return sqrtf(x.x * x.x + x.y * x.y); }

__PK_CX__ double cuCreal(cuDoubleComplex x) { return x.x; }
__PK_CX__ double cuCimag(cuDoubleComplex x) { return x.y; }
__PK_CX__ cuDoubleComplex make_cuDoubleComplex(double r, double i) {
  cuDoubleComplex z; z.x = r; z.y = i; return z;
}
__PK_CX__ cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
__PK_CX__ cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a.x + b.x, a.y + b.y);
}
__PK_CX__ cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a.x - b.x, a.y - b.y);
}
__PK_CX__ cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
__PK_CX__ cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b) {
  double d = b.x * b.x + b.y * b.y;
  return make_cuDoubleComplex((a.x * b.x + a.y * b.y) / d, (a.y * b.x - a.x * b.y) / d);
}
__PK_CX__ double cuCabs(cuDoubleComplex x) { return sqrt(x.x * x.x + x.y * x.y); }

__PK_CX__ cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
__PK_CX__ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
  return make_cuDoubleComplex((double)c.x, (double)c.y);
}
__PK_CX__ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
  return make_cuFloatComplex((float)c.x, (float)c.y);
}
__PK_CX__ cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d) {
  return cuCaddf(cuCmulf(x, y), d);
}
__PK_CX__ cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
  return cuCadd(cuCmul(x, y), d);
}
#undef __PK_CX__

#endif /* __PK_CUCOMPLEX_H */
