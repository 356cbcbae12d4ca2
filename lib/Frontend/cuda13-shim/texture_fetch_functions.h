/* Empty stand-in: CUDA 13 removed texture_fetch_functions.h, which clang 19's
 * CUDA runtime wrapper still includes. Put this directory on the include path
 * (-isystem) when parsing with a CUDA 13 toolkit. */
