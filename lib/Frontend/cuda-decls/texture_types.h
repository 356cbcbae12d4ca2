/*===- texture_types.h - texture object types ------------------------------===*
 * The texture enums and cudaTextureDesc live in driver_types.h here. */
#ifndef __PK_TEXTURE_TYPES_H
#define __PK_TEXTURE_TYPES_H
#include "driver_types.h"
#endif
