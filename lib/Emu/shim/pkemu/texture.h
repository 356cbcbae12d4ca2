//===- texture.h - texture objects: arrays, sampling, fetches ---*- C++ -*-===//
// Rules: none (emulator runtime)
//
// Texture objects of the CUDA runtime (cudaCreateTextureObject, tex1Dfetch,
// tex1D, tex2D, tex3D) and HIP's (the same under hip names; cuda_api.h and
// hip_api.h spell the API over this engine). A texture object is a number
// that indexes a table of descriptions and is never reused, so that a
// launch's arguments change when its texture does (replay.cpp compares
// them). Arrays (cudaMallocArray, cudaMalloc3DArray) are device buffers, so
// that replay compares their contents too.
//
// Sampling follows the CUDA C++ Programming Guide's "Texture Fetching": with
// unnormalised coordinates x in [0, N); normalised ones are scaled by N.
// Point filtering reads texel floor(x). Linear filtering reads texels i and
// i + 1 of xB = x - 0.5, i = floor(xB), and weighs them by a = frac(xB) kept
// as a 9-bit fixed-point number with 8 fractional bits (rounded to nearest
// here): (1 - a) T[i] + a T[i + 1], per dimension. Out-of-range texels
// follow the address mode: clamp (the edge texel), border (the border
// colour), wrap and mirror (normalised coordinates only). Read mode
// "normalized float" maps 8- and 16-bit integers to [0, 1] (unsigned) or
// [-1, 1] (signed). tex1Dfetch reads linear memory by integer index; an
// index outside it reads 0.
//
// Fetches read texture memory without the memory hooks: texture reads go
// through the read-only cache and are never part of a data race.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include <cstdio>

#include "../../include/pkemu/runtime.h"
#include "fp16.h"
#include "vector_types.h"

// The engine reads host memory (the object table) and texture memory
// without the memory hooks; kernels call it (it is not inlined into them).
#define PKEMU_TEX_FN __attribute__((no_sanitize("thread"))) inline

