/* device/device_reduce.cuh: bundled CUB declarations (all of them are in cub/cub.cuh). */
#include <cub/cub.cuh>
