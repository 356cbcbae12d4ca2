//===- TileProgram.cpp - printing the NKI tile program --------------------===//
// Rules: PK5001
//
// The emitter: the current `nki` dialect only (import nki, nki.language as
// nl, nki.isa as nisa; destination-first nisa calls; nl.ndarray allocations
// with buffer=nl.sbuf/nl.psum/nl.shared_hbm; Python loops over tiles), and
// the PK_KERNELS calling-convention table after the kernels.
//
// A PSUM tile that only nc_transpose writes is printed with the dtype of
// what it transposes: a transpose keeps its input's dtype (nki.isa.
// nc_transpose), whatever dtype the lifter allocated it with; the
// tensor_copy that evicts it converts.
//
//===----------------------------------------------------------------------===//
#include "TileProgram.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <map>
#include <optional>

using namespace pk;
using namespace pk::nki;

const char *nki::dtypeName(DType T) {
  switch (T) {
  case DType::F32:
    return "float32";
  case DType::F16:
    return "float16";
  case DType::BF16:
    return "bfloat16";
  case DType::I32:
    return "int32";
  case DType::U32:
    return "uint32";
  case DType::I64:
    return "int64";
  }
  return "float32";
}

const char *nki::memName(Mem M) {
  switch (M) {
  case Mem::HBM:
    return "shared_hbm";
  case Mem::SBUF:
    return "sbuf";
  case Mem::PSUM:
    return "psum";
  }
  return "sbuf";
}

void Builder::op(Op O) {
  Stmt S;
  S.K = Stmt::OpStmt;
  S.O = std::move(O);
  Stack.back()->push_back(std::move(S));
}

void Builder::op(OpKind K, Access Dst, std::vector<Operand> Srcs,
                 std::string Fn) {
  Op O;
  O.Kind = K;
  O.Dst = std::move(Dst);
  O.Srcs = std::move(Srcs);
  O.Fn = std::move(Fn);
  op(std::move(O));
}

PyExpr Builder::assign(std::string Var, PyExpr Value) {
  Stmt S;
  S.K = Stmt::Assign;
  S.Var = std::move(Var);
  S.Value = std::move(Value);
  PyExpr R = PyExpr::name(S.Var);
  Stack.back()->push_back(std::move(S));
  return R;
}

void Builder::check(PyExpr Cond, std::string Why) {
  Stmt S;
  S.K = Stmt::Check;
  S.Value = std::move(Cond);
  S.Var = std::move(Why);
  Stack.back()->push_back(std::move(S));
}

PyExpr Builder::open(std::string Var, PyExpr Begin, PyExpr End, PyExpr Step) {
  Stmt S;
  S.K = Stmt::LoopStmt;
  S.L = std::make_shared<Loop>();
  S.L->Var = std::move(Var);
  S.L->Begin = std::move(Begin);
  S.L->End = std::move(End);
  S.L->Step = std::move(Step);
  Stack.back()->push_back(S);
  Stack.push_back(&S.L->Body);
  return PyExpr::name(S.L->Var);
}

void Builder::chunks(std::string Lo, std::string Hi, std::string Count,
                     PyExpr End, PyExpr Step) {
  PyExpr L = open(std::move(Lo), 0, End, Step);
  PyExpr H = assign(std::move(Hi), PyExpr::min(End, L + Step));
  assign(std::move(Count), H - L);
}

void Builder::close() {
  if (Stack.size() > 1)
    Stack.pop_back();
}

std::string Builder::fresh(const std::string &P) {
  return P + "_" + std::to_string(Counter++);
}

std::string Builder::alloc(const std::string &Prefix, Mem M, DType T,
                           std::vector<PyExpr> Shape) {
  Op O;
  O.Kind = OpKind::Alloc;
  O.Alloc.Name = fresh(Prefix);
  O.Alloc.Space = M;
  O.Alloc.Ty = T;
  O.Alloc.Shape = std::move(Shape);
  std::string N = O.Alloc.Name;
  op(std::move(O));
  return N;
}

