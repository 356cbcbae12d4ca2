// All-pairs gravitational forces with shared-memory tiles of body positions
// (float4: x, y, z, mass), then a leapfrog integration step.
#pragma once
#include "nbody_common.h"

__device__ __forceinline__ float3 bodyBodyInteraction(float3 ai, float4 bi, float4 bj,
                                                      float softeningSquared) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + softeningSquared;
  float invDist = rsqrtf(distSqr);
  float invDistCube = invDist * invDist * invDist;
  float s = bj.w * invDistCube;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

// One thread per body; the block walks the bodies in tiles of blockDim.x,
// each thread staging one position into dynamic shared memory.  Positions
// past the end are staged with zero mass.
__global__ void computeForces(const float4 *__restrict__ pos, float3 *__restrict__ accel,
                              int n, float softeningSquared) {
  extern __shared__ float4 shPosition[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 myPos = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float3 acc = make_float3(0.0f, 0.0f, 0.0f);

  for (int tile = 0; tile < gridDim.x; ++tile) {
    const int j = tile * blockDim.x + threadIdx.x;
    shPosition[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < blockDim.x; ++k)
      acc = bodyBodyInteraction(acc, myPos, shPosition[k], softeningSquared);
    __syncthreads();
  }
  if (i < n)
    accel[i] = acc;
}

__global__ void integrateBodies(float4 *__restrict__ pos, float4 *__restrict__ vel,
                                const float3 *__restrict__ accel, int n, NBodyParams p) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 position = pos[i];
  float4 velocity = vel[i];
  float3 a = accel[i];
  velocity.x = (velocity.x + a.x * p.dt) * p.damping;
  velocity.y = (velocity.y + a.y * p.dt) * p.damping;
  velocity.z = (velocity.z + a.z * p.dt) * p.damping;
  position.x += velocity.x * p.dt;
  position.y += velocity.y * p.dt;
  position.z += velocity.z * p.dt;
  pos[i] = position;
  vel[i] = velocity;
}

// Kinetic energy 0.5 m v^2 summed per block: a shuffle reduction per warp,
// one partial per warp in shared memory (32 slots: enough for any block of
// up to 1024 threads), then the first warp adds the partials.
__device__ __forceinline__ float warpReduceSum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void kineticEnergy(const float4 *pos, const float4 *vel, float *blockSums, int n) {
  static __shared__ float warpPartials[32];
  const int lane = threadIdx.x % warpSize;
  const int wid = threadIdx.x / warpSize;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = 0.0f;
  if (i < n) {
    float4 v = vel[i];
    e = 0.5f * pos[i].w * (v.x * v.x + v.y * v.y + v.z * v.z);
  }
  e = warpReduceSum(e);
  if (lane == 0)
    warpPartials[wid] = e;
  __syncthreads();
  const int numWarps = (blockDim.x + warpSize - 1) / warpSize;
  if (wid == 0) {
    e = lane < numWarps ? warpPartials[lane] : 0.0f;
    e = warpReduceSum(e);
    if (lane == 0)
      blockSums[blockIdx.x] = e;
  }
}
