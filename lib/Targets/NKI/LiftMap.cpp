//===- LiftMap.cpp - element-wise maps read from the kernel model ---------===//
// Rules: PK5001, PK5006, PK5007, PK5008
//
// The kernel is executed for one block (pk/KernelModel.h) at two block
// shapes; every value it stores is then rewritten in the global thread
// coordinates g_d = blockIdx.d * blockDim.d + threadIdx.d (d = x, y, z):
//
//   - a monomial c * m * blockIdx.d becomes (c / blockDim.d) * m * (g_d -
//     threadIdx.d), which needs c to be a multiple of the block size; an
//     integer parameter multiplying blockIdx.d where the block size would
//     be (`blockIdx.x * blockSize + threadIdx.x`) is taken to be the block
//     size, and the output asserts that it is;
//   - a grid-stride loop's variable (start g_d, step blockDim.d *
//     gridDim.d) is g_d itself, over [0, end) whatever the launch.
//
// What remains must be the same for every thread of the block, and the
// same at both block shapes: then each thread computes the same function of
// its coordinates, which is what a tile program computes for every element.
// The stores must be at one index F(g) under one guard, a conjunction of
// bounds g_d < E_d; F must be row-major over the bounded box (the 2-D and
// 3-D spaces are flattened to rows and columns); each load is at F (the
// element), at the column coordinate (a row vector broadcast over the
// rows) or the row coordinate (a column vector).  A 1-D space whose index
// is taken `% K` or `/ K` is seen as rows of K columns when K divides its
// extent.  A parameter that is both read and written must be read at its
// element, before its store.
//
// A kernel whose stores are not such a map (reductions, atomics, other
// threads' elements, stores by some threads only) is another lifter's.
//
//===----------------------------------------------------------------------===//
#include "LiftMapImpl.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <functional>

using namespace pk;
using namespace pk::nki;
using namespace pk::km;
using namespace clang;

using namespace pk::nki::mapread;

