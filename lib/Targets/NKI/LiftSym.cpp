//===- LiftSym.cpp - kernel-model values as seen by the NKI lifters -------===//
// Rules: PK5001
#include "LiftSym.h"
#include "Lift.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::km;

std::optional<PyExpr> nki::pySize(SymP S) {
  switch (S->K) {
  case SK::Int:
    return PyExpr::integer(S->I);
  case SK::Param:
    if (S->D)
      return PyExpr::name(pyName(S->D->getName()));
    return std::nullopt;
  case SK::GridDim:
    if (S->I == 0)
      return PyExpr::name("grid_x");
    return std::nullopt;
  case SK::Cast:
    if (S->isInt() && S->Ops[0]->isInt())
      return pySize(S->Ops[0]);
    return std::nullopt;
  case SK::Bin: {
    auto A = pySize(S->Ops[0]), C = pySize(S->Ops[1]);
    if (!A || !C || !S->isInt())
      return std::nullopt;
    // Sizes are not negative: C's truncating / and % are Python's // and %.
    if (S->Op == "+" || S->Op == "-" || S->Op == "*" || S->Op == "%")
      return PyExpr::binary(S->Op, *A, *C);
    if (S->Op == "/")
      return floorDiv(*A, *C);
    if (S->Op == "max")
      return PyExpr::max(*A, *C);
    if (S->Op == "min")
      return PyExpr::min(*A, *C);
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
