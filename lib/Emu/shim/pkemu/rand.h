//===- rand.h - generators behind the cuRAND and hipRAND shims --*- C++ -*-===//
// Rules: none (emulator runtime)
//
// The host API of cuRAND and hipRAND for the emulator: a counter-based CPU
// generator (SplitMix64 of the seed and the element's position in the
// generator's sequence).  Every generator kind draws from it: the numbers
// are not those of a GPU's XORWOW or Philox, but the original program and
// its ports see the same numbers for the same seed, so their outputs can be
// compared, and a run is reproducible.  Uniform values lie in (0, 1] as in
// cuRAND; normal values come from Box-Muller on pairs of uniforms, so (as
// cuRAND requires of pseudo-random generators) their count must be even.
// Successive calls continue the sequence; a new seed or offset restarts it.
//
//===----------------------------------------------------------------------===//
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "vector_types.h" // PKEMU_HD: the device API (rand_device.h) mixes too

namespace pkemu {
namespace rand {

enum Status { kOk = 0, kLengthNotMultiple = 1, kNotInitialized = 2 };

struct Generator {
  std::uint64_t seed = 0;
  std::uint64_t position = 0; ///< the next element's index in the sequence
  void *stream = nullptr;
};

PKEMU_HD inline std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
inline std::uint64_t bits(const Generator &g, std::uint64_t i) {
  return mix(mix(g.seed) ^ i);
}
PKEMU_HD inline float uniform(std::uint64_t b) {
  return ((b >> 40) + 1) * (1.0f / 16777216.0f);
}
PKEMU_HD inline double uniform_double(std::uint64_t b) {
  return ((b >> 11) + 1) * (1.0 / 9007199254740992.0);
}

template <class T> struct Out {
  // The output is device (or host) memory the library writes, not a kernel.
  __attribute__((no_sanitize("thread"))) static void put(T *p, std::size_t i,
                                                         T v) {
    p[i] = v;
  }
};

__attribute__((no_sanitize("thread"))) inline int
generate_bits(Generator &g, unsigned *out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    Out<unsigned>::put(out, i, (unsigned)bits(g, g.position + i));
  g.position += n;
  return kOk;
}

template <class T>
__attribute__((no_sanitize("thread"))) int
generate_uniform(Generator &g, T *out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t b = bits(g, g.position + i);
    Out<T>::put(out, i, sizeof(T) == 4 ? (T)uniform(b) : (T)uniform_double(b));
  }
  g.position += n;
  return kOk;
}

template <class T>
__attribute__((no_sanitize("thread"))) int
generate_normal(Generator &g, T *out, std::size_t n, T mean, T stddev,
                bool log_normal) {
  if (n % 2)
    return kLengthNotMultiple;
  for (std::size_t i = 0; i < n; i += 2) {
    double u1 = uniform_double(bits(g, g.position + i));
    double u2 = uniform_double(bits(g, g.position + i + 1));
    double r = std::sqrt(-2.0 * std::log(u1)), t = 6.283185307179586 * u2;
    double z0 = mean + stddev * r * std::cos(t),
           z1 = mean + stddev * r * std::sin(t);
    if (log_normal) {
      z0 = std::exp(z0);
      z1 = std::exp(z1);
    }
    Out<T>::put(out, i, (T)z0);
    Out<T>::put(out, i + 1, (T)z1);
  }
  g.position += n;
  return kOk;
}

} // namespace rand
} // namespace pkemu