namespace {
// Not clang::Stmt, which a unity build (PK_UNITY_BUILD) may also make visible.
using pk::nki::Stmt;

/// Tile name -> the dtype it is printed with, where that differs from its
/// allocation's.
using DTypeFix = std::map<std::string, DType>;

void collectTileUses(const std::vector<Stmt> &Body,
                     std::map<std::string, const Tensor *> &Allocs,
                     std::map<std::string, std::vector<const Op *>> &Writers) {
  for (const Stmt &S : Body) {
    if (S.K == Stmt::LoopStmt)
      collectTileUses(S.L->Body, Allocs, Writers);
    else if (S.K == Stmt::OpStmt && S.O.Kind == OpKind::Alloc)
      Allocs[S.O.Alloc.Name] = &S.O.Alloc;
    else if (S.K == Stmt::OpStmt)
      Writers[S.O.Dst.Tensor].push_back(&S.O);
  }
}

/// The PSUM tiles written only by transposes of tiles of one dtype, and
/// that dtype.
DTypeFix transposeDtypes(const std::vector<Stmt> &Body) {
  std::map<std::string, const Tensor *> Allocs;
  std::map<std::string, std::vector<const Op *>> Writers;
  collectTileUses(Body, Allocs, Writers);
  DTypeFix R;
  for (const auto &[Name, Ws] : Writers) {
    auto A = Allocs.find(Name);
    if (A == Allocs.end() || A->second->Space != Mem::PSUM)
      continue;
    std::optional<DType> T;
    bool Ok = true;
    for (const Op *W : Ws) {
      auto Src =
          W->Kind == OpKind::Transpose && !W->Srcs.empty() && W->Srcs[0].IsTile
              ? Allocs.find(W->Srcs[0].Tile.Tensor)
              : Allocs.end();
      if (Src == Allocs.end() || (T && *T != Src->second->Ty)) {
        Ok = false;
        break;
      }
      T = Src->second->Ty;
    }
    if (Ok && T && *T != A->second->Ty)
      R[Name] = *T;
  }
  return R;
}

DType printedDtype(const Op &O, const DTypeFix &Fix) {
  auto It = Fix.find(O.Alloc.Name);
  return It == Fix.end() ? O.Alloc.Ty : It->second;
}

std::string shapeText(const std::vector<PyExpr> &S) {
  std::string R = "(";
  for (size_t I = 0; I < S.size(); ++I)
    R += (I ? ", " : "") + S[I].py();
  return R + (S.size() == 1 ? ",)" : ")");
}

std::string accessText(const Access &A) {
  if (A.Slices.empty())
    return A.Tensor;
  std::string R = A.Tensor + "[";
  for (size_t I = 0; I < A.Slices.size(); ++I)
    R += (I ? ", " : "") + A.Slices[I].first.py() + ":" +
         A.Slices[I].second.py();
  R += "]";
  if (!A.Reshape.empty())
    R += ".reshape(" + shapeText(A.Reshape) + ")";
  return R;
}

std::string operandText(const Operand &O) {
  return O.IsTile ? accessText(O.Tile) : O.Scalar.py();
}

/// Where the printer is: the kernel printed, the output line of the next
/// statement (every statement is one line), and the printed operations.
struct PrintPos {
  const Kernel *K = nullptr;
  unsigned Line = 1;
  std::vector<PrintedOp> *Printed = nullptr;
};

void emitBody(llvm::raw_ostream &OS, const std::vector<Stmt> &Body,
              unsigned Indent, const DTypeFix &Fix, PrintPos &Pos) {
  std::string Pad(Indent * 4, ' ');
  for (const Stmt &S : Body) {
    if (S.K == Stmt::Assign) {
      OS << Pad << S.Var << " = " << S.Value.py() << "\n";
      ++Pos.Line;
      continue;
    }
    if (S.K == Stmt::Check) {
      OS << Pad << "assert " << S.Value.py() << ", \"" << S.Var << "\"\n";
      ++Pos.Line;
      continue;
    }
    if (S.K == Stmt::LoopStmt) {
      OS << Pad << "for " << S.L->Var << " in range(" << S.L->Begin.py() << ", "
         << S.L->End.py() << ", " << S.L->Step.py() << "):\n";
      ++Pos.Line;
      if (S.L->Body.empty()) {
        OS << Pad << "    pass\n";
        ++Pos.Line;
      }
      emitBody(OS, S.L->Body, Indent + 1, Fix, Pos);
      continue;
    }
    const Op &O = S.O;
    if (Pos.Printed && O.Kind != OpKind::Alloc)
      Pos.Printed->push_back({Pos.Line, Pos.K->Name, O.Kind, &O.From});
    ++Pos.Line;
    std::string D = accessText(O.Dst);
    auto Src = [&](size_t I) { return operandText(O.Srcs[I]); };
    OS << Pad;
    // The call as opCallName names it; the allocation is an assignment.
    if (O.Kind != OpKind::Alloc)
      OS << opCallName(O.Kind) << "(";
    switch (O.Kind) {
    case OpKind::Alloc:
      OS << O.Alloc.Name << " = nl.ndarray(" << shapeText(O.Alloc.Shape)
         << ", dtype=nl." << dtypeName(printedDtype(O, Fix)) << ", buffer=nl."
         << memName(O.Alloc.Space) << ")";
      break;
    case OpKind::DmaCopy:
      OS << "dst=" << D << ", src=" << Src(0) << ")";
      break;
    case OpKind::TensorCopy:
      OS << "dst=" << D << ", src=" << Src(0) << ")";
      break;
    case OpKind::TensorTensor:
      OS << "dst=" << D << ", data1=" << Src(0)
         << ", data2=" << Src(1) << ", op=" << O.Fn << ")";
      break;
    case OpKind::TensorScalar:
      OS << "dst=" << D << ", data=" << Src(0)
         << ", op0=" << O.Fn << ", operand0=" << Src(1)
         << (O.Reverse ? ", reverse0=True" : "") << ")";
      break;
    case OpKind::Activation:
      OS << "dst=" << D << ", op=" << O.Fn
         << ", data=" << Src(0) << ")";
      break;
    case OpKind::Reciprocal:
      OS << "dst=" << D << ", data=" << Src(0) << ")";
      break;
    case OpKind::Reduce:
      OS << "dst=" << D << ", op=" << O.Fn
         << ", data=" << Src(0) << ", axis=1, keepdims=True)";
      break;
    case OpKind::Matmul:
      OS << "dst=" << D << ", stationary=" << Src(0)
         << ", moving=" << Src(1) << ")";
      break;
    case OpKind::Transpose:
      OS << "dst=" << D << ", data=" << Src(0) << ")";
      break;
    case OpKind::Memset:
      OS << "dst=" << D << ", value=" << Src(0) << ")";
      break;
    case OpKind::Iota:
      if (O.Srcs.size() == 4)
        OS << "dst=" << D << ", pattern=[[" << Src(2) << ", " << Src(1)
           << "]], offset=" << Src(0) << ", channel_multiplier=" << Src(3)
           << ")";
      else
        OS << "dst=" << D << ", pattern=[[1, " << Src(1)
           << "]], offset=" << Src(0) << ")";
      break;
    case OpKind::AffineSelect:
      OS << "dst=" << D << ", pattern=[[-1, " << Src(2)
         << "]], offset=" << Src(1)
         << ", channel_multiplier=1, on_true_tile=" << Src(0)
         << ", on_false_value=" << Src(3) << ", cmp_op=" << O.Fn << ")";
      break;
    }
    OS << "\n";
  }
}

const char *roleName(Param::Role R) {
  switch (R) {
  case Param::In:
    return "in";
  case Param::Out:
    return "out";
  case Param::InOut:
    return "inout";
  }
  return "in";
}

std::string quotedList(const std::vector<std::string> &V) {
  std::string R = "[";
  for (size_t I = 0; I < V.size(); ++I)
    R += (I ? ", " : "") + ("\"" + V[I] + "\"");
  return R + "]";
}

std::string quotedList(const std::vector<PyExpr> &V) {
  std::string R = "[";
  for (size_t I = 0; I < V.size(); ++I)
    R += (I ? ", " : "") + ("\"" + V[I].py() + "\"");
  return R + "]";
}

} // namespace

