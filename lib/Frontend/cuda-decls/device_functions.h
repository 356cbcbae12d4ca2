/*===- device_functions.h - device intrinsics -------------------------------===*
 * Provided by clang's resource headers through __pk_cuda_prelude.h. */
#ifndef __PK_DEVICE_FUNCTIONS_H
#define __PK_DEVICE_FUNCTIONS_H
#endif
