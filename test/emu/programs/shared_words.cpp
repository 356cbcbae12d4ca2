// The shared-memory shadow per 4-byte word and its split into bytes (CUDA spelling). argv[1]
// selects the scenario; every race below is one that a shadow keeping only a word's last
// access would miss or blame on the wrong thread.
#include <cstdio>
#include <cstring>

// Thread 0 writes byte 0 of a word; thread 32 writes bytes 1..3 and then reads the whole
// word without a barrier: byte 0 races with thread 0 (the word's last writer is thread 32
// itself).
__global__ void bytes_then_word(int* out) {
  PKEMU_SHARED(bytes, unsigned char[64]);
  unsigned t = threadIdx.x;
  bytes[t] = 0;
  __syncthreads();
  if (t == 0) bytes[0] = 9;
  if (t == 32) {
    bytes[1] = 1;
    *(unsigned short*)(bytes + 2) = 0x0302;
    out[0] = *(int*)bytes;  // WORD_READ_LINE
  }
}

// Every thread writes its own byte, then (after a barrier) reads words and float4s, then
// writes whole words, then reads bytes: clean, and the sums are exact.
__global__ void bytes_words_clean(int* out) {
  PKEMU_SHARED(buf, unsigned char[256]);
  unsigned t = threadIdx.x;
  buf[t] = (unsigned char)t;
  __syncthreads();
  unsigned sum = 0;
  if (t < 64) {
    unsigned w = ((unsigned*)buf)[t];
    sum = (w & 0xff) + (w >> 8 & 0xff) + (w >> 16 & 0xff) + (w >> 24);
  }
  if (t < 16) {
    uint4 v = ((uint4*)buf)[t];
    sum += (v.x & 0xff) + (v.w >> 24);
  }
  __syncthreads();
  if (t < 64) ((unsigned*)buf)[t] = 0x01010101u * t;
  __syncthreads();
  sum += buf[255 - t];
  out[t] = (int)sum;
}

// A word split by byte writes, joined again by thread 5's whole-word write; thread 70 then
// reads byte 2 of it without a barrier: a race with thread 5.
__global__ void join_then_byte(int* out) {
  PKEMU_SHARED(words, unsigned[16]);
  unsigned t = threadIdx.x;
  if (t < 4) ((unsigned char*)words)[t] = (unsigned char)t;
  if (t >= 4 && t < 16) words[t] = t;
  __syncthreads();
  if (t == 5) words[0] = 0x04030201u;
  __syncthreads();
  if (t == 5) words[0] = 0x08070605u;
  if (t == 70) out[0] = ((unsigned char*)words)[2];  // BYTE_READ_LINE
}

// Thread 33 writes the third float of a float4 that thread 1 then reads whole.
__global__ void float4_third_word(float* out) {
  PKEMU_SHARED(v, float4[4]);
  unsigned t = threadIdx.x;
  if (t < 16) ((float*)v)[t] = (float)t;
  __syncthreads();
  if (t == 33) ((float*)v)[2] = 2.5f;
  if (t == 1) {
    float4 x = v[0];  // FLOAT4_READ_LINE
    out[0] = x.x + x.y + x.z + x.w;
  }
}

// Dynamic shared memory of 5 bytes: byte 4 is written, then read as the first byte of a
// 4-byte word whose other three bytes lie outside it.
__global__ void odd_dynamic(int* out) {
  PKEMU_DYNAMIC_SHARED(dyn, unsigned char);
  if (threadIdx.x == 0) {
    dyn[4] = 1;
    out[0] = *(int*)(dyn + 4);  // ODD_READ_LINE
  }
}

int main(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "";
  int* out;
  cudaMallocManaged(&out, 256 * sizeof(int));
  if (!strcmp(s, "bytes-then-word")) {
    pkemu::launch(bytes_then_word, 1, 64, 0, 0, out);
  } else if (!strcmp(s, "clean")) {
    pkemu::launch(bytes_words_clean, 1, 256, 0, 0, out);
    cudaDeviceSynchronize();
    long total = 0;
    for (int t = 0; t < 256; ++t) total += out[t];
    printf("total=%ld\n", total);
  } else if (!strcmp(s, "join-then-byte")) {
    pkemu::launch(join_then_byte, 1, 96, 0, 0, out);
  } else if (!strcmp(s, "float4")) {
    pkemu::launch(float4_third_word, 1, 64, 0, 0, (float*)out);
  } else if (!strcmp(s, "odd-dynamic")) {
    pkemu::launch(odd_dynamic, 1, 32, 5, 0, out);
  } else {
    printf("unknown scenario\n");
    return 2;
  }
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