const char *nki::opCallName(OpKind K) {
  switch (K) {
  case OpKind::Alloc:
    return "nl.ndarray";
  case OpKind::DmaCopy:
    return "nisa.dma_copy";
  case OpKind::TensorCopy:
    return "nisa.tensor_copy";
  case OpKind::TensorTensor:
    return "nisa.tensor_tensor";
  case OpKind::TensorScalar:
    return "nisa.tensor_scalar";
  case OpKind::Activation:
    return "nisa.activation";
  case OpKind::Reciprocal:
    return "nisa.reciprocal";
  case OpKind::Reduce:
    return "nisa.tensor_reduce";
  case OpKind::Matmul:
    return "nisa.nc_matmul";
  case OpKind::Transpose:
    return "nisa.nc_transpose";
  case OpKind::Memset:
    return "nisa.memset";
  case OpKind::Iota:
    return "nisa.iota";
  case OpKind::AffineSelect:
    return "nisa.affine_select";
  }
  return "?";
}

namespace {

const char *opKindName(OpKind K) {
  switch (K) {
  case OpKind::Alloc:
    return "alloc";
  case OpKind::DmaCopy:
    return "dma_copy";
  case OpKind::TensorCopy:
    return "tensor_copy";
  case OpKind::TensorTensor:
    return "tensor_tensor";
  case OpKind::TensorScalar:
    return "tensor_scalar";
  case OpKind::Activation:
    return "activation";
  case OpKind::Reciprocal:
    return "reciprocal";
  case OpKind::Reduce:
    return "tensor_reduce";
  case OpKind::Matmul:
    return "nc_matmul";
  case OpKind::Transpose:
    return "nc_transpose";
  case OpKind::Memset:
    return "memset";
  case OpKind::Iota:
    return "iota";
  case OpKind::AffineSelect:
    return "affine_select";
  }
  return "?";
}

llvm::json::Array jsonList(const std::vector<PyExpr> &V) {
  llvm::json::Array A;
  for (const PyExpr &E : V)
    A.push_back(E.py());
  return A;
}

llvm::json::Array bodyJson(const std::vector<Stmt> &Body, const DTypeFix &Fix) {
  llvm::json::Array A;
  for (const Stmt &S : Body) {
    if (S.K == Stmt::Assign) {
      A.push_back(
          llvm::json::Object{{"assign", S.Var}, {"value", S.Value.py()}});
    } else if (S.K == Stmt::Check) {
      A.push_back(llvm::json::Object{{"check", S.Value.py()}, {"why", S.Var}});
    } else if (S.K == Stmt::LoopStmt) {
      A.push_back(llvm::json::Object{{"loop", S.L->Var},
                                     {"begin", S.L->Begin.py()},
                                     {"end", S.L->End.py()},
                                     {"step", S.L->Step.py()},
                                     {"body", bodyJson(S.L->Body, Fix)}});
    } else if (S.O.Kind == OpKind::Alloc) {
      A.push_back(
          llvm::json::Object{{"alloc", S.O.Alloc.Name},
                             {"memory", memName(S.O.Alloc.Space)},
                             {"dtype", dtypeName(printedDtype(S.O, Fix))},
                             {"shape", jsonList(S.O.Alloc.Shape)}});
    } else {
      llvm::json::Array Srcs;
      for (const Operand &O : S.O.Srcs)
        Srcs.push_back(operandText(O));
      llvm::json::Object Obj{{"op", opKindName(S.O.Kind)},
                             {"dst", accessText(S.O.Dst)},
                             {"srcs", std::move(Srcs)}};
      if (!S.O.Fn.empty())
        Obj["fn"] = S.O.Fn;
      if (S.O.From.known())
        Obj["from"] = llvm::json::Object{{"rule", ruleName(S.O.From.Rule)},
                                         {"line", S.O.From.Line},
                                         {"end_line", S.O.From.EndLine},
                                         {"why", S.O.From.Why}};
      A.push_back(std::move(Obj));
    }
  }
  return A;
}

} // namespace

