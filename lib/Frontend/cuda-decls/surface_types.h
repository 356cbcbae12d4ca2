/*===- surface_types.h - surface object types ------------------------------===*/
#ifndef __PK_SURFACE_TYPES_H
#define __PK_SURFACE_TYPES_H
#include "driver_types.h"
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};
#endif
