/*===- math_functions.h - device math ---------------------------------------===*
 * Provided by clang's resource headers through __pk_cuda_prelude.h. */
#ifndef __PK_MATH_FUNCTIONS_H
#define __PK_MATH_FUNCTIONS_H
#include <cmath>
#endif
