/*===- device_atomic_functions.h - atomic* device functions ---------------===*
 *
 * Declarations for parsing CUDA sources without a toolkit (see
 * __pk_cuda_prelude.h), following the atomic functions section of the CUDA
 * programming guide: the device-scope form and its _block and _system
 * variants for each operation and operand type.
 *===-----------------------------------------------------------------------===*/
#ifndef __PK_DEVICE_ATOMIC_FUNCTIONS_H
#define __PK_DEVICE_ATOMIC_FUNCTIONS_H

/* scope: device */
__device__ int atomicAdd(int *address, int val);
__device__ unsigned int atomicAdd(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicAdd(unsigned long long int *address, unsigned long long int val);
__device__ float atomicAdd(float *address, float val);
__device__ double atomicAdd(double *address, double val);
__device__ int atomicSub(int *address, int val);
__device__ unsigned int atomicSub(unsigned int *address, unsigned int val);
__device__ int atomicExch(int *address, int val);
__device__ unsigned int atomicExch(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicExch(unsigned long long int *address, unsigned long long int val);
__device__ float atomicExch(float *address, float val);
__device__ int atomicMin(int *address, int val);
__device__ unsigned int atomicMin(unsigned int *address, unsigned int val);
__device__ long long int atomicMin(long long int *address, long long int val);
__device__ unsigned long long int atomicMin(unsigned long long int *address, unsigned long long int val);
__device__ int atomicMax(int *address, int val);
__device__ unsigned int atomicMax(unsigned int *address, unsigned int val);
__device__ long long int atomicMax(long long int *address, long long int val);
__device__ unsigned long long int atomicMax(unsigned long long int *address, unsigned long long int val);
__device__ int atomicAnd(int *address, int val);
__device__ unsigned int atomicAnd(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicAnd(unsigned long long int *address, unsigned long long int val);
__device__ int atomicOr(int *address, int val);
__device__ unsigned int atomicOr(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicOr(unsigned long long int *address, unsigned long long int val);
__device__ int atomicXor(int *address, int val);
__device__ unsigned int atomicXor(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicXor(unsigned long long int *address, unsigned long long int val);
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long int atomicCAS(unsigned long long int *address, unsigned long long int compare, unsigned long long int val);
__device__ unsigned short int atomicCAS(unsigned short int *address, unsigned short int compare, unsigned short int val);
__device__ unsigned int atomicInc(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec(unsigned int *address, unsigned int val);

/* scope: block */
__device__ int atomicAdd_block(int *address, int val);
__device__ unsigned int atomicAdd_block(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicAdd_block(unsigned long long int *address, unsigned long long int val);
__device__ float atomicAdd_block(float *address, float val);
__device__ double atomicAdd_block(double *address, double val);
__device__ int atomicSub_block(int *address, int val);
__device__ unsigned int atomicSub_block(unsigned int *address, unsigned int val);
__device__ int atomicExch_block(int *address, int val);
__device__ unsigned int atomicExch_block(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicExch_block(unsigned long long int *address, unsigned long long int val);
__device__ float atomicExch_block(float *address, float val);
__device__ int atomicMin_block(int *address, int val);
__device__ unsigned int atomicMin_block(unsigned int *address, unsigned int val);
__device__ long long int atomicMin_block(long long int *address, long long int val);
__device__ unsigned long long int atomicMin_block(unsigned long long int *address, unsigned long long int val);
__device__ int atomicMax_block(int *address, int val);
__device__ unsigned int atomicMax_block(unsigned int *address, unsigned int val);
__device__ long long int atomicMax_block(long long int *address, long long int val);
__device__ unsigned long long int atomicMax_block(unsigned long long int *address, unsigned long long int val);
__device__ int atomicAnd_block(int *address, int val);
__device__ unsigned int atomicAnd_block(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicAnd_block(unsigned long long int *address, unsigned long long int val);
__device__ int atomicOr_block(int *address, int val);
__device__ unsigned int atomicOr_block(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicOr_block(unsigned long long int *address, unsigned long long int val);
__device__ int atomicXor_block(int *address, int val);
__device__ unsigned int atomicXor_block(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicXor_block(unsigned long long int *address, unsigned long long int val);
__device__ int atomicCAS_block(int *address, int compare, int val);
__device__ unsigned int atomicCAS_block(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long int atomicCAS_block(unsigned long long int *address, unsigned long long int compare, unsigned long long int val);
__device__ unsigned short int atomicCAS_block(unsigned short int *address, unsigned short int compare, unsigned short int val);
__device__ unsigned int atomicInc_block(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec_block(unsigned int *address, unsigned int val);

/* scope: system */
__device__ int atomicAdd_system(int *address, int val);
__device__ unsigned int atomicAdd_system(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicAdd_system(unsigned long long int *address, unsigned long long int val);
__device__ float atomicAdd_system(float *address, float val);
__device__ double atomicAdd_system(double *address, double val);
__device__ int atomicSub_system(int *address, int val);
__device__ unsigned int atomicSub_system(unsigned int *address, unsigned int val);
__device__ int atomicExch_system(int *address, int val);
__device__ unsigned int atomicExch_system(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicExch_system(unsigned long long int *address, unsigned long long int val);
__device__ float atomicExch_system(float *address, float val);
__device__ int atomicMin_system(int *address, int val);
__device__ unsigned int atomicMin_system(unsigned int *address, unsigned int val);
__device__ long long int atomicMin_system(long long int *address, long long int val);
__device__ unsigned long long int atomicMin_system(unsigned long long int *address, unsigned long long int val);
__device__ int atomicMax_system(int *address, int val);
__device__ unsigned int atomicMax_system(unsigned int *address, unsigned int val);
__device__ long long int atomicMax_system(long long int *address, long long int val);
__device__ unsigned long long int atomicMax_system(unsigned long long int *address, unsigned long long int val);
__device__ int atomicAnd_system(int *address, int val);
__device__ unsigned int atomicAnd_system(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicAnd_system(unsigned long long int *address, unsigned long long int val);
__device__ int atomicOr_system(int *address, int val);
__device__ unsigned int atomicOr_system(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicOr_system(unsigned long long int *address, unsigned long long int val);
__device__ int atomicXor_system(int *address, int val);
__device__ unsigned int atomicXor_system(unsigned int *address, unsigned int val);
__device__ unsigned long long int atomicXor_system(unsigned long long int *address, unsigned long long int val);
__device__ int atomicCAS_system(int *address, int compare, int val);
__device__ unsigned int atomicCAS_system(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long int atomicCAS_system(unsigned long long int *address, unsigned long long int compare, unsigned long long int val);
__device__ unsigned short int atomicCAS_system(unsigned short int *address, unsigned short int compare, unsigned short int val);
__device__ unsigned int atomicInc_system(unsigned int *address, unsigned int val);
__device__ unsigned int atomicDec_system(unsigned int *address, unsigned int val);

#endif /* __PK_DEVICE_ATOMIC_FUNCTIONS_H */
