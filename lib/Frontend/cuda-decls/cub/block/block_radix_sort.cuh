/* block/block_radix_sort.cuh: bundled CUB declarations (all of them are in cub/cub.cuh). */
#include <cub/cub.cuh>
