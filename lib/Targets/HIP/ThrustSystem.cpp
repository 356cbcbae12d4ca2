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
    bool InInclude = false;
    // Past the end, tokens read as an end-of-file token with no text
    // (RawTokenCursor): no lookahead below needs a bounds check.
    for (RawTokenCursor C(TC, Buf); !C.done(); C.advance()) {
      auto Scope = [&](int K) { // `::` after token K
        return C[K + 1].Kind == tok::coloncolon;
      };
      if (C[0].StartOfLine)
        InInclude =
            C[0].Kind == tok::hash && C[1].Text.starts_with("include");
      if (InInclude)
        continue;
      if (C[0].Text == "THRUST_DEVICE_SYSTEM_CUDA") {
        TC.edit(File, C[0].Offset, C[0].Length, "THRUST_DEVICE_SYSTEM_HIP",
                RuleId::PK1030,
                "THRUST_DEVICE_SYSTEM_CUDA -> THRUST_DEVICE_SYSTEM_HIP: the "
                "device system of a rocThrust build is HIP, so the branch "
                "that was translated is kept");
        continue;
      }
      // thrust::cuda, thrust::cuda_cub, thrust::system::cuda; not a member
      // or another scope's `thrust` (x.thrust::, ns::thrust::).
      if (C[0].Text != "thrust" || !Scope(0) || C[2].Kind == tok::eof)
        continue;
      if (C[-1].Kind == tok::coloncolon || C[-1].Kind == tok::period ||
          C[-1].Kind == tok::arrow)
        continue;
      int J = 2;
      if (C[J].Text == "system" && Scope(J) && C[J + 2].Kind != tok::eof)
        J += 2;
      const RawToken &NameTok = C[J];
      llvm::StringRef Name = NameTok.Text;
      llvm::StringRef New = Name == "cuda"       ? "hip"
                            : Name == "cuda_cub" ? "hip_rocprim"
                                                 : "";
      if (New.empty() || (J != 2 && Name != "cuda"))
        continue;
      std::string Qual = J == 2 ? "thrust::" : "thrust::system::";
      TC.edit(File, NameTok.Offset, NameTok.Length, New, RuleId::PK1030,
              llvm::formatv("{0}{1} -> {0}{2}: rocThrust's HIP system has "
                            "the CUDA system's execution policies and "
                            "types under that name",
                            Qual, Name, New)
                  .str());
      C.advance(J);
    }
  }
}
