//===- LiftMapEmit.cpp - an element-wise map as NKI tile operations -------===//
// Rules: PK5001, PK5007, PK5008
//
// A 2-D map puts rows on the partitions (tiles of 128) and columns on the
// free axis (chunks of 512); a 1-D map is read as whole rows of 512
// elements, 128 rows a tile, then the ragged tail (fewer than 512) as a
// one-partition tile.  Each tile loads its inputs, lowers the values of the
// outputs (TileLowering) and copies them to the outputs, which are
// allocated in shared HBM and returned in the kernel's parameter order.
//
//===----------------------------------------------------------------------===//
#include "LiftMap.h"

#include "clang/AST/Decl.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

std::optional<Refusal> nki::emitMap(TargetContext &TC, const FunctionDecl *FD,
                                    const MapSpec &S, Kernel &K) {
  (void)TC;
  const PyExpr &Ex = S.Ex, &Ey = S.Ey;
  K.Launch.insert(K.Launch.end(), S.Launch.begin(), S.Launch.end());
  // Shapes of the pointer parameters.
  std::map<std::string, std::string> HbmName;
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (!P->getType()->isPointerType()) {
      auto T = scalarDtypeOf(P->getType());
      if (!T)
        return Refusal{RuleId::PK5007, P->getLocation(),
                       llvm::formatv("parameter '{0}' of type '{1}' has no "
                                     "NKI dtype",
                                     P->getName(), P->getType().getAsString())
                           .str()};
      Pa.Ty = *T;
      K.Params.push_back(Pa);
      continue;
    }
    auto U = S.Uses.find(P);
    if (U == S.Uses.end())
      return Refusal{RuleId::PK5008, P->getLocation(),
                     llvm::formatv("pointer parameter '{0}' is never accessed "
                                   "as a tile, so its shape is not known",
                                   P->getName())
                         .str()};
    auto T = dtypeOf(P->getType()->getPointeeType());
    if (!T)
      return Refusal{RuleId::PK5007, P->getLocation(),
                     llvm::formatv("element type '{0}' has no NKI dtype",
                                   P->getType()->getPointeeType().getAsString())
                         .str()};
    Pa.IsTensor = true;
    Pa.Ty = *T;
    char Lay = U->second.Layout;
    if (Lay == 'e')
      Pa.Shape = S.TwoD ? std::vector<PyExpr>{Ey, Ex} : std::vector<PyExpr>{Ex};
    else if (Lay == 'r')
      Pa.Shape = {"1", Ex};
    else if (Lay == 'R')
      Pa.Shape = {U->second.Rows, Ex};
    else if (Lay == 'W')
      Pa.Shape = {Ey, U->second.Rows};
    else if (Lay == 'V')
      Pa.Shape = {"1", U->second.Rows};
    else
      Pa.Shape = {Ey, "1"};
    Pa.R = U->second.Written ? (U->second.Read ? Param::InOut : Param::Out)
                             : Param::In;
    HbmName[Pa.Name] = pyName(Pa.Name);
    K.Params.push_back(Pa);
  }
  Builder B(K.Body);
  for (const auto &[Cond, Why] : S.Checks)
    B.check(Cond, Why);
  // Outputs in shared HBM, returned in CUDA order.
  std::map<const ParmVarDecl *, std::string> OutName;
  for (size_t I = 0; I < FD->getNumParams(); ++I) {
    const Param &Pa = K.Params[I];
    if (!Pa.IsTensor || Pa.R == Param::In)
      continue;
    std::string N = pyName(Pa.Name) + (Pa.R == Param::InOut ? "_out" : "");
    Op O;
    O.Kind = OpKind::Alloc;
    O.Alloc = Tensor{N, Mem::HBM, Pa.Ty, Pa.Shape};
    B.op(O);
    OutName[FD->getParamDecl(I)] = N;
    K.Returns.push_back(N);
  }
  // The tile loops; the body is lowered once per loop nest.
  auto Body = [&]() {
    TileLowering TL(B, HbmName, S.TwoD);
    for (const auto &[P, V0] : S.Stores) {
      Operand V = TL.lower(V0);
      if (!V.IsTile) {
        std::string T = B.alloc("t", Mem::SBUF, V0->Ty, TL.tileShape());
        Op M;
        M.Kind = OpKind::Memset;
        M.Dst = TL.full(T);
        M.Srcs = {V};
        B.op(M);
        V = Operand::tile(TL.full(T));
      }
      Op O;
      O.Kind = OpKind::DmaCopy;
      O.Dst = TL.hbm(OutName[P]);
      O.Srcs = {V};
      B.op(O);
    }
  };
  if (S.TwoD) {
    B.chunks("p0", "p1", "np_", Ey, 128);
    B.chunks("f0", "f1", "nf_", Ex, 512);
    Body();
    B.close();
    B.close();
  } else {
    B.assign("full_", floorDiv(Ex, 512));
    B.open("r0", "0", "full_", "128");
    B.assign("np_", "min(128, full_ - r0)");
    B.assign("nf_", "512");
    B.assign("lo", "r0 * 512");
    B.assign("hi", "lo + np_ * 512");
    Body();
    B.close();
    B.open("lo", "full_ * 512", Ex, "512");
    B.assign("hi", Ex);
    B.assign("np_", "1");
    B.assign("nf_", "hi - lo");
    Body();
    B.close();
  }
  K.Family = S.Family;
  return std::nullopt;
}
