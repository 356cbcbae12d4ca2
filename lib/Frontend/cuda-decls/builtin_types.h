/*===- builtin_types.h - all CUDA runtime types ---------------------------===*/
#ifndef __PK_BUILTIN_TYPES_H
#define __PK_BUILTIN_TYPES_H
#include "driver_types.h"
#include "vector_types.h"
#include "surface_types.h"
#include "texture_types.h"
#endif
