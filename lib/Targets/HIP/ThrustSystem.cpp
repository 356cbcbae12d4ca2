//===- ThrustSystem.cpp - Thrust's CUDA system -> rocThrust's HIP system --===//
// Rules: PK1030
//
// rocThrust keeps Thrust's headers, namespace and algorithms: `thrust::sort`,
// `thrust::device_vector` and `<thrust/reduce.h>` port unchanged.  What names
// the CUDA backend does not exist in a ROCm build, and has a HIP twin of the
// same shape:
//
//   thrust::cuda::X            ->  thrust::hip::X       (par, par_nosync, ...)
//   thrust::system::cuda::X    ->  thrust::system::hip::X
//   thrust::cuda_cub::X        ->  thrust::hip_rocprim::X
//   THRUST_DEVICE_SYSTEM_CUDA  ->  THRUST_DEVICE_SYSTEM_HIP
//
// (the headers <thrust/system/cuda/*.h> are PK1020's table).  The macro is
// the device system the port builds for, as __CUDACC__ becomes __HIP__
// (PK1026): `#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA` keeps the
// branch that was translated.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"
#include <vector>

using namespace pk;
using namespace clang;

void pk::hip::portThrustSystem(TargetContext &TC) {
  for (const std::string &File : TC.PF.UserFiles) {
    llvm::StringRef Buf = TC.contents(File);
    if (!Buf.contains("thrust") && !Buf.contains("THRUST_DEVICE_SYSTEM_CUDA"))
      continue;
    std::vector<RawToken> T = rawTokens(TC, Buf);
    bool InInclude = false;
    auto Scope = [&](size_t I) { // `::` after token I
      return I + 1 < T.size() && T[I + 1].Kind == tok::coloncolon;
    };
    for (size_t I = 0; I < T.size(); ++I) {
      if (T[I].StartOfLine)
        InInclude = T[I].Kind == tok::hash && I + 1 < T.size() &&
                    T[I + 1].Text.starts_with("include");
      if (InInclude)
        continue;
      if (T[I].Text == "THRUST_DEVICE_SYSTEM_CUDA") {
        TC.edit(File, T[I].Offset, T[I].Length, "THRUST_DEVICE_SYSTEM_HIP",
                RuleId::PK1030,
                "THRUST_DEVICE_SYSTEM_CUDA -> THRUST_DEVICE_SYSTEM_HIP: the "
                "device system of a rocThrust build is HIP, so the branch "
                "that was translated is kept");
        continue;
      }
      // thrust::cuda, thrust::cuda_cub, thrust::system::cuda; not a member
      // or another scope's `thrust` (x.thrust::, ns::thrust::).
      if (T[I].Text != "thrust" || !Scope(I) || I + 2 >= T.size())
        continue;
      if (I > 0 && (T[I - 1].Kind == tok::coloncolon ||
                    T[I - 1].Kind == tok::period || T[I - 1].Kind == tok::arrow))
        continue;
      size_t J = I + 2;
      if (T[J].Text == "system" && Scope(J) && J + 2 < T.size())
        J += 2;
      llvm::StringRef Name = T[J].Text;
      llvm::StringRef New = Name == "cuda"       ? "hip"
                            : Name == "cuda_cub" ? "hip_rocprim"
                                                 : "";
      if (New.empty() || (J != I + 2 && Name != "cuda"))
        continue;
      std::string Qual = J == I + 2 ? "thrust::" : "thrust::system::";
      TC.edit(File, T[J].Offset, T[J].Length, New, RuleId::PK1030,
              llvm::formatv("{0}{1} -> {0}{2}: rocThrust's HIP system has "
                            "the CUDA system's execution policies and "
                            "types under that name",
                            Qual, Name, New)
                  .str());
      I = J;
    }
  }
}
