//===- LiftRowsIntMax.cpp - exact max and min of 32-bit integers ----------===//
// Rules: PK5001, PK5002
//
// The engines compare in float32, which holds an int32 exactly only below
// 2^24 in magnitude, so a max or min of int32 values (atomicMax/atomicMin
// of ints) is computed on 16-bit halves, each exact in float32:
//
//   u  = x ^ 0x80000000        (bitwise_xor: signed order becomes the
//                               unsigned order of the bit patterns)
//   hi = u >> 16, lo = u & 0xFFFF   (right_shift is logical: 0 .. 65535)
//   H  = max hi over the row;  L = max over the elements with hi == H of lo
//   result = ((H << 16) | L) ^ 0x80000000
//
// (min alike, with the elements off the mask pushed above 65535).  Two
// columns are combined by the same reduction over a [P, 2] tile.  uint32
// values are ordered as their bit patterns already: no xor, uint32 tiles.
//
//===----------------------------------------------------------------------===//
#include "LiftLower.h"

using namespace pk;
using namespace pk::nki;

namespace rowsint {

Access col(const std::string &T) {
  return Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
}

} // namespace rowsint

const char *nki::exactIntIdentity(bool Max, DType T) {
  if (T == DType::U32)
    return Max ? "0" : "4294967295";
  return Max ? "-2147483648" : "2147483647";
}

std::string nki::exactIntReduce(Builder &B, bool Max, DType T,
                                const Access &Tile, const PyExpr &NF,
                                const PyExpr &FSize) {
  using rowsint::col;
  auto Full = [&](const std::string &T) {
    return Access{T, {{"0", "np_"}, {"0", NF}}, {}};
  };
  auto Tl = [](Access A) { return Operand::tile(std::move(A)); };
  auto Sc = [](const char *S) { return Operand::scalar(S); };
  const bool Signed = T != DType::U32;
  // The bit patterns in unsigned order: int32 with the sign bit flipped,
  // uint32 as they are.
  Access U = Tile;
  if (Signed) {
    U = Full(B.alloc("u", Mem::SBUF, T, {"128", FSize}));
    B.op(OpKind::TensorScalar, U, {Tl(Tile), Sc("-2147483648")},
         "nl.bitwise_xor");
  }
  std::string H = B.alloc("hi", Mem::SBUF, T, {"128", FSize});
  B.op(OpKind::TensorScalar, Full(H), {Tl(U), Sc("16")}, "nl.right_shift");
  std::string L = B.alloc("lo", Mem::SBUF, T, {"128", FSize});
  B.op(OpKind::TensorScalar, Full(L), {Tl(U), Sc("65535")}, "nl.bitwise_and");
  const char *Fn = Max ? "nl.maximum" : "nl.minimum";
  std::string Hm = B.alloc("hm", Mem::SBUF, DType::F32, {"128", "1"});
  B.op(OpKind::Reduce, col(Hm), {Tl(Full(H))}, Fn);
  std::string Mk = B.alloc("mk", Mem::SBUF, DType::F32, {"128", FSize});
  B.op(OpKind::TensorScalar, Full(Mk), {Tl(Full(H)), Tl(col(Hm))}, "nl.equal");
  std::string K = B.alloc("lk", Mem::SBUF, DType::F32, {"128", FSize});
  if (Max) {
    // (lo + 1) on the mask, 0 off it: the max is L + 1.
    B.op(OpKind::TensorScalar, Full(K), {Tl(Full(L)), Sc("1.0")}, "nl.add");
    B.op(OpKind::TensorTensor, Full(K), {Tl(Full(K)), Tl(Full(Mk))},
         "nl.multiply");
  } else {
    // lo on the mask, lo + 65536 off it.
    B.op(OpKind::TensorScalar, Full(K), {Tl(Full(Mk)), Sc("-65536.0")},
         "nl.multiply");
    B.op(OpKind::TensorScalar, Full(K), {Tl(Full(K)), Sc("65536.0")}, "nl.add");
    B.op(OpKind::TensorTensor, Full(K), {Tl(Full(K)), Tl(Full(L))}, "nl.add");
  }
  std::string Lm = B.alloc("lm", Mem::SBUF, DType::F32, {"128", "1"});
  B.op(OpKind::Reduce, col(Lm), {Tl(Full(K))}, Fn);
  if (Max)
    B.op(OpKind::TensorScalar, col(Lm), {Tl(col(Lm)), Sc("1.0")},
         "nl.subtract");
  std::string R = B.alloc("r", Mem::SBUF, T, {"128", "1"});
  B.op(OpKind::TensorCopy, col(R), {Tl(col(Hm))});
  B.op(OpKind::TensorScalar, col(R), {Tl(col(R)), Sc("16")}, "nl.left_shift");
  std::string Lo = B.alloc("r", Mem::SBUF, T, {"128", "1"});
  B.op(OpKind::TensorCopy, col(Lo), {Tl(col(Lm))});
  B.op(OpKind::TensorTensor, col(R), {Tl(col(R)), Tl(col(Lo))},
       "nl.bitwise_or");
  if (Signed)
    B.op(OpKind::TensorScalar, col(R), {Tl(col(R)), Sc("-2147483648")},
         "nl.bitwise_xor");
  return R;
}

std::string nki::exactIntCombine(Builder &B, bool Max, DType T, const Access &A,
                                 const Access &C) {
  std::string Two = B.alloc("two", Mem::SBUF, T, {"128", "2"});
  B.op(OpKind::TensorCopy, Access{Two, {{"0", "np_"}, {"0", "1"}}, {}},
       {Operand::tile(A)});
  B.op(OpKind::TensorCopy, Access{Two, {{"0", "np_"}, {"1", "2"}}, {}},
       {Operand::tile(C)});
  return exactIntReduce(B, Max, T, Access{Two, {{"0", "np_"}, {"0", "2"}}, {}},
                        "2", "2");
}