unsigned nki::staticOpCount(const std::vector<Stmt> &Body) {
  unsigned N = 0;
  for (const Stmt &S : Body) {
    if (S.K == Stmt::LoopStmt)
      N += staticOpCount(S.L->Body);
    else if (S.K == Stmt::OpStmt && S.O.Kind != OpKind::Alloc)
      ++N;
  }
  return N;
}

llvm::json::Value nki::toJson(const Kernel &K) {
  llvm::json::Array Params;
  for (const Param &P : K.Params) {
    llvm::json::Object O{{"name", P.Name},
                         {"kind", P.IsTensor ? "tensor" : "scalar"},
                         {"dtype", dtypeName(P.Ty)}};
    if (P.IsTensor) {
      O["shape"] = jsonList(P.Shape);
      O["role"] = roleName(P.R);
    }
    Params.push_back(std::move(O));
  }
  return llvm::json::Object{
      {"kernel", K.Name},
      {"family", K.Family},
      {"params", std::move(Params)},
      {"launch", K.Launch},
      {"ops", staticOpCount(K.Body)},
      {"body", bodyJson(K.Body, transposeDtypes(K.Body))}};
}

std::string nki::emitPython(const std::vector<Kernel> &Ks,
                            const std::vector<std::string> &Header,
                            std::vector<PrintedOp> *Printed) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "# Generated by port-kernel --to nki: sequential NKI tile programs "
        "lifted from the CUDA/HIP kernels of this file.\n";
  for (const std::string &H : Header)
    OS << "# " << H << "\n";
  OS << "import nki\nimport nki.language as nl\nimport nki.isa as nisa\n";
  size_t Counted = 0;
  unsigned Lines = 0;
  for (const Kernel &K : Ks) {
    OS << "\n\n# " << K.Family << "\n@nki.jit\ndef "
       << (K.PyName.empty() ? K.Name : K.PyName) << "(";
    bool First = true;
    for (const Param &P : K.Params) {
      if (P.IsTensor && P.R == Param::Out)
        continue;
      OS << (First ? "" : ", ") << (P.PyName.empty() ? P.Name : P.PyName);
      First = false;
    }
    for (const std::string &L : K.Launch) {
      OS << (First ? "" : ", ") << L;
      First = false;
    }
    OS << "):\n";
    // Lines so far: counted from where the last count stopped (linear in
    // the output however many kernels it has).
    Lines += std::count(S.begin() + Counted, S.end(), '\n');
    Counted = S.size();
    PrintPos Pos;
    Pos.K = &K;
    Pos.Line = Lines + 1;
    Pos.Printed = Printed;
    emitBody(OS, K.Body, 1, transposeDtypes(K.Body), Pos);
    OS << "    return ";
    if (K.Returns.size() == 1)
      OS << K.Returns[0];
    else
      OS << "(" << llvm::join(K.Returns, ", ") << ")";
    OS << "\n";
  }
  OS << "\n\n# port-kernel calling convention (read by `port-kernel validate` "
        "and by callers)\nPK_KERNELS = {\n";
  for (const Kernel &K : Ks) {
    OS << "  \"" << K.Name << "\": {\n";
    // The Python function and scalar parameters where their names differ
    // from CUDA's (shapes are expressions over the Python names).
    if (!K.PyName.empty() && K.PyName != K.Name)
      OS << "    \"function\": \"" << K.PyName << "\",\n";
    OS << "    \"params\": [\n";
    for (const Param &P : K.Params) {
      OS << "      {\"name\": \"" << P.Name << "\", \"kind\": \""
         << (P.IsTensor ? "tensor" : "scalar") << "\", \"dtype\": \""
         << dtypeName(P.Ty) << "\"";
      if (!P.IsTensor && !P.PyName.empty() && P.PyName != P.Name)
        OS << ", \"py\": \"" << P.PyName << "\"";
      if (P.IsTensor)
        OS << ", \"shape\": " << quotedList(P.Shape) << ", \"role\": \""
           << roleName(P.R) << "\"";
      OS << "},\n";
    }
    OS << "    ],\n    \"launch\": " << quotedList(K.Launch) << ",\n  },\n";
  }
  OS << "}\n";
  return S;
}

