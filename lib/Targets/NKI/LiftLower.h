//===- LiftLower.h - element trees to tile operations ---------------------===//
// Rules: PK5001
//
// What every lifter lowers to: a per-element value as a tree (Node) of
// loads, scalars, per-row columns and operations, and TileLowering, which
// emits the tile operations computing it for one tile of rows (partitions
// p0:p1) and columns (free f0:f1) with the Builder.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTLOWER_H
#define PK_NKI_LIFTLOWER_H

#include "TileProgram.h"
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace pk {
namespace nki {

/// A per-element value: a tree built from loads, scalars and operations.
struct Node {
  /// Ref: a per-row value already in a (P, 1) column tile named Name.
  /// Row: a row of values in the SBUF tile Name ([128, cols]), the chunk
  /// [0:np_, f0:f1] in a column loop.  Dot: the staged row times the
  /// matrix Name, sum over d < Depth of row[d] * Name[c, d] (Layout 'k':
  /// Name[d, c]), with the staged row transposed in the tile Stat ([Depth,
  /// np_]).
  /// ColSum: the sum over the rows r < Depth of A, whose loads ('R') read
  /// down the columns of the tile (nc_matmul with a column of ones).
  /// RowRed: Fn (nl.add, nl.maximum, nl.minimum) over the columns c <
  /// Depth of A, whose loads ('W') read along the tile's rows.
  /// RowArg: the first (Fn nl.minimum) or the last (nl.maximum) column c <
  /// Depth at which A (loads 'W') equals the per-row value B, or Name (the
  /// kernel model's ArgNone or ArgLow) in a row where none does.
  // clang-format off
  enum Kind {
    Load, Scalar, Bin, Unary, Cast, Ref, Row, Dot, ColSum, RowRed, RowArg,
    AffSel, Index
  } K = Scalar;
  // clang-format on
  DType Ty = DType::F32;
  std::string Name; ///< Load: parameter; Ref, Row, Dot: tile; RowArg: none
  PyExpr Val;       ///< Scalar: the value (a number)
  /// Load: 'e' own element, 'r' row (gx), 'c' column (gy), 'R' the rows
  /// r0:r1 of the tile's columns (inside a ColSum).
  char Layout = 'e';
  std::string Fn;    ///< Bin/Unary: nl op
  bool Reverse = false;
  std::shared_ptr<Node> A, B;
  std::string Stat; ///< Dot
  PyExpr Depth;     ///< Dot, ColSum, RowRed, RowArg
  /// Index: the element's column (Layout 'c': ColLo + x) or row ('r':
  /// RowLo + p) as a float32 value, by nisa.iota.
  /// AffSel: A where Offset + p - x Fn 0 (p the partition, x the free
  /// element; Fn an nl comparison), else the scalar Val.
  PyExpr Offset;
};
using NodeP = std::shared_ptr<Node>;

/// Whether \p V is written 0 or 0.0 (a sum's start that every thread can
/// share).
inline bool isZeroText(const PyExpr &V) {
  std::string T = V.py();
  return T == "0" || T == "0.0";
}

/// A scalar leaf (a Python expression) and a binary operation (an nl
/// function) of element trees.
inline NodeP scalarLeaf(const PyExpr &Val, DType Ty = DType::F32) {
  auto N = std::make_shared<Node>();
  N->K = Node::Scalar;
  N->Val = Val;
  N->Ty = Ty;
  return N;
}
inline NodeP binNode(std::string Fn, NodeP A, NodeP B) {
  auto N = std::make_shared<Node>();
  N->K = Node::Bin;
  N->Fn = std::move(Fn);
  N->A = std::move(A);
  N->B = std::move(B);
  return N;
}
/// An arg-reduction's single pair `v0 == best ? i0 : None` (None the
/// kernel model's ArgNone or ArgLow) as a tree: the 0/1 mask of V == Best
/// times (i0 - None), plus None; exact in float32 (integers below 2^25).
inline NodeP argPairNode(NodeP V, NodeP Best, const PyExpr &I0, int64_t None) {
  return binNode(
      "nl.add",
      binNode("nl.multiply", binNode("nl.equal", std::move(V), std::move(Best)),
              scalarLeaf(PyExpr::call("float", {I0 - PyExpr(None)}))),
      scalarLeaf(PyExpr::real(double(None))));
}

//===----------------------------------------------------------------------===//
// From the element-wise model to the tile program.
//===----------------------------------------------------------------------===//

/// Loads Src (NRows x NCols, both at most 128) into SBUF and transposes it
/// there through PSUM (nc_transpose, tensor_copy): returns the SBUF tile
/// whose [0:NCols, 0:NRows] holds Src transposed.
inline std::string loadTransposed(Builder &B, Access Src, const PyExpr &NRows,
                                  const PyExpr &NCols, DType Ty,
                                  const std::string &Prefix) {
  std::string In = B.alloc(Prefix + "s", Mem::SBUF, Ty, {128, 128});
  Op L;
  L.Kind = OpKind::DmaCopy;
  L.Dst = Access{In, {{0, NRows}, {0, NCols}}, {}};
  L.Srcs = {Operand::tile(std::move(Src))};
  B.op(L);
  std::string Ps = B.alloc(Prefix + "t", Mem::PSUM, Ty, {128, 128});
  Op T;
  T.Kind = OpKind::Transpose;
  T.Dst = Access{Ps, {{0, NCols}, {0, NRows}}, {}};
  T.Srcs = {Operand::tile(L.Dst)};
  B.op(T);
  std::string Out = B.alloc(Prefix + "t", Mem::SBUF, Ty, {128, 128});
  Op C;
  C.Kind = OpKind::TensorCopy;
  C.Dst = Access{Out, {{0, NCols}, {0, NRows}}, {}};
  C.Srcs = {Operand::tile(T.Dst)};
  B.op(C);
  return Out;
}

/// The exact max (\p Max) or min of the int32 or uint32 (\p T) tile
/// \p Tile ([0:np_, 0:NF] of tiles FSize wide) into a new (P, 1) column of
/// \p T, returned (LiftRowsIntMax.cpp: on 16-bit halves, exact in float32).
std::string exactIntReduce(Builder &B, bool Max, DType T, const Access &Tile,
                           const PyExpr &NF, const PyExpr &FSize);
/// The exact max or min of two (P, 1) columns of \p T, a new column.
std::string exactIntCombine(Builder &B, bool Max, DType T, const Access &A,
                            const Access &C);
/// The identity of an exact max (\p Max) or min of \p T (int32 or
/// uint32): the smallest or the largest value, as the memset literal.
const char *exactIntIdentity(bool Max, DType T);

class TileLowering {
public:
  TileLowering(Builder &B, const std::map<std::string, std::string> &HbmName,
               bool TwoD)
      : B(B), HbmName(HbmName), TwoD(TwoD) {}

  Builder &B;
  const std::map<std::string, std::string> &HbmName;
  bool TwoD;
  std::map<const Node *, Operand> Done;
  std::string Ones; ///< the [1, 128] tile of ones for row broadcasts

  /// The partitions [PLo, PHi) and the free elements [0, FHi) of a tile
  /// that hold values, and the free size of the tiles.
  PyExpr PLo = 0, PHi = PyExpr::name("np_"), FHi = PyExpr::name("nf_"),
         FSize = 512;
  /// The HBM rows and columns of a 2-D tile ('e' loads and stores).
  PyExpr RowLo = PyExpr::name("p0"), RowHi = PyExpr::name("p1"),
         ColLo = PyExpr::name("f0"), ColHi = PyExpr::name("f1");
  /// 'g' loads (grid-stride elements): the HBM access of this tile.
  std::optional<Access> GridSrc;

  std::vector<PyExpr> tileShape() const { return {128, FSize}; }
  /// The valid part of a tile: np_ partitions by nf_ elements.
  Access full(const std::string &T) const {
    return Access{T, {{PLo, PHi}, {0, FHi}}, {}};
  }
  /// The thread's elements of an HBM tensor in this tile: rows p0:p1 and
  /// columns f0:f1 (2-D), or the run lo:hi of a 1-D tensor seen as np_
  /// rows of nf_.
  Access hbm(const std::string &T) const {
    if (TwoD)
      return Access{T, {{RowLo, RowHi}, {ColLo, ColHi}}, {}};
    return Access{T,
                  {{PyExpr::name("lo"), PyExpr::name("hi")}},
                  {PyExpr::name("np_"), PyExpr::name("nf_")}};
  }

  Operand lower(const NodeP &N) {
    auto It = Done.find(N.get());
    if (It != Done.end())
      return It->second;
    Operand R = lowerNew(N);
    Done[N.get()] = R;
    return R;
  }

  /// A (P, 1) column: one value per row (partition).
  static bool isCol(const Operand &O) {
    return O.IsTile && O.Tile.Slices.size() == 2 &&
           O.Tile.Slices[1].first.asInt() == 0 &&
           O.Tile.Slices[1].second.asInt() == 1;
  }
  Access colAccess(const std::string &T) const {
    return Access{T, {{PLo, PHi}, {0, 1}}, {}};
  }
  /// A fresh tile shaped like a full tile or a column.
  Access fresh(DType Ty, bool Col) {
    std::string T = B.alloc(Col ? "c" : "t", Mem::SBUF, Ty,
                            Col ? std::vector<PyExpr>{128, 1} : tileShape());
    return Col ? colAccess(T) : full(T);
  }

  Operand lowerNew(const NodeP &N) {
    switch (N->K) {
    case Node::Scalar:
      return Operand::scalar(N->Val);
    case Node::Ref:
      return Operand::tile(colAccess(N->Name));
    case Node::Load:
      return loadTile(N);
    case Node::Cast: {
      Operand A = lower(N->A);
      Access D = fresh(N->Ty, isCol(A));
      Op O;
      O.Kind = OpKind::TensorCopy;
      O.Dst = D;
      O.Srcs = {A};
      B.op(O);
      return Operand::tile(D);
    }
    case Node::Unary: {
      Operand A = lower(N->A);
      Access D = fresh(N->Ty, isCol(A));
      Op O;
      O.Kind = OpKind::Activation;
      O.Fn = N->Fn;
      O.Dst = D;
      O.Srcs = {A};
      B.op(O);
      return Operand::tile(D);
    }
    case Node::Bin:
      return binTile(N);
    case Node::Row:
      return Operand::tile(Access{N->Name, {{PLo, PHi}, {"f0", "f1"}}, {}});
    case Node::Dot:
      return dotTile(N);
    case Node::ColSum:
      return colSumTile(N);
    case Node::RowRed:
      return rowRedTile(N);
    case Node::RowArg:
      return rowArgTile(N);
    case Node::AffSel:
      return affineSelect(lower(N->A), N->Ty, N->Offset, N->Fn, N->Val);
    case Node::Index: {
      Access D = fresh(DType::F32, false);
      // Columns: offset ColLo + x; rows: RowLo + p (channel_multiplier 1,
      // a pattern step of 0 along the free axis).
      if (N->Layout == 'c')
        B.op(OpKind::Iota, D, {Operand::scalar(ColLo), Operand::scalar(FHi)});
      else
        B.op(OpKind::Iota, D,
             {Operand::scalar(RowLo), Operand::scalar(FHi),
              Operand::scalar(PyExpr::integer(0)),
              Operand::scalar(PyExpr::integer(1))});
      return Operand::tile(D);
    }
    }
    return Operand::scalar("0");
  }

  /// \p A where Offset + p - x Fn 0, else \p False (a scalar): a full
  /// tile, \p A broadcast over it first when a scalar or a column.
  Operand affineSelect(Operand A, DType Ty, const PyExpr &Offset,
                       const std::string &Fn, const PyExpr &False) {
    if (!A.IsTile || isCol(A)) {
      Access T = fresh(Ty, false);
      Op M;
      M.Kind = OpKind::Memset;
      M.Dst = T;
      M.Srcs = {A.IsTile ? Operand::scalar(PyExpr::real(0.0)) : A};
      B.op(M);
      if (A.IsTile) {
        Op Ad;
        Ad.Kind = OpKind::TensorScalar;
        Ad.Fn = "nl.add";
        Ad.Dst = T;
        Ad.Srcs = {Operand::tile(T), A};
        B.op(Ad);
      }
      A = Operand::tile(T);
    }
    Access D = fresh(Ty, false);
    Op O;
    O.Kind = OpKind::AffineSelect;
    O.Fn = Fn;
    O.Dst = D;
    O.Srcs = {A, Operand::scalar(Offset), Operand::scalar(FHi),
              Operand::scalar(False)};
    B.op(O);
    return Operand::tile(D);
  }

  /// The staged rows times the chunk f0:f1 of the matrix rows: the chunk
  /// [nf_, D] is loaded and transposed to [D, nf_] (nc_transpose through
  /// PSUM), then nc_matmul(stationary = rows^T [D, np_], moving = [D,
  /// nf_]) gives [np_, nf_] in PSUM, copied to SBUF.  The column chunk is
  /// at most 128 (a transpose's free size); D <= 128 is asserted.
  Operand dotTile(const NodeP &N) {
    const PyExpr &D = N->Depth;
    std::string Kt;
    if (N->Layout == 'k') {
      // The matrix given as [Depth, cols]: its columns f0:f1 as they are.
      Kt = B.alloc("mv", Mem::SBUF, N->Ty, {"128", FSize});
      Op L;
      L.Kind = OpKind::DmaCopy;
      L.Dst = Access{Kt, {{"0", D}, {"0", FHi}}, {}};
      L.Srcs = {Operand::tile(
          Access{HbmName.at(N->Name), {{"0", D}, {"f0", "f1"}}, {}})};
      B.op(L);
    } else {
      Kt = loadTransposed(
          B, Access{HbmName.at(N->Name), {{"f0", "f1"}, {"0", D}}, {}}, FHi, D,
          N->Ty, "k");
    }
    std::string Ps = B.alloc("ps", Mem::PSUM, DType::F32, tileShape());
    Op M;
    M.Kind = OpKind::Matmul;
    M.Dst = full(Ps);
    M.Srcs = {Operand::tile(Access{N->Stat, {{"0", D}, {PLo, PHi}}, {}}),
              Operand::tile(Access{Kt, {{"0", D}, {"0", FHi}}, {}})};
    B.op(M);
    Access R = fresh(DType::F32, false);
    Op E;
    E.Kind = OpKind::TensorCopy;
    E.Dst = R;
    E.Srcs = {Operand::tile(full(Ps))};
    B.op(E);
    return Operand::tile(R);
  }

  /// The sum down the columns f0:f1 of the rows 0:Depth of N->A: per 128
  /// rows, the body is computed on the tile of rows r0:r1 and nc_matmul
  /// with a [rows, 1] column of ones (stationary) adds its column sums into
  /// one [1, nf_] PSUM row, zeroed first (float32, the accumulator's
  /// precision); the row is copied to SBUF.
  Operand colSumTile(const NodeP &N) {
    std::string Ones = B.alloc("ones", Mem::SBUF, N->A->Ty, {"128", "1"});
    Op M;
    M.Kind = OpKind::Memset;
    M.Dst = Access{Ones, {}};
    M.Srcs = {Operand::scalar("1.0")};
    B.op(M);
    std::string Ps = B.alloc("ps", Mem::PSUM, DType::F32, {"1", FSize});
    // Zero first: no rows sum to 0, and the matmuls then all accumulate.
    Op Z;
    Z.Kind = OpKind::Memset;
    Z.Dst = Access{Ps, {{"0", "1"}, {"0", FHi}}, {}};
    Z.Srcs = {Operand::scalar("0.0")};
    B.op(Z);
    PyExpr R0 = B.open("r0", 0, N->Depth, 128);
    PyExpr R1 = B.assign("r1", PyExpr::min(N->Depth, R0 + 128));
    B.assign("nr_", R1 - R0);
    TileLowering In(B, HbmName, true);
    In.PHi = "nr_";
    In.FHi = FHi;
    In.FSize = FSize;
    In.RowLo = "r0";
    In.RowHi = "r1";
    Operand V = In.lower(N->A);
    Op Mm;
    Mm.Kind = OpKind::Matmul;
    Mm.Dst = Access{Ps, {{"0", "1"}, {"0", FHi}}, {}};
    Mm.Srcs = {Operand::tile(Access{Ones, {{"0", "nr_"}, {"0", "1"}}, {}}), V};
    B.op(Mm);
    B.close();
    Access D = fresh(DType::F32, false);
    Op C;
    C.Kind = OpKind::TensorCopy;
    C.Dst = D;
    C.Srcs = {Operand::tile(Access{Ps, {{"0", "1"}, {"0", FHi}}, {}})};
    B.op(C);
    return Operand::tile(D);
  }

  /// Opens the loop over the columns 0:Depth of the tile's rows in chunks
  /// of 512 (c0:c1, nc_ of them) and returns the lowering of one chunk;
  /// the caller closes the loop.
  TileLowering openColumnChunks(const PyExpr &Depth) {
    PyExpr C0 = B.open("c0", 0, Depth, 512);
    PyExpr C1 = B.assign("c1", PyExpr::min(Depth, C0 + 512));
    B.assign("nc_", C1 - C0);
    TileLowering In(B, HbmName, true);
    In.PLo = PLo;
    In.PHi = PHi;
    In.FHi = "nc_";
    In.RowLo = RowLo;
    In.RowHi = RowHi;
    In.ColLo = "c0";
    In.ColHi = "c1";
    return In;
  }

  /// Fn over the columns 0:Depth of N->A for the tile's rows: a (P, 1)
  /// column set to Fn's identity, then per 512 columns the body on the tile
  /// of columns c0:c1, tensor_reduce along the free axis and the combination
  /// into the column.
  Operand rowRedTile(const NodeP &N) {
    if (N->Ty == DType::I32 || N->Ty == DType::U32)
      return rowIntRedTile(N);
    std::string Acc = B.alloc("acc", Mem::SBUF, DType::F32, {"128", "1"});
    Access AA = colAccess(Acc);
    Op M;
    M.Kind = OpKind::Memset;
    M.Dst = AA;
    M.Srcs = {Operand::scalar(N->Fn == "nl.add"       ? "0.0"
                              : N->Fn == "nl.maximum" ? "-3.4028234663852886e38"
                                                      : "3.4028234663852886e38")};
    B.op(M);
    TileLowering In = openColumnChunks(N->Depth);
    Operand V = In.lower(N->A);
    std::string Red = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
    Access RA = colAccess(Red);
    Op Rd;
    Rd.Kind = OpKind::Reduce;
    Rd.Fn = N->Fn;
    Rd.Dst = RA;
    Rd.Srcs = {V};
    B.op(Rd);
    Op Cb;
    Cb.Kind = OpKind::TensorTensor;
    Cb.Fn = N->Fn;
    Cb.Dst = AA;
    Cb.Srcs = {Operand::tile(AA), Operand::tile(RA)};
    B.op(Cb);
    B.close();
    return Operand::tile(AA);
  }

  /// An int32 or uint32 max or min (N->Ty) over the columns 0:Depth of
  /// N->A, exact: per 512 columns the chunk's tile of values is reduced on
  /// its 16-bit halves and combined with the accumulator alike
  /// (LiftRowsIntMax.cpp; the tiles' partitions are 0:np_).
  Operand rowIntRedTile(const NodeP &N) {
    const bool Max = N->Fn == "nl.maximum";
    std::string Acc = B.alloc("acc", Mem::SBUF, N->Ty, {"128", "1"});
    Access AA = colAccess(Acc);
    B.op(OpKind::Memset, AA, {Operand::scalar(exactIntIdentity(Max, N->Ty))});
    TileLowering In = openColumnChunks(N->Depth);
    Operand V = In.lower(N->A);
    std::string C = exactIntReduce(B, Max, N->Ty, V.Tile, "nc_", "512");
    std::string Cb = exactIntCombine(B, Max, N->Ty, AA, colAccess(C));
    B.op(OpKind::TensorCopy, AA, {Operand::tile(colAccess(Cb))});
    B.close();
    return Operand::tile(AA);
  }

  /// The first (last) column where N->A equals the per-row N->B: a (P, 1)
  /// column set to N->Val, then per 512 columns the 0/1 mask of A == B
  /// (tensor_scalar nl.equal with B's column), turned into c where it holds
  /// and N->Val where not (mask * (c - None) + None, the columns c by
  /// nisa.iota), reduced along the free axis by Fn and combined into the
  /// column.  Exact in float32 while Depth <= 2^24 (asserted when traced).
  Operand rowArgTile(const NodeP &N) {
    Operand Best = lower(N->B);
    // B is one value per row: in the map's row reductions (the only
    // builder of RowArg) an element of the map is a row, its tiles one
    // column wide, so a full tile of B is that column.
    if (Best.IsTile && !isCol(Best))
      Best = Operand::tile(colAccess(Best.Tile.Tensor));
    B.check(PyExpr::compare(N->Depth, "<=", 16777216),
            "cols <= 2**24: column indices exact in float32 (arg-reduction)");
    std::string Acc = B.alloc("acc", Mem::SBUF, DType::F32, {"128", "1"});
    Access AA = colAccess(Acc);
    Op M;
    M.Kind = OpKind::Memset;
    M.Dst = AA;
    const int64_t None = N->Val.asInt().value_or(0);
    M.Srcs = {Operand::scalar(PyExpr::real(double(None)))};
    B.op(M);
    TileLowering In = openColumnChunks(N->Depth);
    Operand V = In.lower(N->A);
    Access Io = In.fresh(DType::F32, false);
    B.op(OpKind::Iota, Io, {Operand::scalar("c0"), Operand::scalar("nc_")});
    Access Mk = In.fresh(DType::F32, false);
    B.op(OpKind::TensorScalar, Mk, {V, Best}, "nl.equal");
    B.op(OpKind::TensorScalar, Mk,
         {Operand::tile(Mk), Operand::scalar(PyExpr::real(-double(None)))},
         "nl.multiply");
    B.op(OpKind::TensorScalar, Mk,
         {Operand::tile(Mk), Operand::scalar(PyExpr::real(double(None)))},
         "nl.add");
    B.op(OpKind::TensorTensor, Mk, {Operand::tile(Mk), Operand::tile(Io)},
         "nl.add");
    std::string Red = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
    Access RA = colAccess(Red);
    B.op(OpKind::Reduce, RA, {Operand::tile(Mk)}, N->Fn);
    B.op(OpKind::TensorTensor, AA, {Operand::tile(AA), Operand::tile(RA)},
         N->Fn);
    B.close();
    return Operand::tile(AA);
  }

  /// 1 / X into a fresh tile of X's shape.
  Operand recip(const Operand &X, DType Ty) {
    Access D = fresh(Ty, isCol(X));
    Op R;
    R.Kind = OpKind::Reciprocal;
    R.Dst = D;
    R.Srcs = {X};
    B.op(R);
    return Operand::tile(D);
  }

  /// A binary operation: tensor_tensor on two tiles of one shape, else
  /// tensor_scalar with the scalar or the (P, 1) column as the operand; a
  /// division multiplies by the reciprocal.  The result is a column when
  /// neither side is a full tile.
  Operand binTile(const NodeP &N) {
    Operand A = lower(N->A), C = lower(N->B);
    bool AF = A.IsTile && !isCol(A), CF = C.IsTile && !isCol(C);
    std::string Fn = N->Fn;
    bool Div = Fn == "nl.divide";
    Op O;
    if (A.IsTile && C.IsTile && AF == CF) {
      if (Div)
        C = recip(C, N->Ty);
      O.Kind = OpKind::TensorTensor;
      O.Srcs = {A, C};
    } else if (A.IsTile && (AF || !C.IsTile)) {
      if (Div && !C.IsTile)
        C = Operand::scalar(PyExpr::binary("/", PyExpr::real(1.0), C.Scalar));
      else if (Div)
        C = recip(C, N->Ty);
      O.Kind = OpKind::TensorScalar;
      O.Srcs = {A, C};
    } else {
      // The operand (scalar or column) comes first: C is the data.
      if (Div)
        C = recip(C, N->Ty);
      O.Kind = OpKind::TensorScalar;
      O.Reverse = Fn == "nl.subtract";
      O.Srcs = {C, A};
    }
    O.Fn = Div ? "nl.multiply" : Fn;
    O.Dst = fresh(N->Ty, !AF && !CF);
    B.op(O);
    return Operand::tile(O.Dst);
  }

  Operand loadTile(const NodeP &N) {
    std::string Src = HbmName.at(N->Name);
    if (N->Layout == 'g') {
      std::string T = B.alloc("t", Mem::SBUF, N->Ty, tileShape());
      Access A = *GridSrc;
      A.Tensor = Src;
      Op O;
      O.Kind = OpKind::DmaCopy;
      O.Dst = full(T);
      O.Srcs = {Operand::tile(A)};
      B.op(O);
      return Operand::tile(full(T));
    }
    if (N->Layout == 'e' || N->Layout == 'R' || N->Layout == 'W') {
      std::string T = B.alloc("t", Mem::SBUF, N->Ty, tileShape());
      Op O;
      O.Kind = OpKind::DmaCopy;
      O.Dst = full(T);
      O.Srcs = {Operand::tile(hbm(Src))};
      B.op(O);
      return Operand::tile(full(T));
    }
    if (N->Layout == 'c') {
      // p[gy]: a column, one value per partition (the HBM rows RowLo:RowHi
      // on the partitions PLo:PHi), broadcast along the free axis by
      // tensor_scalar/activation operands; here made a full tile by
      // multiplying a tile of ones by the column.
      std::string Col = B.alloc("col", Mem::SBUF, N->Ty, {"128", "1"});
      Op O;
      O.Kind = OpKind::DmaCopy;
      O.Dst = colAccess(Col);
      O.Srcs = {Operand::tile(Access{Src, {{RowLo, RowHi}, {"0", "1"}}})};
      B.op(O);
      std::string T = B.alloc("t", Mem::SBUF, N->Ty, tileShape());
      Op M;
      M.Kind = OpKind::Memset;
      M.Dst = full(T);
      // memset takes a value of the tile's dtype.
      const bool IntTy = N->Ty == DType::I32 || N->Ty == DType::U32;
      M.Srcs = {Operand::scalar(IntTy ? "1" : "1.0")};
      B.op(M);
      Op S;
      S.Kind = OpKind::TensorScalar;
      S.Fn = "nl.multiply";
      S.Dst = full(T);
      S.Srcs = {Operand::tile(full(T)), Operand::tile(colAccess(Col))};
      B.op(S);
      return Operand::tile(full(T));
    }
    // p[gx] in a 2-D space: one row, broadcast over the partitions with a
    // K = 1 matmul against a row of ones (exact: one product per element).
    std::string Row = B.alloc("row", Mem::SBUF, N->Ty, {"1", "512"});
    Op O;
    O.Kind = OpKind::DmaCopy;
    O.Dst = Access{Row, {{"0", "1"}, {"0", FHi}}};
    O.Srcs = {Operand::tile(Access{Src, {{"0", "1"}, {ColLo, ColHi}}})};
    B.op(O);
    if (Ones.empty()) {
      Ones = B.alloc("ones", Mem::SBUF, N->Ty, {"1", "128"});
      Op M;
      M.Kind = OpKind::Memset;
      M.Dst = Access{Ones, {}};
      M.Srcs = {Operand::scalar("1.0")};
      B.op(M);
    }
    std::string Ps = B.alloc("ps", Mem::PSUM, DType::F32, {"128", "512"});
    Op Mm;
    Mm.Kind = OpKind::Matmul;
    Mm.Dst = full(Ps);
    Mm.Srcs = {Operand::tile(Access{Ones, {{"0", "1"}, {PLo, PHi}}}),
               Operand::tile(Access{Row, {{"0", "1"}, {"0", FHi}}})};
    B.op(Mm);
    std::string T = B.alloc("t", Mem::SBUF, N->Ty, tileShape());
    Op C;
    C.Kind = OpKind::TensorCopy;
    C.Dst = full(T);
    C.Srcs = {Operand::tile(full(Ps))};
    B.op(C);
    return Operand::tile(full(T));
  }
};

} // namespace nki
} // namespace pk

#endif
