// Rules: none (emulator runtime): the collectives are in cub/cub.cuh
#include "../cub.cuh"