namespace {

/// The kernel's names and their types, in program order.
class TypeScope {
public:
  std::map<std::string, PyType> Names;
  std::string Err;

  PyType type(const PyExpr &E) {
    return typeOf(E, [&](llvm::StringRef N) {
      auto It = Names.find(N.str());
      return It == Names.end() ? PyType::Unknown : It->second;
    });
  }

  /// \p E in \p Where must read bound names only and have a type in
  /// \p Want (empty: any).
  void need(const PyExpr &E, std::initializer_list<PyType> Want,
            const std::string &Where) {
    if (!Err.empty())
      return;
    if (E.empty()) {
      Err = Where + ": no expression";
      return;
    }
    if (auto Bad = E.invalid()) {
      Err = Where + ": " + *Bad;
      return;
    }
    std::vector<std::string> Free;
    E.freeNames(Free);
    for (const std::string &N : Free)
      if (!Names.count(N) && N != "True" && N != "False" && N != "None") {
        Err = Where + ": `" + E.py() + "` reads '" + N +
              "', which nothing defines before it";
        return;
      }
    if (Want.size() == 0)
      return;
    PyType T = type(E);
    for (PyType W : Want)
      if (T == W)
        return;
    Err = Where + ": `" + E.py() + "` is " +
          (T == PyType::Unknown ? std::string("of no known type")
                                : std::string("a ") + pyTypeName(T)) +
          ", not " + pyTypeName(*Want.begin());
  }

