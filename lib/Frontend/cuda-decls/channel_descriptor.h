/*===- channel_descriptor.h - cudaCreateChannelDesc<T>() -------------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit.  The channel
 * layout of each element type is not needed for parsing, so only the
 * template is declared.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_CHANNEL_DESCRIPTOR_H
#define __PK_CHANNEL_DESCRIPTOR_H
#include "driver_types.h"
#ifdef __cplusplus
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
#endif
#endif