std::optional<MapSpec> MapBuilder::build() {
  // One index and one guard for every store.
  F = Rd.Stores.front().Idx;
  SymP Guard = Rd.Stores.front().Guard;
  for (const NStore &S : Rd.Stores) {
    if (S.Idx != F)
      return notMap("stores at different elements"), std::nullopt;
    if (S.Guard != Guard)
      return notMap("stores under different conditions", RuleId::PK5007), std::nullopt;
  }
  auto FP = P.poly(F);
  if (!FP)
    return notMap("a store index that is not an integer polynomial"),
           std::nullopt;
  // The coordinates of the index and their strides.
  std::map<unsigned, SymP> Stride;
  km::Poly Rest;
  for (auto &[M, C] : *FP) {
    int D = -1;
    km::Mono Other;
    for (SymP A : M) {
      bool IsG = A->K == SK::Param && !A->D && A->I >= GTag && A->I < GTag + 3;
      if (IsG && D < 0)
        D = int(A->I - GTag);
      else if (IsG)
        return notMap("a store index nonlinear in the coordinates"),
               std::nullopt;
      else
        Other.push_back(A);
    }
    if (D < 0) {
      Rest.add(M, C);
      continue;
    }
    km::Poly Sp;
    Sp.add(Other, C);
    SymP S = P.fromPoly(Sp);
    Stride[unsigned(D)] =
        Stride.count(unsigned(D)) ? P.bin("+", Stride[unsigned(D)], S) : S;
  }
  for (auto &[D, S] : Stride)
    if (S->K == SK::Int && S->I < 0)
      return notMap("a store that walks the elements backwards (a "
                    "reversal): tile copies walk them forwards",
                    RuleId::PK5006, true),
             std::nullopt;
  if (!Rest.empty())
    return notMap("a store at an offset from the element", RuleId::PK5006,
                  true),
           std::nullopt;
  // Bounds from the guard: g_d < E (or <= E - 1); g_d >= 0 always holds.
  std::map<unsigned, SymP> Bound;
  std::vector<SymP> Conj;
  conjuncts(P, Guard, Conj);
  for (SymP C : Conj) {
    if (C->K != SK::Cmp)
      return notMap("a store under a condition that is not a bound on the "
                    "coordinates",
                    RuleId::PK5007),
             std::nullopt;
    auto A = P.poly(C->Ops[0]), B = P.poly(C->Ops[1]);
    if (!A || !B)
      return notMap("a condition on element values", RuleId::PK5007), std::nullopt;
    km::Poly Dif = *A - *B;
    if (Dif.overflowed())
      return notMap("a condition beyond 64-bit integers"), std::nullopt;
    // Dif op 0 with Dif = s * g_d + r.
    int D = -1;
    int64_t Sg = 0;
    km::Poly R;
    for (auto &[M, K] : Dif) {
      if (!K)
        continue;
      bool IsG = M.size() == 1 && M[0]->K == SK::Param && !M[0]->D &&
                 M[0]->I >= GTag && M[0]->I < GTag + 3;
      if (IsG && D < 0 && (K == 1 || K == -1)) {
        D = int(M[0]->I - GTag);
        Sg = K;
        continue;
      }
      for (SymP X : M)
        if (X->K == SK::Param && !X->D)
          return notMap("a condition on a combination of the coordinates"),
                 std::nullopt;
      R.add(M, K);
    }
    if (D < 0)
      return notMap("a condition that does not bound a coordinate"),
             std::nullopt;
    llvm::StringRef Op = C->Op;
    if (Sg < 0) { // -g + r op 0  <=>  g op' r
      Op = Op == "<" ? ">" : Op == "<=" ? ">=" : Op == ">" ? "<" : Op == ">=" ? "<=" : Op;
    } else { // g + r op 0  <=>  g op -r
      R = R * -1;
    }
    SymP E = P.fromPoly(R);
    if (Op == "<=")
      E = P.bin("+", E, P.intc(1));
    else if (Op == ">=" || Op == ">") {
      // A lower bound: true for every coordinate when E <= 0 (>=) or < 0.
      if (E->K == SK::Int && (Op == ">=" ? E->I <= 0 : E->I < 0))
        continue;
      return notMap("a lower bound on a coordinate"), std::nullopt;
    } else if (Op != "<")
      return notMap("a condition that is not a bound"), std::nullopt;
    auto [It, New] = Bound.insert({unsigned(D), E});
    if (!New && It->second != E)
      return notMap("two bounds on one coordinate"), std::nullopt;
  }
  // Extents: a bound, a grid-stride loop's end, or the launch.
  std::map<unsigned, SymP> Ext;
  std::map<unsigned, std::string> ExtPy;
  MapSpec Spec;
  const char *Nm = "xyz";
  for (auto &[D, S] : Stride) {
    (void)S;
    auto SE = Rd.StrideEnd.find(D);
    auto B = Bound.find(D);
    if (SE != Rd.StrideEnd.end() && B != Bound.end())
      return notMap("a bound check inside a grid-stride loop"), std::nullopt;
    std::string Gn = std::string("grid_") + Nm[D],
                Bn = std::string("block_") + Nm[D];
    if (SE != Rd.StrideEnd.end()) {
      Ext[D] = SE->second;
    } else {
      Spec.Launch.push_back(Gn);
      if (Ds.Thread[D])
        Spec.Launch.push_back(Bn);
      std::string Cover = Ds.Thread[D] ? Gn + " * " + Bn : Gn;
      if (B != Bound.end()) {
        Ext[D] = B->second;
      } else {
        ExtPy[D] = "(" + Cover + ")";
        continue;
      }
      auto Py = pySize(Ext[D]);
      if (!Py)
        return notMap("a bound that is not a size"), std::nullopt;
      Spec.Checks.push_back({Cover + " >= " + Py->pyAtom(),
                             std::string("the launch covers every ") + Nm[D] +
                                 " below the bound"});
    }
    auto Py = pySize(Ext[D]);
    if (!Py)
      return notMap("an extent that is not a size"), std::nullopt;
    ExtPy[D] = Py->pyAtom();
  }
  for (auto &[D, E] : Bound)
    if (!Stride.count(D))
      return notMap("a bound on a coordinate the stores do not use"),
             std::nullopt;
  for (auto &[PV, D] : Rd.BlockParam)
    Spec.Checks.push_back(
        {pyName(PV->getName()) + " == block_" + Nm[D],
         llvm::formatv("'{0}' is the block size in {1}", PV->getName(), Nm[D])
             .str()});
  if (!Rd.BlockParam.empty())
    for (auto &[PV, D] : Rd.BlockParam)
      if (std::find(Spec.Launch.begin(), Spec.Launch.end(),
                    std::string("block_") + Nm[D]) == Spec.Launch.end())
        Spec.Launch.push_back(std::string("block_") + Nm[D]);
  // The view: the stride-1 coordinate is the column; the others, in order
  // of their strides, must be row-major over the box.
  unsigned CD = 3;
  for (auto &[D, S] : Stride)
    if (S->K == SK::Int && S->I == 1)
      CD = D;
  if (CD == 3)
    return notMap("no coordinate walks the elements one by one"),
           std::nullopt;
  std::vector<unsigned> Order = {CD};
  SymP Pitch = Ext.count(CD) ? Ext[CD] : nullptr;
  std::string Desc;
  if (Stride.size() > 1) {
    if (!Pitch)
      return refuse(RuleId::PK5008, Rd.Stores.front().Loc,
                    "the row length of a 2-D map is the launch's extent, not "
                    "a size the kernel checks: the shapes of its tensors are "
                    "not recovered"),
             std::nullopt;
    while (Order.size() < Stride.size()) {
      unsigned Next = 3;
      for (auto &[D, S] : Stride)
        if (std::find(Order.begin(), Order.end(), D) == Order.end() &&
            S == Pitch)
          Next = D;
      if (Next == 3) {
        // The stride of a coordinate left: the pitch the kernel uses.
        std::string Have = "?";
        for (auto &[D, S] : Stride)
          if (std::find(Order.begin(), Order.end(), D) == Order.end())
            if (auto Py = pySize(S))
              Have = Py->pyAtom();
        auto Want = pySize(Pitch);
        return refuse(RuleId::PK5008, Rd.Stores.front().Loc,
                      llvm::formatv("'{0}' is indexed with a row pitch ({1}) "
                                    "that is not the {2} ({3}): its {4}-D "
                                    "shape is not recovered",
                                    Rd.Stores.front().P->getName(), Have,
                                    Order.size() == 1
                                        ? std::string(1, Nm[CD]) + " extent"
                                        : "product of the inner extents",
                                    Want ? *Want : "?", Stride.size())
                          .str()),
               std::nullopt;
      }
      Order.push_back(Next);
      if (!Ext.count(Next) && Order.size() < Stride.size())
        return notMap("a middle coordinate without a bound"), std::nullopt;
      if (Ext.count(Next))
        Pitch = P.bin("*", Pitch, Ext[Next]);
    }
  }
  std::map<SymP, SymP> ToView;
  if (Order.size() == 1) {
    // A 1-D space; `% K` and `/ K` of the element make it rows of K.
    SymP K = nullptr;
    std::set<SymP> Seen;
    bool Mixed = false;
    std::function<void(SymP)> Find = [&](SymP S) {
      if (!Seen.insert(S).second)
        return;
      if (S->K == SK::Bin && (S->Op == "%" || S->Op == "/") && S->isInt() &&
          S->Ops[0] == F) {
        if (K && K != S->Ops[1])
          Mixed = true;
        K = S->Ops[1];
      }
      for (SymP O : S->Ops)
        Find(O);
    };
    for (const NStore &S : Rd.Stores)
      Find(S.Val);
    if (Mixed)
      return notMap("a flat index divided by two different sizes"),
             std::nullopt;
    if (K && !Ext.count(CD) && pySize(K)) {
      // No bound: the launch is the extent, whole rows of K (asserted).
      PyExpr KPy = *pySize(K), Launch(ExtPy[CD]);
      Spec.Checks.push_back(
          {PyExpr::compare(PyExpr::binary("%", Launch, KPy), "==", 0),
           "the launch (the kernel's extent: it has no bound) is whole rows "
           "of " +
               KPy.py()});
      Row = P.atom(RowTag);
      Col = P.atom(ColTag);
      SymP Flat = P.bin("+", P.bin("*", Row, K), Col);
      ToView[P.bin("%", F, K)] = Col;
      ToView[P.bin("/", F, K)] = Row;
      ToView[F] = Flat;
      F = Flat;
      Spec.TwoD = true;
      Spec.Ex = KPy.pyAtom();
      Spec.Ey = PyExpr::binary("//", Launch, KPy);
      Desc = llvm::formatv("a 1-D index space of the launch, seen as rows of "
                           "{0} through its `%` and `/` by {0} (rows on the "
                           "partitions, columns on the free axis)",
                           KPy)
                 .str();
    } else if (K) {
      auto EP = Ext.count(CD) ? P.poly(Ext[CD]) : std::nullopt;
      auto KP = P.poly(K);
      if (!EP || !KP || KP->size() != 1)
        return notMap("a flat index divided by a size that does not divide "
                      "its extent"),
               std::nullopt;
      const auto &[KM, KC] = *KP->begin();
      km::Poly Q;
      for (auto &[M, C] : *EP) {
        std::multiset<unsigned> Have;
        for (SymP A : M)
          Have.insert(A->Id);
        km::Mono QM;
        bool Div = C % KC == 0;
        for (SymP A : KM) {
          auto It = Have.find(A->Id);
          if (It == Have.end()) {
            Div = false;
            break;
          }
          Have.erase(It);
        }
        if (!Div)
          return notMap("a flat index taken modulo a size that does not "
                        "divide its extent",
                        RuleId::PK5006, true),
                 std::nullopt;
        for (SymP A : M)
          if (Have.count(A->Id)) {
            QM.push_back(A);
            Have.erase(Have.find(A->Id));
          }
        Q.add(QM, C / KC);
      }
      auto KPy = pySize(K), RPy = pySize(P.fromPoly(Q));
      if (!KPy || !RPy)
        return notMap("a row length that is not a size"), std::nullopt;
      Row = P.atom(RowTag);
      Col = P.atom(ColTag);
      SymP Flat = P.bin("+", P.bin("*", Row, K), Col);
      ToView[P.bin("%", F, K)] = Col;
      ToView[P.bin("/", F, K)] = Row;
      ToView[F] = Flat;
      F = Flat;
      Spec.TwoD = true;
      Spec.Ex = KPy->pyAtom();
      Spec.Ey = RPy->pyAtom();
      Desc = llvm::formatv("a 1-D index space of {0} x {1} elements, seen "
                           "as {0} rows of {1} through its `%` and `/` by {1} "
                           "(rows on the partitions, columns on the free axis)",
                           *RPy, *KPy);
    } else {
      Spec.Ex = ExtPy[CD];
      Desc = "a 1-D index space of " + Spec.Ex.py() +
             " elements (rows of 512 elements on the partitions, a ragged "
             "tail row)";
    }
  } else {
    Spec.TwoD = true;
    Spec.Ex = ExtPy[CD];
    Col = G(CD);
    std::string Rows;
    for (size_t I = 1; I < Order.size(); ++I)
      Rows = Rows.empty() ? ExtPy[Order[I]]
                          : "(" + ExtPy[Order[I]] + " * " + Rows + ")";
    Spec.Ey = Rows;
    if (Order.size() == 2)
      Row = G(Order[1]);
    Desc = Order.size() == 2
               ? llvm::formatv("a 2-D index space of {0} x {1} ({2} on the "
                               "partitions, {3} on the free axis)",
                               Spec.Ey, Spec.Ex, Nm[Order[1]], Nm[CD])
                     .str()
               : llvm::formatv("a 3-D index space flattened to {0} rows of "
                               "{1} (rows on the partitions, {2} on the free "
                               "axis)",
                               Spec.Ey, Spec.Ex, Nm[CD])
                     .str();
  }
  // A contraction: the GEMM lifter's tile program.
  if (Order.size() == 2 && Rd.Stores.size() == 1 &&
      P.containsKind(Rd.Stores.front().Val, SK::Reduce) && Ext.count(CD) &&
      Ext.count(Order[1])) {
    std::string W;
    Gemm = contraction(P, Rd.Stores.front(), Row, Col, Ext[Order[1]],
                       Ext[CD], Spec, W);
    if (!Gemm)
      return NotMapPrefix = "", notMap(W, RuleId::PK5007, true), std::nullopt;
    if (!Gemm->Beta.empty() && !readBeforeWrite(Gemm->C)) {
      Gemm.reset();
      return refuse(RuleId::PK5007, Rd.Stores.front().Loc,
                    llvm::formatv("'{0}' is read after it is written (or "
                                  "through another name): the lifted GEMM "
                                  "reads C once, before its stores",
                                  Rd.Stores.front().P->getName())
                        .str()),
             std::nullopt;
    }
    for (const ParmVarDecl *PV : FD->parameters()) {
      bool Ok = PV->getType()->isPointerType()
                    ? PV == Gemm->A || PV == Gemm->B || PV == Gemm->C
                    : scalarDtypeOf(PV->getType()).has_value();
      if (!Ok) {
        Gemm.reset();
        return refuse(PV->getType()->isPointerType() ? RuleId::PK5008
                                                     : RuleId::PK5007,
                      PV->getLocation(),
                      llvm::formatv("parameter '{0}' is neither an operand "
                                    "of the GEMM nor a scalar with an NKI "
                                    "dtype",
                                    PV->getName())
                          .str()),
               std::nullopt;
      }
    }
    if (!Rd.BlockParam.empty())
      Gemm->Family += "; the block size is a parameter";
    return std::nullopt;
  }
  // Loads and stores.
  OneD = Order.size() == 1 && ToView.empty();
  ColExt = Ext.count(CD) ? Ext[CD] : nullptr;
  std::vector<std::pair<const ParmVarDecl *, SymP>> Vals;
  for (const NStore &S : Rd.Stores) {
    SymP V = ToView.empty() ? S.Val : P.subst(S.Val, ToView);
    std::set<SymP> Seen;
    if (!classify(V, S.Loc, Seen))
      return std::nullopt;
    Vals.push_back({S.P, V});
  }
  for (const NStore &S : Rd.Stores) {
    auto [It, New] = Uses.insert({S.P, MapSpec::Use{'e', false, true}});
    if (It->second.Layout != 'e')
      return notMap(llvm::formatv("'{0}' is stored at its elements and read "
                                  "as a row or column vector",
                                  S.P->getName())
                        .str()),
             std::nullopt;
    if (!New && It->second.Written)
      return notMap(llvm::formatv("'{0}' is stored twice by a thread",
                                  S.P->getName())
                        .str()),
             std::nullopt;
    It->second.Written = true;
    // The model forwards a thread's own stores to its later reads of the
    // same element: a load left in the values reads memory before the
    // thread's stores, unless the model says otherwise.  Each element is
    // stored by one thread (the map's own check), so no other thread's
    // store is read either.
    if (It->second.Read && llvm::is_contained(Rd.ReadAfterOwnStore, S.P))
      return refuse(RuleId::PK5007, S.Loc,
                    llvm::formatv("'{0}' is read after it is written (or "
                                  "through another name): the lifted map "
                                  "reads each input once, before its stores",
                                  S.P->getName())
                        .str()),
             std::nullopt;
  }
  IndexView = Spec.TwoD && !HasReduce;
  ViewEx = Spec.Ex;
  ViewEy = Spec.Ey;
  for (auto &[PV, V] : Vals) {
    NodeP N = node(V, Rd.Stores.front().Loc);
    if (!N)
      return std::nullopt;
    if (N->K == Node::Scalar) {
      auto T = dtypeOf(PV->getType()->getPointeeType());
      if (T)
        N->Ty = *T;
    }
    Spec.Stores.push_back({PV, N});
  }
  Spec.Checks.insert(Spec.Checks.end(), IndexChecks.begin(), IndexChecks.end());
  Spec.Uses = Uses;
  Spec.Family = "element-wise map over " + Desc;
  if (HasReduce && RedKind == 'W') {
    // One column of rows: each element's row reduced into a (P, 1) column.
    Spec.TwoD = true;
    Spec.Ey = Spec.Ex;
    Spec.Ex = "1";
    Spec.Family = "row reductions over a 1-D index space of " + Spec.Ey.py() +
                  " rows (each element's row on a partition, 128 rows a "
                  "tile; tensor_reduce along the free axis in chunks of 512 "
                  "columns into a (P, 1) column)";
  } else if (HasReduce) {
    // One row of columns: each column's sum is a [1, nf_] PSUM row.
    Spec.TwoD = true;
    Spec.Ey = "1";
    Spec.Family = "column reductions over a 1-D index space of " +
                  Spec.Ex.py() +
                  " columns (each column's rows summed by nc_matmul with a "
                  "column of ones, 128 rows a step accumulated in PSUM; "
                  "the columns on the free axis in chunks of 512)";
  }
  if (!Rd.BlockParam.empty())
    Spec.Family += "; the block size is a parameter, asserted at the launch";
  return Spec;
}


