/*===- texture_types.h - texture object types ------------------------------===*
 * The texture enums and cudaTextureDesc live in driver_types.h here. */
#ifndef __PK_TEXTURE_TYPES_H
#define __PK_TEXTURE_TYPES_H
#include "driver_types.h"
/* Texture types of cudaTextureDesc/cudaArray (the values CUDA gives them). */
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
#endif
