// CPU reference for histogram256: adds to the existing counts.
#include <cstdint>

void histogram256_ref(const uint8_t *data, unsigned int *hist, int n) {
  for (int i = 0; i < n; ++i)
    ++hist[data[i]];
}