namespace pkemu {
namespace tex {

enum Kind { kSigned = 0, kUnsigned = 1, kFloat = 2, kNone = 3 };
enum Address { kWrap = 0, kClamp = 1, kMirror = 2, kBorder = 3 };
enum Resource { kArray = 0, kMipmapped = 1, kLinear = 2, kPitch2D = 3 };

// A channel format: bits per channel (x, y, z, w) and their kind.
struct Format {
  int bits[4] = {0, 0, 0, 0};
  int kind = kNone;
  PKEMU_TEX_FN int bytes() const {
    return (bits[0] + bits[1] + bits[2] + bits[3]) / 8;
  }
};

// A cudaArray / hipArray: a device buffer of width x height x depth texels.
struct Array {
  Format fmt;
  std::size_t width = 0, height = 0, depth = 0;
  unsigned flags = 0;
  unsigned char *data = nullptr;
  PKEMU_TEX_FN std::size_t row_bytes() const {
    return width * (std::size_t)fmt.bytes();
  }
};

// What a texture object samples and how.
struct Object {
  Format fmt;
  const unsigned char *data = nullptr;
  std::size_t width = 1, height = 1, depth = 1, pitch = 0, slice = 0;
  int dims = 1;
  bool linear_resource = false; // tex1Dfetch's linear memory
  int address[3] = {kWrap, kWrap, kWrap};
  bool linear_filter = false;
  bool normalized_read = false;
  bool normalized_coords = false;
  float border[4] = {0, 0, 0, 0};
};

// The table of texture objects; an object's number is its index + 1.
// Fetches read it without a lock (chunks of entries that never move);
// creation and destruction take the lock.
struct Table {
  static constexpr std::size_t kChunk = 1024, kChunks = 4096;
  std::mutex mu;
  std::size_t count = 0;
  std::atomic<std::atomic<Object *> *> chunks[kChunks] = {};
};
PKEMU_TEX_FN Table &table() {
  static Table *t = new Table;
  return *t;
}
PKEMU_TEX_FN std::uint64_t create(const Object &o) {
  Table &t = table();
  std::lock_guard<std::mutex> lk(t.mu);
  const std::size_t i = t.count;
  if (i >= Table::kChunk * Table::kChunks)
    return 0;
  std::atomic<Object *> *c =
      t.chunks[i / Table::kChunk].load(std::memory_order_relaxed);
  if (!c) {
    c = new std::atomic<Object *>[Table::kChunk]();
    t.chunks[i / Table::kChunk].store(c, std::memory_order_release);
  }
  c[i % Table::kChunk].store(new Object(o), std::memory_order_release);
  t.count = i + 1;
  return (std::uint64_t)i + 1;
}
PKEMU_TEX_FN const Object *find(std::uint64_t h) {
  if (!h || h > Table::kChunk * Table::kChunks)
    return nullptr;
  const std::size_t i = (std::size_t)h - 1;
  std::atomic<Object *> *c =
      table().chunks[i / Table::kChunk].load(std::memory_order_acquire);
  return c ? c[i % Table::kChunk].load(std::memory_order_acquire) : nullptr;
}
PKEMU_TEX_FN bool destroy(std::uint64_t h) {
  Table &t = table();
  std::lock_guard<std::mutex> lk(t.mu);
  if (!h || h > t.count)
    return false;
  const std::size_t i = (std::size_t)h - 1;
  std::atomic<Object *> &e = t.chunks[i / Table::kChunk].load(
      std::memory_order_relaxed)[i % Table::kChunk];
  // The object stays allocated: a kernel of another host thread may still
  // read it; the number is not given out again.
  return e.exchange(nullptr, std::memory_order_acq_rel) != nullptr;
}

// One channel of a texel, as stored.
PKEMU_TEX_FN double channel(const unsigned char *p, int bits, int kind) {
  switch (bits) {
  case 8:
    return kind == kSigned ? (double)*(const std::int8_t *)p
                           : (double)*(const std::uint8_t *)p;
  case 16: {
    if (kind == kFloat) {
      __half h;
      std::memcpy(&h, p, 2);
      return (double)(float)h;
    }
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return kind == kSigned ? (double)(std::int16_t)v : (double)v;
  }
  case 32: {
    if (kind == kFloat) {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return kind == kSigned ? (double)(std::int32_t)v : (double)v;
  }
  default:
    return 0;
  }
}

struct Texel {
  double c[4] = {0, 0, 0, 0};
};

// Texel (i, j, k), or the border colour outside the texture.
PKEMU_TEX_FN Texel texel(const Object &o, long i, long j, long k) {
  Texel t;
  if (i < 0 || j < 0 || k < 0 || (std::size_t)i >= o.width ||
      (std::size_t)j >= o.height || (std::size_t)k >= o.depth) {
    for (int c = 0; c < 4; ++c)
      t.c[c] = o.border[c];
    return t;
  }
  const unsigned char *p = o.data + (std::size_t)k * o.slice +
                           (std::size_t)j * o.pitch +
                           (std::size_t)i * (std::size_t)o.fmt.bytes();
  for (int c = 0; c < 4 && o.fmt.bits[c]; ++c) {
    t.c[c] = channel(p, o.fmt.bits[c], o.fmt.kind);
    p += o.fmt.bits[c] / 8;
  }
  if (o.normalized_read && o.fmt.kind != kFloat)
    for (int c = 0; c < 4; ++c) {
      const int b = o.fmt.bits[c];
      if (b != 8 && b != 16)
        continue;
      const double most = o.fmt.kind == kSigned ? (b == 8 ? 127.0 : 32767.0)
                                                : (b == 8 ? 255.0 : 65535.0);
      t.c[c] = std::fmax(t.c[c] / most, -1.0);
    }
  return t;
}

// An index along one dimension of n texels under an address mode (normalised
// coordinates wrap and mirror; the others clamp or meet the border).
PKEMU_TEX_FN long address(long i, std::size_t n, int mode, bool *border) {
  const long N = (long)n;
  switch (mode) {
  case kWrap: {
    long r = i % N;
    return r < 0 ? r + N : r;
  }
  case kMirror: {
    long r = i % (2 * N);
    if (r < 0)
      r += 2 * N;
    return r < N ? r : 2 * N - 1 - r;
  }
  case kBorder:
    if (i < 0 || i >= N)
      *border = true;
    return i;
  default:
    return i < 0 ? 0 : (i >= N ? N - 1 : i);
  }
}

// Wrap and mirror apply to normalised coordinates only; otherwise clamp.
PKEMU_TEX_FN int mode(const Object &o, int d) {
  const int m = o.address[d];
  if (!o.normalized_coords && (m == kWrap || m == kMirror))
    return kClamp;
  return m;
}

PKEMU_TEX_FN Texel at(const Object &o, const long idx[3]) {
  bool border = false;
  long i[3];
  const std::size_t n[3] = {o.width, o.height, o.depth};
  for (int d = 0; d < 3; ++d)
    i[d] = d < o.dims ? address(idx[d], n[d], mode(o, d), &border) : 0;
  if (border) {
    Texel t;
    for (int c = 0; c < 4; ++c)
      t.c[c] = o.border[c];
    return t;
  }
  return texel(o, i[0], i[1], i[2]);
}

// The 8-bit fraction of linear filtering.
PKEMU_TEX_FN float weight(float f) {
  return std::nearbyint(f * 256.0f) / 256.0f;
}

PKEMU_TEX_FN Texel sample(const Object &o, float x, float y, float z) {
  float u[3] = {x, y, z};
  const std::size_t n[3] = {o.width, o.height, o.depth};
  if (o.normalized_coords)
    for (int d = 0; d < o.dims; ++d)
      u[d] *= (float)n[d];
  if (!o.linear_filter) {
    long idx[3];
    for (int d = 0; d < 3; ++d)
      idx[d] = (long)std::floor(u[d]);
    return at(o, idx);
  }
  long base[3] = {0, 0, 0};
  float a[3] = {0, 0, 0};
  for (int d = 0; d < o.dims; ++d) {
    const float b = u[d] - 0.5f;
    const float fl = std::floor(b);
    base[d] = (long)fl;
    a[d] = weight(b - fl);
  }
  Texel r;
  const int corners = 1 << o.dims;
  for (int m = 0; m < corners; ++m) {
    long idx[3];
    float w = 1.0f;
    for (int d = 0; d < 3; ++d) {
      const int up = d < o.dims ? (m >> d) & 1 : 0;
      idx[d] = base[d] + up;
      if (d < o.dims)
        w *= up ? a[d] : 1.0f - a[d];
    }
    const Texel t = at(o, idx);
    for (int c = 0; c < 4; ++c)
      r.c[c] = (double)((float)r.c[c] + w * (float)t.c[c]);
  }
  return r;
}

// The element type and channel count of a texel type (cudaCreateChannelDesc).
template <class T> struct Element {
  using type = T;
  static constexpr int n = 1;
};
#define PKEMU_TEX_EL(V, E, N)                                                  \
  template <> struct Element<V> {                                              \
    using type = E;                                                            \
    static constexpr int n = N;                                                \
  };
#define PKEMU_TEX_ELS(P, E)                                                    \
  PKEMU_TEX_EL(P##1, E, 1) PKEMU_TEX_EL(P##2, E, 2) PKEMU_TEX_EL(P##4, E, 4)
PKEMU_TEX_ELS(char, signed char)
PKEMU_TEX_ELS(uchar, unsigned char)
PKEMU_TEX_ELS(short, short)
PKEMU_TEX_ELS(ushort, unsigned short)
PKEMU_TEX_ELS(int, int)
PKEMU_TEX_ELS(uint, unsigned int)
PKEMU_TEX_ELS(float, float)
#undef PKEMU_TEX_ELS
#undef PKEMU_TEX_EL

// The texel as the type the fetch asks for: a scalar takes channel x, a
// vector its channels in order.
template <class T> struct As {
  PKEMU_TEX_FN static T get(const Texel &t) { return (T)t.c[0]; }
};
#define PKEMU_TEX_VEC(V, E, N)                                                 \
  template <> struct As<V> {                                                   \
    PKEMU_TEX_FN static V get(const Texel &t) {                                \
      V v;                                                                     \
      E *p = reinterpret_cast<E *>(&v);                                        \
      for (int c = 0; c < N; ++c)                                              \
        p[c] = (E)t.c[c];                                                      \
      return v;                                                                \
    }                                                                          \
  };
#define PKEMU_TEX_VECS(P, E)                                                   \
  PKEMU_TEX_VEC(P##1, E, 1)                                                    \
  PKEMU_TEX_VEC(P##2, E, 2) PKEMU_TEX_VEC(P##4, E, 4)
PKEMU_TEX_VECS(char, signed char)
PKEMU_TEX_VECS(uchar, unsigned char)
PKEMU_TEX_VECS(short, short)
PKEMU_TEX_VECS(ushort, unsigned short)
PKEMU_TEX_VECS(int, int)
PKEMU_TEX_VECS(uint, unsigned int)
PKEMU_TEX_VECS(float, float)
#undef PKEMU_TEX_VECS
#undef PKEMU_TEX_VEC
template <> struct As<__half> {
  PKEMU_TEX_FN static __half get(const Texel &t) {
    return __half((float)t.c[0]);
  }
};

// A fetch through a number that names no texture object reads zeros and is
// reported (the device would read garbage or fault).
[[noreturn]] inline void bad_object(std::uint64_t h) {
  char msg[160];
  std::snprintf(msg, sizeof msg,
                "texture fetch through %llu, which names no live texture "
                "object (never created, or destroyed)",
                (unsigned long long)h);
  ::pkemu::detail::fatal("invalid texture object", msg, nullptr, 0);
}
// tex1Dfetch: texel i of linear memory; outside it, zeros.
PKEMU_TEX_FN Texel fetch(const Object &o, int i) {
  Texel t;
  if (i >= 0 && (std::size_t)i < o.width)
    t = texel(o, i, 0, 0);
  return t;
}
PKEMU_TEX_FN const Object &object(std::uint64_t h) {
  const Object *o = find(h);
  if (!o)
    bad_object(h);
  return *o;
}

} // namespace tex
} // namespace pkemu

template <class T> PKEMU_HD inline T tex1Dfetch(unsigned long long h, int i) {
  return pkemu::tex::As<T>::get(pkemu::tex::fetch(pkemu::tex::object(h), i));
}
template <class T> PKEMU_HD inline T tex1D(unsigned long long h, float x) {
  return pkemu::tex::As<T>::get(
      pkemu::tex::sample(pkemu::tex::object(h), x, 0.5f, 0.5f));
}
template <class T>
PKEMU_HD inline T tex2D(unsigned long long h, float x, float y) {
  return pkemu::tex::As<T>::get(
      pkemu::tex::sample(pkemu::tex::object(h), x, y, 0.5f));
}
template <class T>
PKEMU_HD inline T tex3D(unsigned long long h, float x, float y, float z) {
  return pkemu::tex::As<T>::get(
      pkemu::tex::sample(pkemu::tex::object(h), x, y, z));
}
// The forms that return through a pointer.
template <class T>
PKEMU_HD inline void tex1Dfetch(T *r, unsigned long long h, int i) {
  *r = tex1Dfetch<T>(h, i);
}
template <class T>
PKEMU_HD inline void tex1D(T *r, unsigned long long h, float x) {
  *r = tex1D<T>(h, x);
}
template <class T>
PKEMU_HD inline void tex2D(T *r, unsigned long long h, float x, float y) {
  *r = tex2D<T>(h, x, y);
}
template <class T>
PKEMU_HD inline void tex3D(T *r, unsigned long long h, float x, float y,
                           float z) {
  *r = tex3D<T>(h, x, y, z);
}
