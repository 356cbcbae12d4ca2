// Blocks that wait on each other (cooperative scheduling of resident blocks).
// argv[1]: "barrier" (a grid barrier over a co-resident grid: completes),
// "too_many" (the same barrier over more blocks than the device holds at
// once: deadlock report), "nobody" (blocks poll a flag nobody writes:
// deadlock report), "coalesced" (coalesced groups over the active lanes),
// "grid_sync" (this_grid().sync() in a cooperative launch, typed and through
// void** arguments), "coop_too_large" (a cooperative grid that cannot be
// resident: refused), "grid_sync_plain" (grid sync in a <<<>>> launch:
// reported), "grid_sync_partial" (a block returns before the grid sync:
// reported), "plain_poll" (a block polls a plain int: reported as a loop that
// cannot see the write).
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
namespace cg = cooperative_groups;

__global__ void grid_barrier(unsigned* count, unsigned* order) {
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < gridDim.x) __threadfence();  // SPIN_LINE
    order[blockIdx.x] = atomicAdd(count + 1, 1u);
  }
  __syncthreads();
}

__global__ void wait_flag(volatile int* flag, int* out) {
  if (threadIdx.x == 0)
    while (*flag == 0) {
    }
  __syncthreads();
  out[blockIdx.x] = 1;
}

// Lanes with an odd value form one coalesced group, the others another.
__global__ void coalesced(const int* in, int* size, int* rank, int* first, unsigned* bal) {
  int t = threadIdx.x;
  if (in[t] & 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    size[t] = (int)g.size();
    rank[t] = (int)g.thread_rank();
    first[t] = g.shfl(t, 0);
    bal[t] = (unsigned)g.ballot(g.thread_rank() % 2 == 0);
  } else {
    cg::coalesced_group g = cg::coalesced_threads();
    size[t] = -(int)g.size();
    rank[t] = (int)g.thread_rank();
    first[t] = g.shfl(t, (unsigned)g.size() - 1);
    bal[t] = (unsigned)g.ballot(t < 8);
  }
}

// Three phases separated by grid barriers: every block reads what all the
// others wrote in the previous phase.
__global__ void grid_phases(int* a, int* b, int* out) {
  cg::grid_group grid = cg::this_grid();
  unsigned nb = gridDim.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned n = nb * blockDim.x;
  a[i] = (int)i;
  grid.sync();
  b[i] = a[n - 1 - i] + (grid.is_valid() ? 1 : 0);
  grid.sync();  // GRID_SYNC_LINE
  out[i] = b[(i + blockDim.x) % n] + (int)grid.size();
}

__global__ void grid_partial(int* a) {
  if (blockIdx.x == 2) return;
  a[blockIdx.x] = 1;
  cg::this_grid().sync();  // PARTIAL_LINE
}

__global__ void plain_poll(int* flag, int* out) {
  if (blockIdx.x == 0) {
    while (flag[0] == 0) {  // POLL_LINE
    }
    out[0] = 1;
  }
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  int per = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, grid_barrier, 64, 0);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  const int resident = per * p.multiProcessorCount;
  unsigned* count;
  unsigned* order;
  cudaMallocManaged(&count, 2 * sizeof(unsigned));
  cudaMallocManaged(&order, 4096 * sizeof(unsigned));
  count[0] = count[1] = 0;
  if (!strcmp(s, "barrier")) {
    int grid = resident < 40 ? resident : 40;
    pkemu::launch(grid_barrier, grid, 64, 0, 0, count, order);
    cudaDeviceSynchronize();
    printf("blocks=%d arrived=%u passed=%u\n", grid, count[0], count[1]);
  } else if (!strcmp(s, "too_many")) {
    printf("resident=%d\n", resident);
    fflush(stdout);
    pkemu::launch(grid_barrier, resident + 1, 64, 0, 0, count, order);
    printf("not reached\n");
  } else if (!strcmp(s, "nobody")) {
    int* flag;
    cudaMallocManaged(&flag, 4 * sizeof(int));
    flag[0] = 0;
    pkemu::launch(wait_flag, 3, 32, 0, 0, (volatile int*)flag, flag + 1);
    printf("not reached\n");
  } else if (!strcmp(s, "coalesced")) {
    int *in, *size, *rank, *first;
    unsigned* bal;
    cudaMallocManaged(&in, 64 * sizeof(int));
    cudaMallocManaged(&size, 64 * sizeof(int));
    cudaMallocManaged(&rank, 64 * sizeof(int));
    cudaMallocManaged(&first, 64 * sizeof(int));
    cudaMallocManaged(&bal, 64 * sizeof(unsigned));
    for (int i = 0; i < 64; ++i) in[i] = (i * 7 + i / 5) % 3;
    pkemu::launch(coalesced, 1, warpSize, 0, 0, in, size, rank, first, bal);
    cudaDeviceSynchronize();
    for (int i = 0; i < warpSize; ++i) printf("%d:%d,%d,%d,%x ", i, size[i], rank[i], first[i], bal[i]);
    printf("\n");
  } else if (!strcmp(s, "grid_sync") || !strcmp(s, "grid_sync_plain")) {
    int grid = resident < 24 ? resident : 24, n = grid * 64;
    int *a, *b, *out;
    cudaMallocManaged(&a, n * sizeof(int));
    cudaMallocManaged(&b, n * sizeof(int));
    cudaMallocManaged(&out, n * sizeof(int));
    int attr = 0;
    cudaDeviceGetAttribute(&attr, cudaDevAttrCooperativeLaunch, 0);
    cudaError_t e;
    if (!strcmp(s, "grid_sync")) {
      void* args[] = {&a, &b, &out};
      e = cudaLaunchCooperativeKernel(grid_phases, grid, 64, args, 0, 0);
    } else {
      e = (cudaError_t)pkemu::launch(grid_phases, grid, 64, 0, 0, a, b, out);
    }
    cudaDeviceSynchronize();
    bool ok = e == cudaSuccess;
    for (int i = 0; i < n; ++i) ok = ok && out[i] == n - 1 - (i + 64) % n + 1 + n;
    printf("coop attr=%d grid=%d: %s\n", attr, grid, ok ? "ok" : "wrong");
  } else if (!strcmp(s, "coop_too_large")) {
    int *a, *b, *out;
    int n = (resident + 1) * 64;
    cudaMallocManaged(&a, n * sizeof(int));
    cudaMallocManaged(&b, n * sizeof(int));
    cudaMallocManaged(&out, n * sizeof(int));
    void* args[] = {&a, &b, &out};
    cudaError_t e = cudaLaunchCooperativeKernel(grid_phases, resident + 1, 64, args);  // TOO_LARGE_LINE
    printf("resident=%d launch: %s\n", resident, cudaGetErrorName(e));
  } else if (!strcmp(s, "grid_sync_partial")) {
    int* a;
    cudaMallocManaged(&a, 8 * sizeof(int));
    void* args[] = {&a};
    cudaLaunchCooperativeKernel(grid_partial, 4, 32, args);
    printf("not reached\n");
  } else if (!strcmp(s, "plain_poll")) {
    int *flag, *out;
    cudaMallocManaged(&flag, 2 * sizeof(int));
    cudaMallocManaged(&out, 2 * sizeof(int));
    flag[0] = 0;
    pkemu::launch(plain_poll, 2, 32, 0, 0, flag, out);
    printf("not reached\n");
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  return 0;
}
