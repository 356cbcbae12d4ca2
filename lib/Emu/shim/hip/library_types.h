//===- hip/library_types.h - element types of the ROCm libraries -*- C++
//-*-===//
// Rules: none (emulator runtime)
//
// hipDataType with HIP's values (the same numbers as CUDA's cudaDataType).
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_HIP_LIBRARY_TYPES_H
#define PKEMU_HIP_LIBRARY_TYPES_H
typedef enum hipDataType {
  HIP_R_32F = 0,
  HIP_R_64F = 1,
  HIP_R_16F = 2,
  HIP_R_8I = 3,
  HIP_C_32F = 4,
  HIP_C_64F = 5,
  HIP_C_16F = 6,
  HIP_C_8I = 7,
  HIP_R_8U = 8,
  HIP_C_8U = 9,
  HIP_R_32I = 10,
  HIP_C_32I = 11,
  HIP_R_32U = 12,
  HIP_C_32U = 13,
  HIP_R_16BF = 14,
  HIP_C_16BF = 15
} hipDataType;
#endif