  void access(const Access &A, const std::string &Where) {
    if (!Err.empty())
      return;
    auto It = Names.find(A.Tensor);
    if (It == Names.end() || It->second != PyType::Tensor) {
      Err = Where + ": '" + A.Tensor + "' is not a tensor defined before it";
      return;
    }
    for (size_t I = 0; I < A.Slices.size(); ++I) {
      std::string W = Where + ", slice " + std::to_string(I + 1);
      need(A.Slices[I].first, {PyType::Int, PyType::Bool}, W);
      need(A.Slices[I].second, {PyType::Int, PyType::Bool}, W);
    }
    for (const PyExpr &R : A.Reshape)
      need(R, {PyType::Int}, Where + ", reshape");
  }

  void body(const std::vector<Stmt> &Body) {
    for (const Stmt &S : Body) {
      if (!Err.empty())
        return;
      switch (S.K) {
      case Stmt::Assign:
        need(S.Value, {}, "`" + S.Var + " = ...`");
        Names[S.Var] = type(S.Value);
        break;
      case Stmt::Check:
        need(S.Value, {PyType::Bool}, "the check \"" + S.Var + "\"");
        break;
      case Stmt::LoopStmt: {
        std::string W = "the loop over " + S.L->Var;
        need(S.L->Begin, {PyType::Int}, W + " (start)");
        need(S.L->End, {PyType::Int}, W + " (end)");
        need(S.L->Step, {PyType::Int}, W + " (step)");
        Names[S.L->Var] = PyType::Int;
        body(S.L->Body);
        break;
      }
      case Stmt::OpStmt: {
        const Op &O = S.O;
        std::string W = opCallName(O.Kind);
        if (O.Kind == OpKind::Alloc) {
          W += " of " + O.Alloc.Name;
          for (const PyExpr &D : O.Alloc.Shape)
            need(D, {PyType::Int}, W + " (shape)");
          Names[O.Alloc.Name] = PyType::Tensor;
          break;
        }
        access(O.Dst, W + " (dst)");
        for (size_t I = 0; I < O.Srcs.size(); ++I) {
          std::string WS = W + " (operand " + std::to_string(I + 1) + ")";
          if (O.Srcs[I].IsTile)
            access(O.Srcs[I].Tile, WS);
          else
            need(O.Srcs[I].Scalar, {PyType::Float, PyType::Int, PyType::Bool},
                 WS);
        }
        break;
      }
      }
    }
  }
};

} // namespace

