//===- LiftPartialsEmit.cpp - per-block partial sums as tile operations ---===//
// Rules: PK5001, PK5007, PK5008
//
// The tile program of a per-block partial sum (LiftPartials.cpp): the
// blocks b0:b1 on the partitions, W = the chunk of one block in a round
// (w_), and per round k0 the elements lo0 = k0 * w_ * grid_x + b0 * w_
// onwards:
//
//   nr_ = the blocks whose chunk is whole (< N), rem_ the elements of the
//   next block's chunk below N (0 when it has none): the whole chunks are
//   one [nr_, w_] tile in[lo:hi].reshape((nr_, w_)), the ragged one a
//   [1, rem_] row on partition nr_; each is loaded only when it is not
//   empty (a loop of min(1, count) iterations);
//
// the element function is computed on them, tensor_reduce adds each row,
// and one (P, 1) accumulator per output adds the rounds; dma_copy stores it
// to out[b0:b1].  Rounds: (N + w_ * grid_x - 1) // (w_ * grid_x) for a
// grid-stride loop, else 1.
//
//===----------------------------------------------------------------------===//
#include "LiftLower.h"
#include "LiftRowsImpl.h"
#include "LiftSym.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <set>

using namespace pk;
using namespace pk::nki;
using namespace pk::km;
using namespace clang;

namespace partialsemit {

const char *aluOp(llvm::StringRef Op) {
  if (Op == "+") return "nl.add";
  if (Op == "-") return "nl.subtract";
  if (Op == "*") return "nl.multiply";
  if (Op == "/") return "nl.divide";
  if (Op == "max") return "nl.maximum";
  if (Op == "min") return "nl.minimum";
  return nullptr;
}

const char *actOp(llvm::StringRef Op) {
  if (Op == "exp") return "nl.exp";
  if (Op == "log") return "nl.log";
  if (Op == "sqrt") return "nl.sqrt";
  if (Op == "rsqrt") return "nl.rsqrt";
  if (Op == "tanh") return "nl.tanh";
  if (Op == "abs") return "nl.abs";
  return nullptr;
}

class Emitter {
public:
  Emitter(const FunctionDecl *FD, const rows::PartialProgram &Pr, SymPool &P,
          Kernel &K)
      : FD(FD), Pr(Pr), P(P), K(K), B(K.Body) {}
  bool run(const std::vector<BlockShape> &Shapes);
  std::optional<Refusal> Why;

private:
  const FunctionDecl *FD;
  const rows::PartialProgram &Pr;
  SymPool &P;
  Kernel &K;
  Builder B;
  std::map<std::string, std::string> HbmName;
  std::map<const ParmVarDecl *, DType> PTy;
  std::map<SymP, NodeP> Memo;
  SourceLocation Here;

