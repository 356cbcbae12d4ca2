//===- PyExprParse.cpp - parsing trace-time expressions -----------------===//
// Rules: PK5001
//
// The Python expression grammar that trace-time values use: literals,
// names, arithmetic, comparisons, boolean operators, conditional
// expressions, calls, attributes, tuples, set and list displays and
// comprehensions.  Anything else (subscripts, lambdas, keyword arguments,
// escapes in strings) is an error with its column.
//
//===----------------------------------------------------------------------===//
#include "PyExprImpl.h"

#include "llvm/ADT/StringSwitch.h"
#include <cctype>
#include <cstdlib>

using namespace pk;
using namespace pk::nki;
using pk::nki::pyexpr::pyNode;
using pk::nki::pyexpr::PyNodeP;

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

struct PyTok {
  enum K { End, Num, Str, Ident, Punct } Kind = End;
  std::string Text;
  size_t Pos = 0;
};

class PyParser {
public:
  explicit PyParser(llvm::StringRef S) : S(S) { lex(); }

  llvm::Expected<PyExpr> all() {
    PyExpr E = testList(/*AllowBareTuple=*/true);
    if (!Err.empty())
      return fail();
    if (T.Kind != PyTok::End)
      return error("unexpected '" + T.Text + "'"), fail();
    return E;
  }

private:
  llvm::StringRef S;
  size_t P = 0;
  PyTok T;
  std::string Err;

