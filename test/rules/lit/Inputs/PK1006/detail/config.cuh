// Helper header of the PK1006 test, included from block_reduce.cuh.
#pragma once
#define REDUCE_BLOCK 256
