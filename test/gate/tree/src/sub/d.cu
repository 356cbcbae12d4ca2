__global__ void segD(float *x) {
  float h = x[threadIdx.x];
  h += __shfl_down_sync(0x0000ffff, h, 1, 16);
  h += __shfl_down_sync(0x0000ffff, h, 2, 16);
  x[threadIdx.x] = h;
}