bool nki::liftMap(TargetContext &TC, const FunctionDecl *FD, Kernel &K,
                  std::optional<Refusal> &Why) {
  LaunchDims Ds;
  Ds.TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  // The block shapes tried: a map's reading must be the same at every
  // shape where it is one; where it is one at some shapes only (a block
  // size written as a constant), the launch must use one of them.
  // The large shapes (the last Large of them) are executed only once a
  // smaller one is a map: they widen the shapes asserted, and executing
  // them costs most.
  std::vector<BlockShape> Cands;
  if (Ds.Thread[2])
    Cands = {{8, 4, 4}, {16, 4, 2}, {4, 4, 4}, {8, 8, 4}};
  else if (Ds.Thread[1])
    Cands = {{16, 16, 1}, {32, 8, 1}, {8, 8, 1}, {64, 4, 1}, {32, 4, 1},
             {32, 32, 1}};
  else
    Cands = {{128, 1, 1}, {256, 1, 1}, {32, 1, 1},
             {64, 1, 1},  {512, 1, 1}, {1024, 1, 1}};
  const size_t Large = Ds.Thread[2] || Ds.Thread[1] ? 1 : 2;
  if (!Ds.Thread[0]) {
    std::vector<BlockShape> One;
    for (BlockShape S : Cands) {
      S.X = 1;
      bool Seen = false;
      for (const BlockShape &O : One)
        Seen |= O.X == S.X && O.Y == S.Y && O.Z == S.Z;
      if (!Seen)
        One.push_back(S);
    }
    Cands = One;
  }
  bool Debug = std::getenv("PK_NKI_MODEL_DEBUG") != nullptr;
  SymPool P;
  std::vector<mapread::Reading> Rs;
  std::vector<BlockShape> Valid;
  std::optional<Refusal> FirstNotMap;
  unsigned Tried = 0;
  for (const BlockShape &S : Cands) {
    if (Rs.empty() && size_t(&S - Cands.data()) >= Cands.size() - Large)
      break;
    ++Tried; // a shape not proven a map is one the launch must not use
    Trace Tr = executeBlock(TC.Ctx(), FD, S, P, waveOf(TC));
    if (Tr.F) {
      if (Debug)
        llvm::errs() << "map: " << FD->getName() << " at " << S.X << "x"
                     << S.Y << "x" << S.Z << ": model: " << Tr.F->Msg << "\n";
      // A construct the model does not follow is one at every shape; a
      // race, an overrun or a carried value at this shape (tiles sized for
      // another block) leaves the others, and only the shapes read as a
      // map are asserted of the launch.
      if (&S == &Cands.front() && (Tr.F->K == Failure::Unsupported ||
                                   Tr.F->K == Failure::DataDependent))
        return false;
      continue;
    }
    mapread::Reading R = mapread::readStores(Tr, P);
    if (!R.NotMap.empty()) {
      if (Debug)
        llvm::errs() << "map: " << FD->getName() << " at " << S.X << "x"
                     << S.Y << "x" << S.Z << ": not a map: " << R.NotMap
                     << "\n";
      // Not a map: a reason for the report only if no lifter takes it.
      if (!FirstNotMap)
        FirstNotMap =
            Refusal{R.NotMapRule,
                    R.NotMapLoc.isValid() ? R.NotMapLoc : FD->getLocation(),
                    "not an element-wise map: " + R.NotMap, false,
                    R.NotMapPreferred};
      continue;
    }
    Rs.push_back(std::move(R));
    Valid.push_back(S);
  }
  if (Rs.empty()) {
    Why = FirstNotMap;
    return false;
  }
  // The same map at every shape: its values do not depend on the block.
  for (const mapread::Reading &R : Rs)
    if (!(R.Stores == Rs[0].Stores) || R.StrideEnd != Rs[0].StrideEnd ||
        R.BlockParam != Rs[0].BlockParam) {
      if (Debug)
        llvm::errs() << "map: " << FD->getName()
                     << ": a different map at another block shape\n";
      Why = Refusal{RuleId::PK5007, Rs[0].Stores.front().Loc,
                    "the values it stores depend on the block size (blockDim "
                    "or a block-sized constant in a value): a tile program "
                    "computes each element the same for every launch",
                    true};
      return false;
    }
  // Proven at some shapes only: the launch must use one of them.
  std::optional<std::pair<std::string, std::string>> ShapeCheck;
  if (Valid.size() < Tried) {
    unsigned Dims = Ds.Thread[2] ? 3 : Ds.Thread[1] ? 2 : 1;
    std::string Names = Dims == 1   ? "block_x"
                        : Dims == 2 ? "(block_x, block_y)"
                                    : "(block_x, block_y, block_z)";
    std::vector<std::string> Tuples;
    for (const BlockShape &S : Valid)
      Tuples.push_back(Dims == 1 ? std::to_string(S.X)
                       : Dims == 2
                           ? llvm::formatv("({0}, {1})", S.X, S.Y).str()
                           : llvm::formatv("({0}, {1}, {2})", S.X, S.Y, S.Z)
                                 .str());
    ShapeCheck = {Names + " in (" + llvm::join(Tuples, ", ") +
                      (Tuples.size() == 1 ? ",)" : ")"),
                  "the block shapes at which the kernel model proved what it "
                  "computes"};
  }
  mapread::MapBuilder Bd(TC, FD, P, Rs[0], Ds);
  std::optional<MapSpec> Spec = Bd.build();
  if (Bd.Gemm) {
    if (ShapeCheck && Ds.Thread[0])
      Bd.Gemm->Checks.push_back(*ShapeCheck);
    emitGemmSpec(FD, *Bd.Gemm, K);
    return true;
  }
  if (!Spec) {
    if (Debug)
      llvm::errs() << "map: " << FD->getName() << ": "
                   << (Bd.Why ? "refused: " + Bd.Why->Msg
                              : "not a map: " + Bd.NotMap)
                   << "\n";
    Why = Bd.Why ? Bd.Why
                 : Refusal{Bd.NotMapRule, Rs[0].Stores.front().Loc,
                           Bd.NotMapPrefix + Bd.NotMap, false,
                           Bd.NotMapPreferred};
    return false;
  }
  if (ShapeCheck && Ds.Thread[0])
    Spec->Checks.push_back(*ShapeCheck);
  if (auto R = emitMap(TC, FD, *Spec, K)) {
    Why = R;
    return false;
  }
  return true;
}
