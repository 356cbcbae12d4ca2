__global__ void segE(float *x) {
  float h = x[threadIdx.x];
  h += __shfl_xor_sync(0x0000ffff, h, 4, 16);
  x[threadIdx.x] = h;
}
