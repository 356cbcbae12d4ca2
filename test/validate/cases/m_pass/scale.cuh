#pragma once
__device__ inline float scale(float v, float a) { return a * v; }
