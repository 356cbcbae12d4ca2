# Sourced by the benchmarks that compare a port with a bare clang parse
# (bench-translate.sh, bench-scale.sh): the flags port-kernel parses CUDA with
# (lib/Frontend/Frontend.cpp), so that the bare parse reads the same headers.
#
#   clang_cuda_flags BIN CLANGXX WORKDIR ROOT
#
# sets FLAGS (an array of clang++ flags) and DECLS (which declarations:
# the installed CUDA toolkit that port-kernel found, else its bundled ones).
clang_cuda_flags() {
  local bin="$1" clangxx="$2" work="$3" root="$4" res probe cuda
  res="$("$clangxx" -print-resource-dir)"
  FLAGS=(-resource-dir="$res" -x cuda --cuda-host-only -nocudalib --cuda-gpu-arch=sm_90 -std=c++17)
  probe="$("$bin" port --to cuda -v -o "$work/probe-out" "$root/corpus/saxpy/saxpy.cu" 2>&1 || true)"
  cuda="$(sed -n 's/.*parsing CUDA with the CUDA toolkit at \(.*\)$/\1/p' <<<"$probe" | head -1)"
  if [ -n "$cuda" ]; then
    FLAGS+=(--cuda-path="$cuda" -Wno-unknown-cuda-version -isystem "$root/lib/Frontend/cuda13-shim")
    [ -d "$cuda/include/cccl" ] && FLAGS+=(-isystem "$cuda/include/cccl")
    FLAGS+=(-include __pk_nvcc_compat.h)
    DECLS="CUDA toolkit $cuda"
  else
    FLAGS+=(-nocudainc --cuda-path=/nonexistent -isystem "$root/lib/Frontend/cuda-decls"
            -isystem "$root/lib/Frontend/cuda13-shim" -include __pk_cuda_prelude.h -include __pk_nvcc_compat.h)
    DECLS="bundled CUDA declarations"
  fi
  FLAGS+=(-w -ferror-limit=20)
}
