//===- PyExpr.cpp - typed trace-time expressions of the tile program ------===//
// Rules: PK5001
//
// The expression trees, the printer with Python's operator precedence,
// names, types and integer values (the parser: PyExprParse.cpp).
//
//===----------------------------------------------------------------------===//
#include "PyExprImpl.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace pk;
using namespace pk::nki;
using pk::nki::pyexpr::pyNode;
using pk::nki::pyexpr::PyNodeP;

const char *nki::pyTypeName(PyType T) {
  switch (T) {
  case PyType::Unknown:
    return "unknown";
  case PyType::Int:
    return "int";
  case PyType::Float:
    return "float";
  case PyType::Bool:
    return "bool";
  case PyType::Str:
    return "str";
  case PyType::Tuple:
    return "tuple";
  case PyType::Set:
    return "set";
  case PyType::List:
    return "list";
  case PyType::Tensor:
    return "tensor";
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

namespace {

/// Python's floor division and modulo (the divisor nonzero).
int64_t floorDivI(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}
int64_t floorModI(int64_t A, int64_t B) { return A - floorDivI(A, B) * B; }

} // namespace

PyExpr PyExpr::integer(int64_t V) {
  auto N = pyNode(IntLit);
  N->I = V;
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr::PyExpr(int V) : PyExpr(integer(V)) {}
PyExpr::PyExpr(long V) : PyExpr(integer(V)) {}
PyExpr::PyExpr(long long V) : PyExpr(integer(V)) {}
PyExpr::PyExpr(unsigned V) : PyExpr(integer(V)) {}
PyExpr::PyExpr(unsigned long V) : PyExpr(integer(int64_t(V))) {}

PyExpr::PyExpr(llvm::StringRef Text) {
  // No text is no expression: a lifter may build a program it then
  // discards; one that is kept fails verifyTileTypes.
  if (Text.trim().empty())
    return;
  auto E = parse(Text);
  if (!E) {
    auto Bad = pyNode(Invalid);
    Bad->Text = Text.str();
    Bad->Op = llvm::toString(E.takeError());
    N = std::move(Bad);
    return;
  }
  N = E->N;
}
PyExpr::PyExpr(const char *Text) : PyExpr(llvm::StringRef(Text)) {}
PyExpr::PyExpr(const std::string &Text) : PyExpr(llvm::StringRef(Text)) {}

PyExpr PyExpr::real(double V) {
  if (std::isinf(V))
    return call("float", {str(V > 0 ? "inf" : "-inf")});
  if (std::isnan(V))
    return call("float", {str("nan")});
  char Buf[64];
  snprintf(Buf, sizeof Buf, "%.9g", V);
  std::string S = Buf;
  if (S.find_first_of(".eEn") == std::string::npos)
    S += ".0";
  auto N = pyNode(FloatLit);
  N->Text = S;
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::name(llvm::StringRef Nm) {
  auto N = pyNode(Name);
  N->Text = Nm.str();
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::str(llvm::StringRef S) {
  auto N = pyNode(StrLit);
  N->Text = S.str();
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::call(llvm::StringRef Fn, std::vector<PyExpr> Args) {
  auto N = pyNode(Call);
  N->Text = Fn.str();
  N->Args = std::move(Args);
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::unary(llvm::StringRef Op, PyExpr A) {
  if (Op == "-")
    if (auto V = A.asInt())
      return integer(-*V);
  auto N = pyNode(Unary);
  N->Op = Op.str();
  N->Args = {std::move(A)};
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::binary(llvm::StringRef Op, PyExpr A, PyExpr B) {
  auto X = A.asInt(), Y = B.asInt();
  if (X && Y) {
    if (Op == "+")
      return integer(*X + *Y);
    if (Op == "-")
      return integer(*X - *Y);
    if (Op == "*")
      return integer(*X * *Y);
    if (Op == "//" && *Y != 0)
      return integer(floorDivI(*X, *Y));
    if (Op == "%" && *Y != 0)
      return integer(floorModI(*X, *Y));
  }
  if ((Op == "+" || Op == "-") && Y && *Y == 0)
    return A;
  if (Op == "+" && X && *X == 0)
    return B;
  if ((Op == "*" || Op == "//") && Y && *Y == 1)
    return A;
  if (Op == "*" && X && *X == 1)
    return B;
  auto N = pyNode(Binary);
  N->Op = Op.str();
  N->Args = {std::move(A), std::move(B)};
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::compare(PyExpr A, llvm::StringRef Op, PyExpr B) {
  auto N = pyNode(Compare);
  N->Args = {std::move(A), std::move(B)};
  N->Ops = {Op.str()};
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::apply(llvm::StringRef Op, PyExpr A, PyExpr B) {
  if (Op == "min")
    return min(std::move(A), std::move(B));
  if (Op == "max")
    return max(std::move(A), std::move(B));
  if (Op == "pow")
    return binary("**", std::move(A), std::move(B));
  if (Op == "<" || Op == "<=" || Op == ">" || Op == ">=" || Op == "==" ||
      Op == "!=")
    return compare(std::move(A), Op, std::move(B));
  if (Op == "&&")
    return both(std::move(A), std::move(B));
  if (Op == "||")
    return either(std::move(A), std::move(B));
  return binary(Op, std::move(A), std::move(B));
}

PyExpr PyExpr::both(PyExpr A, PyExpr B) {
  if (A.empty())
    return B;
  if (B.empty())
    return A;
  auto N = pyNode(BoolOp);
  N->Op = "and";
  N->Args = {std::move(A), std::move(B)};
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::either(PyExpr A, PyExpr B) {
  if (A.empty())
    return B;
  if (B.empty())
    return A;
  auto N = pyNode(BoolOp);
  N->Op = "or";
  N->Args = {std::move(A), std::move(B)};
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::tuple(std::vector<PyExpr> Elts) {
  auto N = pyNode(Tuple);
  N->Args = std::move(Elts);
  return PyExpr(std::shared_ptr<const Node>(std::move(N)));
}

PyExpr PyExpr::min(PyExpr A, PyExpr B) {
  auto X = A.asInt(), Y = B.asInt();
  if (X && Y)
    return integer(std::min(*X, *Y));
  return call("min", {std::move(A), std::move(B)});
}

PyExpr PyExpr::max(PyExpr A, PyExpr B) {
  auto X = A.asInt(), Y = B.asInt();
  if (X && Y)
    return integer(std::max(*X, *Y));
  return call("max", {std::move(A), std::move(B)});
}

PyExpr nki::operator+(const PyExpr &A, const PyExpr &B) {
  return PyExpr::binary("+", A, B);
}
PyExpr nki::operator-(const PyExpr &A, const PyExpr &B) {
  return PyExpr::binary("-", A, B);
}
PyExpr nki::operator*(const PyExpr &A, const PyExpr &B) {
  return PyExpr::binary("*", A, B);
}
PyExpr nki::floorDiv(const PyExpr &A, const PyExpr &B) {
  return PyExpr::binary("//", A, B);
}
PyExpr nki::mod(const PyExpr &A, const PyExpr &B) {
  return PyExpr::binary("%", A, B);
}

PyExpr::Kind PyExpr::kind() const { return N ? N->K : None; }

std::optional<int64_t> PyExpr::asInt() const {
  if (N && N->K == IntLit)
    return N->I;
  return std::nullopt;
}

llvm::StringRef PyExpr::text() const {
  return N ? llvm::StringRef(N->Text) : llvm::StringRef();
}
llvm::StringRef PyExpr::op() const {
  return N ? llvm::StringRef(N->Op) : llvm::StringRef();
}
const std::vector<PyExpr> &PyExpr::args() const {
  static const std::vector<PyExpr> Empty;
  return N ? N->Args : Empty;
}
const std::vector<std::string> &PyExpr::ops() const {
  static const std::vector<std::string> Empty;
  return N ? N->Ops : Empty;
}

PyExpr PyExprAccess::make(std::shared_ptr<const PyExpr::Node> N) {
  return PyExpr(std::move(N));
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {

/// Python's precedence levels (the language reference's table), loosest
/// first.
enum Prec {
  PIfElse = 2,
  POr = 3,
  PAnd = 4,
  PNot = 5,
  PCompare = 6,
  PBitOr = 7,
  PBitXor = 8,
  PBitAnd = 9,
  PShift = 10,
  PAdd = 11,
  PMul = 12,
  PUnary = 13,
  PPower = 14,
  PPrimary = 16,
};

int binaryPrec(llvm::StringRef Op) {
  return llvm::StringSwitch<int>(Op)
      .Case("|", PBitOr)
      .Case("^", PBitXor)
      .Case("&", PBitAnd)
      .Cases("<<", ">>", PShift)
      .Cases("+", "-", PAdd)
      .Cases("*", "/", "//", "%", PMul)
      .Case("**", PPower)
      .Default(PPrimary);
}

int precOf(const PyExpr &E) {
  switch (E.kind()) {
  case PyExpr::IfElse:
    return PIfElse;
  case PyExpr::BoolOp:
    return E.op() == "or" ? POr : PAnd;
  case PyExpr::Unary:
    return E.op() == "not" ? PNot : PUnary;
  case PyExpr::Compare:
    return PCompare;
  case PyExpr::Binary:
    return binaryPrec(E.op());
  case PyExpr::IntLit:
    return *E.asInt() < 0 ? PUnary : PPrimary;
  case PyExpr::FloatLit:
    return E.text().starts_with("-") ? PUnary : PPrimary;
  default:
    return PPrimary;
  }
}

void print(const PyExpr &E, std::string &Out);
} // namespace
namespace pk {
namespace nki {
void printComp(const PyExpr &E, std::string &Out);
} // namespace nki
} // namespace pk
namespace {

void printAt(const PyExpr &E, int Min, std::string &Out) {
  bool Paren = precOf(E) < Min;
  if (Paren)
    Out += '(';
  print(E, Out);
  if (Paren)
    Out += ')';
}

void printList(const std::vector<PyExpr> &L, std::string &Out) {
  for (size_t I = 0; I < L.size(); ++I) {
    if (I)
      Out += ", ";
    printAt(L[I], PIfElse, Out);
  }
}

void printTarget(const PyExpr &T, std::string &Out) {
  if (T.kind() == PyExpr::Tuple) {
    Out += '(';
    for (size_t I = 0; I < T.args().size(); ++I) {
      if (I)
        Out += ", ";
      printTarget(T.args()[I], Out);
    }
    Out += T.args().size() == 1 ? ",)" : ")";
    return;
  }
  Out += T.text();
}

} // namespace

namespace pk {
namespace nki {
void printComp(const PyExpr &E, std::string &Out);
void printComp(const PyExpr &E, std::string &Out) {
  printAt(E.args()[0], PIfElse, Out);
  for (const CompClause &C : E.clauses()) {
    if (C.IsFor) {
      Out += " for ";
      printTarget(C.Target, Out);
      Out += " in ";
    } else {
      Out += " if ";
    }
    printAt(C.Value, POr, Out);
  }
}
} // namespace nki
} // namespace pk

namespace {

void print(const PyExpr &E, std::string &Out) {
  const auto &A = E.args();
  switch (E.kind()) {
  case PyExpr::None:
    Out += "None";
    return;
  case PyExpr::IntLit:
    Out += std::to_string(*E.asInt());
    return;
  case PyExpr::FloatLit:
  case PyExpr::Name:
    Out += E.text();
    return;
  case PyExpr::Invalid:
    Out += E.text();
    return;
  case PyExpr::StrLit:
    Out += '"';
    Out += E.text();
    Out += '"';
    return;
  case PyExpr::Unary:
    Out += E.op();
    if (E.op() == "not")
      Out += ' ';
    printAt(A[0], E.op() == "not" ? PNot : PUnary, Out);
    return;
  case PyExpr::Binary: {
    int P = binaryPrec(E.op());
    if (E.op() == "**") {
      printAt(A[0], PPrimary, Out);
      Out += " ** ";
      printAt(A[1], PUnary, Out);
      return;
    }
    printAt(A[0], P, Out);
    Out += ' ';
    Out += E.op();
    Out += ' ';
    printAt(A[1], P + 1, Out);
    return;
  }
  case PyExpr::Compare:
    printAt(A[0], PBitOr, Out);
    for (size_t I = 0; I < E.ops().size(); ++I) {
      Out += ' ';
      Out += E.ops()[I];
      Out += ' ';
      printAt(A[I + 1], PBitOr, Out);
    }
    return;
  case PyExpr::BoolOp: {
    int P = E.op() == "or" ? POr : PAnd;
    printAt(A[0], P, Out);
    for (size_t I = 1; I < A.size(); ++I) {
      Out += ' ';
      Out += E.op();
      Out += ' ';
      printAt(A[I], P + 1, Out);
    }
    return;
  }
  case PyExpr::IfElse:
    printAt(A[1], POr, Out);
    Out += " if ";
    printAt(A[0], POr, Out);
    Out += " else ";
    printAt(A[2], PIfElse, Out);
    return;
  case PyExpr::Call:
    Out += E.text();
    Out += '(';
    if (A.size() == 1 && A[0].kind() == PyExpr::Comp && A[0].compKind() == 'g')
      printComp(A[0], Out); // f(x for x in y)
    else
      printList(A, Out);
    Out += ')';
    return;
  case PyExpr::Attr:
    printAt(A[0], PPrimary, Out);
    Out += '.';
    Out += E.text();
    return;
  case PyExpr::Tuple:
    Out += '(';
    printList(A, Out);
    Out += A.size() == 1 ? ",)" : ")";
    return;
  case PyExpr::SetDisp:
    if (A.empty()) {
      Out += "set()";
      return;
    }
    Out += '{';
    printList(A, Out);
    Out += '}';
    return;
  case PyExpr::ListDisp:
    Out += '[';
    printList(A, Out);
    Out += ']';
    return;
  case PyExpr::Comp:
    Out += E.py();
    return;
  }
}

} // namespace

std::string PyExpr::py() const {
  std::string Out;
  if (kind() == Comp) {
    char K = N->CompKind;
    Out += K == 's' ? '{' : K == 'l' ? '[' : '(';
    printComp(*this, Out);
    Out += K == 's' ? '}' : K == 'l' ? ']' : ')';
    return Out;
  }
  print(*this, Out);
  return Out;
}

char PyExpr::compKind() const { return N ? N->CompKind : 0; }
const std::vector<CompClause> &PyExpr::clauses() const {
  static const std::vector<CompClause> Empty;
  return N ? N->Clauses : Empty;
}

//===----------------------------------------------------------------------===//
// Names, types, values
//===----------------------------------------------------------------------===//

namespace {

void bindTarget(const PyExpr &T, llvm::StringSet<> &Bound) {
  if (T.kind() == PyExpr::Name)
    Bound.insert(T.text());
  for (const PyExpr &A : T.args())
    bindTarget(A, Bound);
}

void freeNamesIn(const PyExpr &E, const llvm::StringSet<> &Bound,
                 llvm::StringSet<> &Seen, std::vector<std::string> &Out) {
  switch (E.kind()) {
  case PyExpr::Name:
    if (!Bound.count(E.text()) && Seen.insert(E.text()).second)
      Out.push_back(E.text().str());
    return;
  case PyExpr::Comp: {
    // Python binds the first iterable outside the comprehension; every
    // later clause and the element see the targets bound before them.
    llvm::StringSet<> Inner = Bound;
    for (const CompClause &C : E.clauses()) {
      freeNamesIn(C.Value, Inner, Seen, Out);
      if (C.IsFor)
        bindTarget(C.Target, Inner);
    }
    freeNamesIn(E.args()[0], Inner, Seen, Out);
    return;
  }
  case PyExpr::Attr:
    freeNamesIn(E.args()[0], Bound, Seen, Out);
    return;
  default:
    for (const PyExpr &A : E.args())
      freeNamesIn(A, Bound, Seen, Out);
  }
}

} // namespace

std::optional<std::string> PyExpr::invalid() const {
  if (kind() == Invalid)
    return "`" + N->Text + "` does not parse (" + N->Op + ")";
  for (const PyExpr &A : args())
    if (auto W = A.invalid())
      return W;
  for (const CompClause &C : clauses()) {
    if (auto W = C.Target.invalid())
      return W;
    if (auto W = C.Value.invalid())
      return W;
  }
  return std::nullopt;
}

void PyExpr::freeNames(std::vector<std::string> &Out) const {
  llvm::StringSet<> Bound, Seen;
  for (const std::string &S : Out)
    Seen.insert(S);
  freeNamesIn(*this, Bound, Seen, Out);
}

namespace {
bool numeric(PyType T) {
  return T == PyType::Int || T == PyType::Float || T == PyType::Bool;
}
PyType joinNumeric(PyType A, PyType B) {
  if (!numeric(A) || !numeric(B))
    return PyType::Unknown;
  if (A == PyType::Float || B == PyType::Float)
    return PyType::Float;
  return PyType::Int;
}
} // namespace

PyType nki::typeOf(const PyExpr &E,
                   const std::function<PyType(llvm::StringRef)> &NameType) {
  auto Ty = [&](const PyExpr &X) { return typeOf(X, NameType); };
  const auto &A = E.args();
  switch (E.kind()) {
  case PyExpr::None:
    return PyType::Unknown;
  case PyExpr::IntLit:
    return PyType::Int;
  case PyExpr::FloatLit:
    return PyType::Float;
  case PyExpr::Invalid:
    return PyType::Unknown;
  case PyExpr::StrLit:
    return PyType::Str;
  case PyExpr::Name:
    if (E.text() == "True" || E.text() == "False")
      return PyType::Bool;
    return NameType(E.text());
  case PyExpr::Unary: {
    if (E.op() == "not")
      return PyType::Bool;
    PyType T = Ty(A[0]);
    if (E.op() == "~")
      return T == PyType::Int || T == PyType::Bool ? PyType::Int
                                                   : PyType::Unknown;
    return T == PyType::Bool ? PyType::Int : numeric(T) ? T : PyType::Unknown;
  }
  case PyExpr::Binary: {
    PyType X = Ty(A[0]), Y = Ty(A[1]);
    llvm::StringRef Op = E.op();
    if (X == PyType::Set && Y == PyType::Set &&
        (Op == "|" || Op == "&" || Op == "-" || Op == "^"))
      return PyType::Set;
    if (Op == "/")
      return numeric(X) && numeric(Y) ? PyType::Float : PyType::Unknown;
    if (Op == "<<" || Op == ">>" || Op == "&" || Op == "|" || Op == "^")
      return (X == PyType::Int || X == PyType::Bool) &&
                     (Y == PyType::Int || Y == PyType::Bool)
                 ? PyType::Int
                 : PyType::Unknown;
    return joinNumeric(X, Y);
  }
  case PyExpr::Compare:
  case PyExpr::BoolOp:
    return PyType::Bool;
  case PyExpr::IfElse: {
    PyType X = Ty(A[1]), Y = Ty(A[2]);
    return X == Y ? X : joinNumeric(X, Y);
  }
  case PyExpr::Call: {
    llvm::StringRef F = E.text();
    if (F == "min" || F == "max") {
      PyType T = A.empty() ? PyType::Unknown : Ty(A[0]);
      for (size_t I = 1; I < A.size(); ++I)
        T = joinNumeric(T, Ty(A[I]));
      return T;
    }
    if (F == "float")
      return PyType::Float;
    if (F == "int" || F == "len" || F == "round")
      return PyType::Int;
    if (F == "bool" || F == "all" || F == "any")
      return PyType::Bool;
    if (F == "abs")
      return A.size() == 1 ? Ty(A[0]) : PyType::Unknown;
    if (F == "set")
      return PyType::Set;
    if (F == "range" || F == "list")
      return PyType::List;
    return PyType::Unknown;
  }
  case PyExpr::Attr:
    return PyType::Unknown;
  case PyExpr::Tuple:
    return PyType::Tuple;
  case PyExpr::SetDisp:
    return PyType::Set;
  case PyExpr::ListDisp:
    return PyType::List;
  case PyExpr::Comp:
    return E.compKind() == 's'   ? PyType::Set
           : E.compKind() == 'l' ? PyType::List
                                 : PyType::Unknown;
  }
  return PyType::Unknown;
}

std::optional<int64_t> nki::evalInt(
    const PyExpr &E,
    const std::function<std::optional<int64_t>(llvm::StringRef)> &Env) {
  auto Ev = [&](const PyExpr &X) { return evalInt(X, Env); };
  const auto &A = E.args();
  switch (E.kind()) {
  case PyExpr::IntLit:
    return E.asInt();
  case PyExpr::Name:
    return Env(E.text());
  case PyExpr::Unary: {
    auto V = Ev(A[0]);
    if (!V || E.op() == "not" || E.op() == "~")
      return std::nullopt;
    return E.op() == "-" ? -*V : *V;
  }
  case PyExpr::Binary: {
    auto X = Ev(A[0]), Y = Ev(A[1]);
    if (!X || !Y)
      return std::nullopt;
    llvm::StringRef Op = E.op();
    if (Op == "+")
      return *X + *Y;
    if (Op == "-")
      return *X - *Y;
    if (Op == "*")
      return *X * *Y;
    if ((Op == "//" || Op == "%") && *Y != 0)
      return Op == "//" ? floorDivI(*X, *Y) : floorModI(*X, *Y);
    return std::nullopt;
  }
  case PyExpr::Call: {
    if ((E.text() != "min" && E.text() != "max") || A.empty())
      return std::nullopt;
    std::optional<int64_t> R;
    for (const PyExpr &X : A) {
      auto V = Ev(X);
      if (!V)
        return std::nullopt;
      R = !R ? *V : E.text() == "min" ? std::min(*R, *V) : std::max(*R, *V);
    }
    return R;
  }
  default:
    return std::nullopt;
  }
}

std::string PyExpr::pyAtom() const {
  std::string S = py();
  return precOf(*this) < PPrimary ? "(" + S + ")" : S;
}