  llvm::Error fail() {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::StringRef(Err));
  }
  void error(const std::string &M) {
    if (Err.empty())
      Err = "column " + std::to_string(T.Pos + 1) + ": " + M;
  }

  void lex() {
    while (P < S.size() && (S[P] == ' ' || S[P] == '\t'))
      ++P;
    T = PyTok();
    T.Pos = P;
    if (P >= S.size())
      return;
    char C = S[P];
    if (std::isdigit((unsigned char)C) ||
        (C == '.' && P + 1 < S.size() &&
         std::isdigit((unsigned char)S[P + 1]))) {
      size_t B = P;
      while (P < S.size() &&
             (std::isalnum((unsigned char)S[P]) || S[P] == '.' || S[P] == '_' ||
              ((S[P] == '+' || S[P] == '-') &&
               (S[P - 1] == 'e' || S[P - 1] == 'E') &&
               !llvm::StringRef(S.data() + B, P - B)
                    .starts_with_insensitive("0x"))))
        ++P;
      T.Kind = PyTok::Num;
      T.Text = S.substr(B, P - B).str();
      return;
    }
    if (std::isalpha((unsigned char)C) || C == '_') {
      size_t B = P;
      while (P < S.size() && (std::isalnum((unsigned char)S[P]) || S[P] == '_'))
        ++P;
      T.Kind = PyTok::Ident;
      T.Text = S.substr(B, P - B).str();
      return;
    }
    if (C == '"' || C == '\'') {
      size_t B = ++P;
      while (P < S.size() && S[P] != C && S[P] != '\\')
        ++P;
      if (P >= S.size() || S[P] != C) {
        T.Kind = PyTok::Punct;
        T.Text = "<string>";
        error("unterminated or escaped string");
        P = S.size();
        return;
      }
      T.Kind = PyTok::Str;
      T.Text = S.substr(B, P - B).str();
      ++P;
      return;
    }
    static const char *Puncts[] = {
        "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+", "-",
        "*",  "/",  "%",  "<",  ">",  "(",  ")",  "[",  "]", "{",
        "}",  ",",  ".",  "&",  "|",  "^",  "~",  ":"};
    for (const char *Pu : Puncts)
      if (S.substr(P).starts_with(Pu)) {
        T.Kind = PyTok::Punct;
        T.Text = Pu;
        P += T.Text.size();
        return;
      }
    T.Kind = PyTok::Punct;
    T.Text = std::string(1, C);
    error("unexpected character '" + T.Text + "'");
    P = S.size();
  }

  bool is(llvm::StringRef X) const {
    return (T.Kind == PyTok::Punct || T.Kind == PyTok::Ident) && T.Text == X;
  }
  bool accept(llvm::StringRef X) {
    if (!is(X))
      return false;
    lex();
    return true;
  }
  void expect(llvm::StringRef X) {
    if (!accept(X))
      error("expected '" + X.str() + "'" +
            (T.Kind == PyTok::End ? " at the end" : ", not '" + T.Text + "'"));
  }
  bool keyword(llvm::StringRef X) const {
    return X == "and" || X == "or" || X == "not" || X == "in" || X == "is" ||
           X == "if" || X == "else" || X == "for" || X == "lambda";
  }

  static PyExpr fromNode(PyNodeP N);

  /// test (',' test)* [','] as a tuple where there is a comma.
  PyExpr testList(bool AllowBareTuple) {
    PyExpr E = test();
    if (!AllowBareTuple || !is(","))
      return E;
    std::vector<PyExpr> Elts{E};
    while (accept(",")) {
      if (T.Kind == PyTok::End || is(")"))
        break;
      Elts.push_back(test());
    }
    return PyExpr::tuple(std::move(Elts));
  }

  PyExpr test() {
    PyExpr B = orTest();
    if (!accept("if"))
      return B;
    PyExpr C = orTest();
    expect("else");
    PyExpr E = test();
    auto N = pyNode(PyExpr::IfElse);
    N->Args = {C, B, E};
    return fromNode(N);
  }

  PyExpr orTest() {
    PyExpr A = andTest();
    while (accept("or"))
      A = PyExpr::either(A, andTest());
    return A;
  }
  PyExpr andTest() {
    PyExpr A = notTest();
    while (accept("and"))
      A = PyExpr::both(A, notTest());
    return A;
  }
  PyExpr notTest() {
    if (accept("not"))
      return PyExpr::unary("not", notTest());
    return comparison();
  }

  std::optional<std::string> compOp() {
    for (const char *O : {"<", ">", "==", ">=", "<=", "!="})
      if (T.Kind == PyTok::Punct && T.Text == O) {
        lex();
        return std::string(O);
      }
    if (accept("in"))
      return std::string("in");
    if (is("not")) {
      lex();
      expect("in");
      return std::string("not in");
    }
    if (accept("is"))
      return std::string(accept("not") ? "is not" : "is");
    return std::nullopt;
  }

  PyExpr comparison() {
    PyExpr A = binary(0);
    auto O = compOp();
    if (!O)
      return A;
    auto N = pyNode(PyExpr::Compare);
    N->Args.push_back(A);
    while (O) {
      N->Ops.push_back(*O);
      N->Args.push_back(binary(0));
      O = compOp();
    }
    return fromNode(N);
  }

  /// Binary operator levels, loosest first.
  static int level(const PyTok &T) {
    if (T.Kind != PyTok::Punct)
      return -1;
    return llvm::StringSwitch<int>(T.Text)
        .Case("|", 0)
        .Case("^", 1)
        .Case("&", 2)
        .Cases("<<", ">>", 3)
        .Cases("+", "-", 4)
        .Cases("*", "/", "//", "%", 5)
        .Default(-1);
  }

  PyExpr binary(int Min) {
    if (Min > 5)
      return unary();
    PyExpr A = binary(Min + 1);
    while (level(T) == Min) {
      std::string Op = T.Text;
      lex();
      PyExpr B = binary(Min + 1);
      // Built without folding: the tree is what the text says.
      auto N = pyNode(PyExpr::Binary);
      N->Op = Op;
      N->Args = {A, B};
      A = fromNode(N);
    }
    return A;
  }

  PyExpr unary() {
    if (T.Kind == PyTok::Punct &&
        (T.Text == "-" || T.Text == "+" || T.Text == "~")) {
      std::string Op = T.Text;
      lex();
      return PyExpr::unary(Op, unary());
    }
    return power();
  }

  PyExpr power() {
    PyExpr A = primary();
    if (!accept("**"))
      return A;
    PyExpr B = unary();
    auto N = pyNode(PyExpr::Binary);
    N->Op = "**";
    N->Args = {A, B};
    return fromNode(N);
  }

  PyExpr primary() {
    PyExpr A = atom();
    while (Err.empty()) {
      if (is("(")) {
        if (A.kind() != PyExpr::Name && A.kind() != PyExpr::Attr) {
          error("only a name or an attribute is called");
          return A;
        }
        lex();
        std::vector<PyExpr> Args;
        while (!is(")") && Err.empty()) {
          PyExpr X = test();
          if (is("for")) {
            X = comprehension(X, 'g', ")");
            Args.push_back(X);
            break;
          }
          Args.push_back(X);
          if (!accept(","))
            break;
        }
        expect(")");
        std::string Fn = A.kind() == PyExpr::Name ? A.text().str() : A.py();
        A = PyExpr::call(Fn, std::move(Args));
        continue;
      }
      if (accept(".")) {
        if (T.Kind != PyTok::Ident) {
          error("expected an attribute name");
          return A;
        }
        auto N = pyNode(PyExpr::Attr);
        N->Args = {A};
        N->Text = T.Text;
        lex();
        A = fromNode(N);
        continue;
      }
      if (is("[")) {
        error("subscripts are not trace-time values of the tile program");
        return A;
      }
      break;
    }
    return A;
  }

  /// `for target in iter [if cond]...` up to \p Close, after the element.
  PyExpr comprehension(PyExpr Elt, char Kind, llvm::StringRef Close) {
    auto N = pyNode(PyExpr::Comp);
    N->CompKind = Kind;
    N->Args = {Elt};
    while (Err.empty() && !is(Close)) {
      if (accept("for")) {
        CompClause C;
        C.IsFor = true;
        C.Target = target();
        expect("in");
        C.Value = orTest();
        N->Clauses.push_back(C);
      } else if (accept("if")) {
        CompClause C;
        C.IsFor = false;
        C.Value = orTest();
        N->Clauses.push_back(C);
      } else {
        error("expected 'for', 'if' or '" + Close.str() + "'");
      }
    }
    return fromNode(N);
  }

  PyExpr targetAtom() {
    if (accept("(")) {
      PyExpr E = target();
      expect(")");
      return E;
    }
    if (T.Kind != PyTok::Ident || keyword(T.Text)) {
      error("expected a name to bind");
      return PyExpr();
    }
    PyExpr E = PyExpr::name(T.Text);
    lex();
    return E;
  }
  PyExpr target() {
    PyExpr A = targetAtom();
    if (!is(","))
      return A;
    std::vector<PyExpr> Elts{A};
    while (accept(",") && !is("in") && !is(")"))
      Elts.push_back(targetAtom());
    return PyExpr::tuple(std::move(Elts));
  }

  /// The elements of a display up to \p Close, or its comprehension.
  PyExpr display(PyExpr::Kind K, char CompKind, llvm::StringRef Close) {
    std::vector<PyExpr> Elts;
    bool Comma = false;
    if (!is(Close)) {
      PyExpr First = test();
      if (is("for")) {
        PyExpr C = comprehension(First, CompKind, Close);
        expect(Close);
        return C;
      }
      Elts.push_back(First);
      while (accept(",")) {
        Comma = true;
        if (is(Close))
          break;
        Elts.push_back(test());
      }
    }
    expect(Close);
    if (K == PyExpr::Tuple && Elts.size() == 1 && !Comma)
      return Elts[0]; // parentheses, not a tuple
    auto N = pyNode(K);
    N->Args = std::move(Elts);
    return fromNode(N);
  }

  PyExpr atom() {
    if (!Err.empty())
      return PyExpr();
    switch (T.Kind) {
    case PyTok::End:
      error("expected an expression at the end");
      return PyExpr();
    case PyTok::Num: {
      std::string X = T.Text;
      lex();
      std::string Digits;
      for (char C : X)
        if (C != '_')
          Digits += C;
      bool Float = Digits.find_first_of(".eE") != std::string::npos &&
                   !llvm::StringRef(Digits).starts_with_insensitive("0x");
      if (Float) {
        char *End = nullptr;
        std::strtod(Digits.c_str(), &End);
        if (!End || *End) {
          error("malformed number '" + X + "'");
          return PyExpr();
        }
        auto N = pyNode(PyExpr::FloatLit);
        N->Text = X;
        return fromNode(N);
      }
      long long V = 0;
      if (llvm::StringRef(Digits).getAsInteger(0, V)) {
        error("malformed integer '" + X + "'");
        return PyExpr();
      }
      return PyExpr::integer(V);
    }
    case PyTok::Str: {
      PyExpr E = PyExpr::str(T.Text);
      lex();
      return E;
    }
    case PyTok::Ident: {
      if (keyword(T.Text)) {
        error("unexpected '" + T.Text + "'");
        return PyExpr();
      }
      PyExpr E = PyExpr::name(T.Text);
      lex();
      return E;
    }
    case PyTok::Punct:
      if (accept("("))
        return display(PyExpr::Tuple, 'g', ")");
      if (accept("["))
        return display(PyExpr::ListDisp, 'l', "]");
      if (accept("{"))
        return display(PyExpr::SetDisp, 's', "}");
      error("unexpected '" + T.Text + "'");
      return PyExpr();
    }
    return PyExpr();
  }
};

} // namespace

PyExpr PyParser::fromNode(PyNodeP N) {
  return PyExprAccess::make(std::shared_ptr<const PyExpr::Node>(std::move(N)));
}

llvm::Expected<PyExpr> PyExpr::parse(llvm::StringRef Text) {
  PyParser P(Text);
  return P.all();
}
