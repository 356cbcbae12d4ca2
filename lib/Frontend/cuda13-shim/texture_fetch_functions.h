// Empty on purpose: CUDA 13 removed this header, which clang 19 still includes.
