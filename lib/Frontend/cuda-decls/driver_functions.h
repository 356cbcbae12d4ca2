/*===- driver_functions.h - make_cuda{PitchedPtr,Pos,Extent} --------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h).
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_DRIVER_FUNCTIONS_H
#define __PK_DRIVER_FUNCTIONS_H

#include "driver_types.h"

static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz,
                                                        size_t ysz) {
  struct cudaPitchedPtr r = {d, p, xsz, ysz};
  return r;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  struct cudaPos r = {x, y, z};
  return r;
}
static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  struct cudaExtent r = {w, h, d};
  return r;
}

#endif /* __PK_DRIVER_FUNCTIONS_H */