std::string nki::verifyTileTypes(const Kernel &K) {
  TypeScope S;
  for (const Param &P : K.Params) {
    std::string N = P.PyName.empty() ? P.Name : P.PyName;
    if (P.IsTensor) {
      // Outputs are allocated in the body; inputs arrive as tensors.
      if (P.R != Param::Out)
        S.Names[N] = PyType::Tensor;
    } else {
      S.Names[N] =
          P.Ty == DType::F32 || P.Ty == DType::F16 || P.Ty == DType::BF16
              ? PyType::Float
              : PyType::Int;
    }
  }
  for (const std::string &L : K.Launch)
    S.Names[L] = PyType::Int;
  // Parameter shapes are read by the caller, over the scalar parameters
  // and the launch.
  for (const Param &P : K.Params)
    for (const PyExpr &D : P.Shape)
      S.need(D, {PyType::Int}, "the shape of parameter '" + P.Name + "'");
  S.body(K.Body);
  if (S.Err.empty())
    for (const std::string &R : K.Returns)
      if (S.Names[R] != PyType::Tensor) {
        S.Err = "the kernel returns '" + R + "', which is not a tensor";
        break;
      }
  return S.Err;
}

namespace {

unsigned dtypeBytes(DType T) {
  switch (T) {
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I64:
    return 8;
  default:
    return 4;
  }
}

std::string kib(uint64_t Bytes) {
  if (Bytes < 1024)
    return std::to_string(Bytes) + " B";
  char Buf[32];
  snprintf(Buf, sizeof Buf, "%.1f KiB", double(Bytes) / 1024.0);
  return Buf;
}

void collectAllocs(const std::vector<Stmt> &Body,
                   std::vector<const Tensor *> &Out) {
  for (const Stmt &S : Body) {
    if (S.K == Stmt::LoopStmt)
      collectAllocs(S.L->Body, Out);
    else if (S.K == Stmt::OpStmt && S.O.Kind == OpKind::Alloc)
      Out.push_back(&S.O.Alloc);
  }
}

} // namespace

std::string nki::capacityNote(const Kernel &K) {
  std::vector<const Tensor *> Allocs;
  collectAllocs(K.Body, Allocs);
  uint64_t SbufMax = 0, SbufSum = 0, PsumMax = 0;
  unsigned Sbuf = 0;
  std::vector<std::string> Sized;
  auto NoNames = [](llvm::StringRef) -> std::optional<int64_t> {
    return std::nullopt;
  };
  for (const Tensor *T : Allocs) {
    if (T->Space == Mem::HBM)
      continue;
    uint64_t Bytes = dtypeBytes(T->Ty);
    bool Known = true;
    for (size_t I = 1; I < T->Shape.size() && Known; ++I) {
      auto V = evalInt(T->Shape[I], NoNames);
      if (!V || *V < 0)
        Known = false;
      else
        Bytes *= uint64_t(*V);
    }
    if (!Known) {
      Sized.push_back(T->Name);
      continue;
    }
    if (T->Space == Mem::PSUM) {
      PsumMax = std::max(PsumMax, Bytes);
    } else {
      ++Sbuf;
      SbufMax = std::max(SbufMax, Bytes);
      SbufSum += Bytes;
    }
  }
  std::string R = "tiles per partition: ";
  if (Sbuf)
    R += "SBUF at most " + kib(SbufMax) + " a tile, " + kib(SbufSum) +
         " for its " + std::to_string(Sbuf) +
         " allocations (trn1, the smallest SBUF: 192 KiB)";
  else
    R += "no SBUF tile of a constant shape";
  if (PsumMax)
    R += "; PSUM at most " + kib(PsumMax) + " a tile (one bank: 2 KiB)";
  if (!Sized.empty())
    R += "; " + std::to_string(Sized.size()) + " sized by the arguments (" +
         llvm::join(Sized, ", ") + ": checked when traced)";
  return R;
}
