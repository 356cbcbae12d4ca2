//===- LiftSym.cpp - kernel-model values as seen by the NKI lifters -------===//
// Rules: PK5001
#include "LiftSym.h"
#include "Lift.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::km;

std::optional<std::string> nki::pySize(SymP S) {
  switch (S->K) {
  case SK::Int:
    return std::to_string(S->I);
  case SK::Param:
    if (S->D)
      return pyName(S->D->getName());
    return std::nullopt;
  case SK::GridDim:
    if (S->I == 0)
      return std::string("grid_x");
    return std::nullopt;
  case SK::Cast:
    if (S->isInt() && S->Ops[0]->isInt())
      return pySize(S->Ops[0]);
    return std::nullopt;
  case SK::Bin: {
    auto A = pySize(S->Ops[0]), C = pySize(S->Ops[1]);
    if (!A || !C || !S->isInt())
      return std::nullopt;
    if (S->Op == "+" || S->Op == "-" || S->Op == "*" || S->Op == "%")
      return "(" + *A + " " + S->Op.str() + " " + *C + ")";
    if (S->Op == "/")
      return "(" + *A + " // " + *C + ")";
    if (S->Op == "max" || S->Op == "min")
      return S->Op.str() + "(" + *A + ", " + *C + ")";
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

DType nki::dtypeOfSym(Ty T) {
  switch (T) {
  case Ty::F16:
    return DType::F16;
  case Ty::BF16:
    return DType::BF16;
  case Ty::U32:
    return DType::U32;
  case Ty::I32:
  case Ty::I64:
  case Ty::Bool:
    return DType::I32;
  default:
    return DType::F32;
  }
}
