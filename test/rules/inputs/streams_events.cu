// Streams, events, callbacks, host functions and CUDA graphs.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

static void CUDART_CB onDone(cudaStream_t stream, cudaError_t status, void *user) {
  (void)stream;
  printf("done %d %p\n", (int)status, user);
}
static void CUDART_CB hostFn(void *user) { (void)user; }

int main() {
  int *d = nullptr;
  const int n = 4096;
  cudaMalloc(&d, n * sizeof(int));

  cudaStream_t s1, s2, s3;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  int lo = 0, hi = 0;
  cudaDeviceGetStreamPriorityRange(&lo, &hi);
  cudaStreamCreateWithPriority(&s3, cudaStreamDefault, hi);
  unsigned int flags = 0;
  int prio = 0;
  cudaStreamGetFlags(s2, &flags);
  cudaStreamGetPriority(s3, &prio);

  cudaEvent_t start, stop, evNoTiming;
  cudaEventCreate(&start);
  cudaEventCreateWithFlags(&stop, cudaEventBlockingSync);
  cudaEventCreateWithFlags(&evNoTiming, cudaEventDisableTiming | cudaEventInterprocess);
  cudaEventCreate(&evNoTiming, cudaEventDefault);

  cudaEventRecord(start, s1);
  fill<<<n / 256, 256, 0, s1>>>(d, 1, n);
  cudaEventRecord(stop, s1);
  cudaStreamWaitEvent(s2, stop, 0);
  fill<<<n / 256, 256, 0, s2>>>(d, 2, n);
  fill<<<n / 256, 256, 0, cudaStreamPerThread>>>(d, 3, n);
  cudaStreamAddCallback(s2, onDone, nullptr, 0);
  cudaLaunchHostFunc(s2, hostFn, nullptr);

  if (cudaEventQuery(stop) == cudaErrorNotReady) cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  if (cudaStreamQuery(s1) == cudaSuccess) printf("%f\n", ms);
  cudaStreamSynchronize(s2);

  // Graph captured from a stream, then a hand-built one.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  fill<<<n / 256, 256, 0, s1>>>(d, 4, n);
  cudaStreamCaptureStatus st;
  cudaStreamIsCapturing(s1, &st);
  cudaStreamEndCapture(s1, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s1);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);

  cudaGraph_t g2;
  cudaGraphCreate(&g2, 0);
  cudaGraphNode_t node;
  int v = 5, count = n;
  void *args[] = {&d, &v, &count};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)fill;
  kp.gridDim = dim3(n / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  cudaGraphAddKernelNode(&node, g2, nullptr, 0, &kp);
  cudaGraphNode_t empty;
  cudaGraphAddEmptyNode(&empty, g2, &node, 1);
  size_t numNodes = 0;
  cudaGraphGetNodes(g2, nullptr, &numNodes);
  cudaGraphExec_t e2;
  cudaGraphInstantiateWithFlags(&e2, g2, 0);
  cudaGraphLaunch(e2, s3);
  cudaGraphExecDestroy(e2);
  cudaGraphDestroy(g2);

  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaEventDestroy(evNoTiming);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaStreamDestroy(s3);
  cudaFree(d);
  return 0;
}
