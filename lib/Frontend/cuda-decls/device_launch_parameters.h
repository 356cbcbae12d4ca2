/*===- device_launch_parameters.h - built-in variables ----------------------===*
 * threadIdx, blockIdx, blockDim, gridDim and warpSize come from clang's
 * __clang_cuda_builtin_vars.h through __pk_cuda_prelude.h. */
#ifndef __PK_DEVICE_LAUNCH_PARAMETERS_H
#define __PK_DEVICE_LAUNCH_PARAMETERS_H
#endif