  bool fail(RuleId R, std::string M) {
    if (!Why)
      Why = Refusal{R, Here.isValid() ? Here : FD->getLocation(), std::move(M),
                    /*Definite=*/true};
    return false;
  }
  NodeP node(SymP S);
  /// The rows [PLo, PHi) of \p Nf elements each, loaded from lo:hi, into
  /// the accumulators.
  bool section(const std::string &PLo, const std::string &PHi,
               const std::string &Nf, const std::vector<std::string> &Accs);
};

NodeP Emitter::node(SymP S) {
  auto M = Memo.find(S);
  if (M != Memo.end())
    return M->second;
  auto N = std::make_shared<Node>();
  N->Ty = dtypeOfSym(S->T);
  switch (S->K) {
  case SK::Flt:
    N->K = Node::Scalar;
    N->Val = PyExpr::real(S->F);
    break;
  case SK::Param:
    if (S->isInt() || !S->D)
      return fail(RuleId::PK5007, "an integer value used in the arithmetic "
                                  "of the elements"),
             nullptr;
    N->K = Node::Scalar;
    N->Val = PyExpr::name(pyName(S->D->getName()));
    break;
  case SK::Cast:
    if (S->Ops[0]->isInt()) {
      auto E = pySize(S->Ops[0]);
      if (!E || S->isInt())
        return fail(RuleId::PK5007, "an integer value used in the "
                                    "arithmetic of the elements"),
               nullptr;
      N->K = Node::Scalar;
      N->Val = PyExpr::call("float", {*E});
      break;
    }
    N->K = Node::Cast;
    N->A = node(S->Ops[0]);
    if (!N->A)
      return nullptr;
    break;
  case SK::Load: {
    auto *PV = dyn_cast<ParmVarDecl>(S->D);
    if (!PV || !PTy.count(PV))
      return fail(RuleId::PK5007, "a load of something other than an input "
                                  "parameter"),
             nullptr;
    N->K = Node::Load;
    N->Layout = 'e';
    N->Name = pyName(PV->getName());
    N->Ty = PTy.at(PV);
    break;
  }
  case SK::Bin: {
    const char *Fn = aluOp(S->Op);
    if (!Fn || S->isInt())
      return fail(RuleId::PK5007,
                  llvm::formatv("operation '{0}' on the elements has no tile "
                                "operation",
                                S->Op)
                      .str()),
             nullptr;
    N->K = Node::Bin;
    N->Fn = Fn;
    N->A = node(S->Ops[0]);
    N->B = N->A ? node(S->Ops[1]) : nullptr;
    if (!N->B)
      return nullptr;
    if (N->A->K == Node::Scalar && N->B->K == Node::Scalar) {
      // Arithmetic of scalars: a Python expression.
      N->K = Node::Scalar;
      N->Val = PyExpr::apply(S->Op, N->A->Val, N->B->Val);
      N->A = N->B = nullptr;
    }
    break;
  }
  case SK::Un: {
    N->A = node(S->Ops[0]);
    if (!N->A)
      return nullptr;
    if (S->Op == "neg") {
      N->K = Node::Bin;
      N->Fn = "nl.multiply";
      N->B = std::make_shared<Node>();
      N->B->K = Node::Scalar;
      N->B->Val = PyExpr::real(-1.0);
      break;
    }
    const char *Fn = actOp(S->Op);
    if (!Fn || N->A->K == Node::Scalar)
      return fail(RuleId::PK5007,
                  llvm::formatv("function '{0}' of the elements has no "
                                "activation",
                                S->Op)
                      .str()),
             nullptr;
    N->K = Node::Unary;
    N->Fn = Fn;
    break;
  }
  default:
    return fail(RuleId::PK5007, "a value with no tile equivalent in the "
                                "partial sum: " + P.str(S)),
           nullptr;
  }
  Memo[S] = N;
  return N;
}

bool Emitter::section(const std::string &PLo, const std::string &PHi,
                      const std::string &Nf,
                      const std::vector<std::string> &Accs) {
  TileLowering TL(B, HbmName, /*TwoD=*/false);
  TL.PLo = PLo;
  TL.PHi = PHi;
  TL.FHi = Nf;
  TL.FSize = "w_";
  for (size_t I = 0; I < Pr.Outs.size(); ++I) {
    Here = Pr.Outs[I].Loc;
    NodeP N = node(Pr.Outs[I].H);
    if (!N)
      return false;
    Operand V = TL.lower(N);
    if (!V.IsTile || TileLowering::isCol(V))
      return fail(RuleId::PK5007, "a partial sum whose terms do not depend "
                                  "on the element");
    std::string Red = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
    Access RA{Red, {{PLo, PHi}, {"0", "1"}}, {}};
    const char *Fn = aluOp(Pr.Outs[I].Op);
    B.op(OpKind::Reduce, RA, {V}, Fn);
    Access AA{Accs[I], {{PLo, PHi}, {"0", "1"}}, {}};
    B.op(OpKind::TensorTensor, AA, {Operand::tile(AA), Operand::tile(RA)}, Fn);
  }
  return true;
}

bool Emitter::run(const std::vector<BlockShape> &Shapes) {
  K.Name = FD->getNameAsString();
  Here = FD->getLocation();
  auto Ne = pySize(Pr.N);
  if (!Ne)
    return fail(RuleId::PK5008, "the input's length is not an expression of "
                                "the scalar parameters");
  std::string N = Ne->pyAtom();
  std::set<const ParmVarDecl *> Reads, Writes;
  for (const rows::PartialOut &O : Pr.Outs) {
    Writes.insert(O.P);
    std::set<SymP> Seen;
    std::function<void(SymP)> Walk = [&](SymP S) {
      if (!Seen.insert(S).second)
        return;
      if (S->K == SK::Load)
        if (auto *PV = dyn_cast<ParmVarDecl>(S->D))
          Reads.insert(PV);
      for (SymP X : S->Ops)
        Walk(X);
    };
    Walk(O.H);
  }
  for (const ParmVarDecl *PV : FD->parameters()) {
    Here = PV->getLocation();
    Param Pa;
    Pa.Name = PV->getName().str();
    Pa.PyName = pyName(PV->getName());
    QualType Q = PV->getType();
    if (Q->isPointerType()) {
      auto DT = dtypeOf(Q->getPointeeType());
      if (!Reads.count(PV) && !Writes.count(PV))
        return fail(RuleId::PK5008,
                    llvm::formatv("pointer parameter '{0}' is never accessed: "
                                  "its shape cannot be recovered",
                                  PV->getName())
                        .str());
      if (Reads.count(PV) && Writes.count(PV))
        return fail(RuleId::PK5007,
                    llvm::formatv("'{0}' is both read and stored: the "
                                  "partial sums would overwrite the input",
                                  PV->getName())
                        .str());
      if (!DT)
        return fail(RuleId::PK5007,
                    llvm::formatv("element type {0} of '{1}' has no NKI dtype",
                                  Q->getPointeeType().getAsString(),
                                  PV->getName())
                        .str());
      Pa.IsTensor = true;
      Pa.Ty = *DT;
      PTy[PV] = *DT;
      Pa.R = Writes.count(PV) ? Param::Out : Param::In;
      Pa.Shape = Writes.count(PV) ? std::vector<PyExpr>{"grid_x"}
                                  : std::vector<PyExpr>{N};
      HbmName[Pa.PyName] = Pa.PyName;
    } else {
      auto DT = dtypeOf(Q);
      Pa.Ty = DT ? *DT : DType::I32;
    }
    K.Params.push_back(Pa);
  }
  Here = FD->getLocation();
  K.Launch = {"grid_x", "block_x"};
  std::vector<std::string> Ss;
  for (const BlockShape &S : Shapes)
    Ss.push_back(std::to_string(S.X));
  std::set<std::string> Kinds;
  for (const rows::PartialOut &O : Pr.Outs)
    Kinds.insert(O.Op == "+" ? "sums" : O.Op + "ima");
  const std::string What = llvm::join(Kinds, " and ");
  B.check("block_x in (" + llvm::join(Ss, ", ") + (Ss.size() == 1 ? ",)" : ")"),
          "the block shapes at which the kernel was proven to compute "
          "per-block partial " +
              What);
  B.assign("w_", Pr.PerThread == 1  ? std::string("block_x")
                 : Pr.PerThread > 1 ? std::to_string(Pr.PerThread) +
                                          " * block_x"
                                    : std::to_string(Pr.W));
  std::vector<std::string> Outs;
  for (const rows::PartialOut &O : Pr.Outs) {
    std::string Name = pyName(O.P->getName());
    Op A;
    A.Kind = OpKind::Alloc;
    A.Alloc = Tensor{Name, Mem::HBM, PTy.at(O.P), {"grid_x"}};
    B.op(A);
    K.Returns.push_back(Name);
    Outs.push_back(Name);
  }
  B.open("b0", "0", "grid_x", "128");
  B.assign("b1", "min(grid_x, b0 + 128)");
  B.assign("nb_", "b1 - b0");
  std::vector<std::string> Accs;
  for (const rows::PartialOut &O : Pr.Outs) {
    // A block with no element stores what its threads started from (a
    // max or min), or 0 (a sum).
    std::string Acc = B.alloc("acc", Mem::SBUF, DType::F32, {"128", "1"});
    const double Id = O.Op == "max"   ? -INFINITY
                      : O.Op == "min" ? INFINITY
                                      : 0.0;
    double V = O.Init.value_or(Id);
    if (O.CondInit)
      V = O.Op == "max" ? std::max(V, *O.CondInit) : std::min(V, *O.CondInit);
    B.op(OpKind::Memset, Access{Acc, {{"0", "nb_"}, {"0", "1"}}, {}},
         {Operand::scalar(pyFloat(V))});
    Accs.push_back(Acc);
  }
  B.open("k0", "0",
         Pr.Stride ? "(" + N + " + w_ * grid_x - 1) // (w_ * grid_x)" : "1",
         "1");
  B.assign("lo0", "k0 * w_ * grid_x + b0 * w_");
  B.assign("av_", N + " - lo0");
  B.assign("nr_", "max(0, min(nb_, av_ // w_))");
  B.assign("rem_", "min(nb_ - nr_, 1) * max(0, min(w_, av_ - nr_ * w_))");
  // The blocks whose chunk is whole have no thread past the end: their
  // accumulators start without its constant (one round: no grid stride).
  for (size_t I = 0; I < Pr.Outs.size(); ++I) {
    const rows::PartialOut &O = Pr.Outs[I];
    if (!O.CondInit)
      continue;
    const double Id = O.Op == "max" ? -INFINITY : INFINITY;
    B.open("q2", "0", "min(1, nr_)", "1");
    B.op(OpKind::Memset, Access{Accs[I], {{"0", "nr_"}, {"0", "1"}}, {}},
         {Operand::scalar(pyFloat(O.Init.value_or(Id)))});
    B.close();
  }
  // The blocks whose chunk is whole.
  B.open("q0", "0", "min(1, nr_)", "1");
  B.assign("lo", "lo0");
  B.assign("hi", "lo0 + nr_ * w_");
  B.assign("np_", "nr_");
  B.assign("nf_", "w_");
  if (!section("0", "np_", "nf_", Accs))
    return false;
  B.close();
  // The next block's ragged chunk, on its own partition.
  B.open("q1", "0", "min(1, rem_)", "1");
  B.assign("pr_", "nr_");
  B.assign("lo", "lo0 + nr_ * w_");
  B.assign("hi", "lo0 + nr_ * w_ + rem_");
  B.assign("np_", "1");
  B.assign("nf_", "rem_");
  if (!section("pr_", "pr_ + 1", "nf_", Accs))
    return false;
  B.close();
  B.close();
  for (size_t I = 0; I < Outs.size(); ++I)
    B.op(OpKind::DmaCopy, Access{Outs[I], {{"b0", "b1"}}, {"nb_", "1"}},
         {Operand::tile(Access{Accs[I], {{"0", "nb_"}, {"0", "1"}}, {}})});
  B.close();
  K.Family =
      llvm::formatv("per-block partial {3} of a 1-D input (blocks on "
                    "the partitions, {0} of each block's chunk of "
                    "elements as rows of a tile, tensor_reduce; "
                    "proven at block shape{1} {2})",
                    Pr.Stride ? "the grid-stride rounds" : "one round",
                    Ss.size() == 1 ? "" : "s", llvm::join(Ss, ", "), What)
          .str();
  return true;
}

} // namespace partialsemit

bool rows::emitPartials(TargetContext &TC, const FunctionDecl *FD,
                        const rows::PartialProgram &Pr, SymPool &P,
                        const std::vector<BlockShape> &Shapes, Kernel &K,
                        std::optional<Refusal> &Why) {
  (void)TC;
  partialsemit::Emitter E(FD, Pr, P, K);
  if (E.run(Shapes))
    return true;
  Why = E.Why;
  return false;
}
