#!/usr/bin/env python3
"""Writes CUDA sources nested as deeply as asked, for the crash-* reliability
cases (docs/reliability.md, "Crashes").

  crash-gen.py KIND N OUT.cu

KIND:
  sum        float s = a[0] + a[1] + ... (N terms: N-1 nested '+'), then a
             full-warp shuffle reduction step outside the sum
  sum-shfl   the same sum with a __shfl_down_sync call as its first term
             (inside the deepest part of the expression)
  ternary    s = c0 ? a[0] : c1 ? a[1] : ... (N nested conditionals)
  ifchain    if (...) ... else if (...) ... (N nested if statements)
  macro      ID(ID(...ID(a[i])...)) (N nested macro arguments)
  program    a self-checking program (for validate --program): a kernel
             summing N ones in one expression, a main that launches it and
             exits 1 unless every thread's sum is N
The kernel is on line 2 onwards; the deep code starts on line 4 (line 5 for
ifchain).
"""
import sys


PROGRAM = r"""#include <cuda_runtime.h>
#include <cstdio>
__global__ void deep(const float *a, float *out) {
  float s = TERMS;
  out[threadIdx.x] = s;
}
int main() {
  float h[64];
  for (int i = 0; i < 64; ++i)
    h[i] = 1.0f;
  float *da, *dout;
  cudaMalloc(&da, sizeof h);
  cudaMalloc(&dout, 32 * sizeof(float));
  cudaMemcpy(da, h, sizeof h, cudaMemcpyHostToDevice);
  deep<<<1, 32>>>(da, dout);
  float r[32];
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i)
    if (r[i] != N_TERMS.0f) {
      printf("thread %d: %f\n", i, r[i]);
      return 1;
    }
  return 0;
}
"""


def main():
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if kind == 'program':
        terms = ' + '.join(f'a[{k % 64}]' for k in range(n))
        with open(out, 'w') as f:
            f.write(PROGRAM.replace('N_TERMS', str(n)).replace('TERMS', terms))
        return
    head = ['#define ID(x) x',
            '__global__ void deep(const float *a, float *out, int i) {',
            '  int lane = threadIdx.x & 31;']
    if kind in ('sum', 'sum-shfl'):
        terms = [f'a[i + {k % 64}]' for k in range(n)]
        if kind == 'sum-shfl':
            terms[0] = '__shfl_down_sync(0xffffffff, a[lane], 16)'
        body = ['  float s = ' + ' + '.join(terms) + ';']
    elif kind == 'ternary':
        body = ['  float s = ' + ''.join(f'i == {k} ? a[{k % 64}] : ' for k in range(n)) + '0.f;']
    elif kind == 'ifchain':
        body = ['  float s = 0.f;',
                '  ' + ' else '.join(f'if (i == {k}) s = a[{k % 64}];' for k in range(n))]
    elif kind == 'macro':
        body = ['  float s = ' + 'ID(' * n + 'a[i]' + ')' * n + ';']
    else:
        sys.exit(f'crash-gen.py: unknown kind {kind}')
    tail = ['  s += __shfl_down_sync(0xffffffff, s, 16);',
            '  if (lane == 0)',
            '    out[threadIdx.x / 32] = s;',
            '}']
    with open(out, 'w') as f:
        f.write('\n'.join(head + body + tail) + '\n')


if __name__ == '__main__':
    main()
