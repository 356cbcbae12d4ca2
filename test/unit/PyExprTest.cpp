// Rules: PK5001
// The tile program's typed expressions (lib/Targets/NKI/PyExpr.h): parsing
// the trace-time forms the lifters write, printing with exactly the
// parentheses Python's precedence needs, folding, types, values, names.
#include "PyExpr.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace pk::nki;

namespace {

std::string canon(llvm::StringRef S) {
  auto E = PyExpr::parse(S);
  if (!E)
    return "error: " + llvm::toString(E.takeError());
  return E->py();
}

/// The tree's structure, parenthesised in full (independent of py()).
std::string sexpr(const PyExpr &E) {
  std::string R = "(" + std::to_string(int(E.kind()));
  if (auto V = E.asInt())
    R += " " + std::to_string(*V);
  R += " " + E.text().str() + " " + E.op().str();
  for (const std::string &O : E.ops())
    R += " " + O;
  for (const PyExpr &A : E.args())
    R += " " + sexpr(A);
  return R + ")";
}

PyType intNames(llvm::StringRef N) {
  return N == "alpha" ? PyType::Float
         : N == "x"   ? PyType::Tensor
         : N == "zzz" ? PyType::Unknown
                      : PyType::Int;
}

TEST(PyExpr, ParsesWhatTheLiftersWriteAndPrintsItMinimally) {
  EXPECT_EQ(canon("min(cols, f0 + 512)"), "min(cols, f0 + 512)");
  EXPECT_EQ(canon("(cols) >= 1"), "cols >= 1");
  EXPECT_EQ(canon("((4095 // 64)) + 1"), "4095 // 64 + 1");
  EXPECT_EQ(canon("grid_x * (block_x // 32) >= rows"),
            "grid_x * (block_x // 32) >= rows");
  EXPECT_EQ(canon("block_x in (256, 32, 64)"), "block_x in (256, 32, 64)");
  EXPECT_EQ(canon("block_x in (128,)"), "block_x in (128,)");
  EXPECT_EQ(canon("(block_x, block_y) in ((32, 4), (16, 8))"),
            "(block_x, block_y) in ((32, 4), (16, 8))");
  EXPECT_EQ(canon("block_x == 32 and block_y == 8"),
            "block_x == 32 and block_y == 8");
  EXPECT_EQ(canon("1.0 / float(cols)"), "1.0 / float(cols)");
  EXPECT_EQ(canon("float(\"-inf\")"), "float(\"-inf\")");
  EXPECT_EQ(canon("-3.40282347e+38"), "-3.40282347e+38");
  EXPECT_EQ(canon("-2147483648"), "-2147483648");
  EXPECT_EQ(canon("0x7fffffff"), "2147483647");
  EXPECT_EQ(
      canon("len({r_ for r_ in {TILE * bid_y + tid_y for bid_y in "
            "range(grid_y) for tid_y in range(block_y)} if r_ < M}) == M"),
      "len({r_ for r_ in {TILE * bid_y + tid_y for bid_y in "
      "range(grid_y) for tid_y in range(block_y)} if r_ < M}) == M");
  EXPECT_EQ(canon("{(r_, c_) for (r_, c_) in s if r_ < M}"),
            "{(r_, c_) for (r_, c_) in s if r_ < M}");
  EXPECT_EQ(canon("all(v % 2 == 0 for v in range(n))"),
            "all(v % 2 == 0 for v in range(n))");
  EXPECT_EQ(canon("a if c else b"), "a if c else b");
  EXPECT_EQ(canon("nl.tile_size.pmax"), "nl.tile_size.pmax");
  EXPECT_EQ(canon("0 <= i < n"), "0 <= i < n");
  EXPECT_EQ(canon("not (a and b)"), "not (a and b)");
  EXPECT_EQ(canon("(a or b) and c"), "(a or b) and c");
  EXPECT_EQ(canon("a - (b - c)"), "a - (b - c)");
  EXPECT_EQ(canon("(a - b) - c"), "a - b - c");
  EXPECT_EQ(canon("a * (b // c)"), "a * (b // c)");
  EXPECT_EQ(canon("-(a + b)"), "-(a + b)");
  EXPECT_EQ(canon("(-2) ** 2"), "(-2) ** 2");
  EXPECT_EQ(canon("2 ** -1"), "2 ** -1");
  EXPECT_EQ(canon("(2 ** 3) ** 2"), "(2 ** 3) ** 2");
  EXPECT_EQ(canon("(a < b) < c"), "(a < b) < c");
  EXPECT_EQ(canon("set()"), "set()");
}

TEST(PyExpr, MalformedTextIsAnErrorWithItsColumn) {
  for (const char *Bad : {"a +", "x[0]", "f(", "\"open", "1 +* 2", "a b",
                          "(a, b", "{x for}", "3(4)", "a $ b", "", "for"}) {
    auto E = PyExpr::parse(Bad);
    ASSERT_FALSE(bool(E)) << Bad;
    std::string M = llvm::toString(E.takeError());
    EXPECT_NE(M.find("column "), std::string::npos) << Bad << ": " << M;
  }
}

TEST(PyExpr, BuildersFoldIntegersAndIdentities) {
  PyExpr C = PyExpr::name("cols");
  EXPECT_EQ((PyExpr(3) + PyExpr(4)).py(), "7");
  EXPECT_EQ((C + 0).py(), "cols");
  EXPECT_EQ((0 + C).py(), "cols");
  EXPECT_EQ((C * 1).py(), "cols");
  EXPECT_EQ(floorDiv(PyExpr(-7), PyExpr(2)).py(), "-4");
  EXPECT_EQ(mod(PyExpr(-7), PyExpr(2)).py(), "1");
  EXPECT_EQ(PyExpr::min(3, 5).py(), "3");
  EXPECT_EQ(PyExpr::min(C, PyExpr("f0") + 512).py(), "min(cols, f0 + 512)");
  EXPECT_EQ((C - (PyExpr("a") - PyExpr("b"))).py(), "cols - (a - b)");
  EXPECT_EQ((PyExpr(2) - C).py(), "2 - cols");
  EXPECT_EQ(PyExpr::unary("-", C + 1).py(), "-(cols + 1)");
  EXPECT_EQ(PyExpr::real(1.0).py(), "1.0");
  EXPECT_EQ(PyExpr::real(-1.0 / 0.0).py(), "float(\"-inf\")");
  EXPECT_EQ(PyExpr::both(PyExpr(), PyExpr("a < b")).py(), "a < b");
  EXPECT_EQ(PyExpr::either(PyExpr("a or b"), PyExpr("c")).py(), "a or b or c");
}

TEST(PyExpr, KernelModelOperatorsBecomePython) {
  PyExpr A = PyExpr::name("a"), B = PyExpr::name("b");
  EXPECT_EQ(PyExpr::apply("max", A, B).py(), "max(a, b)");
  EXPECT_EQ(PyExpr::apply("min", PyExpr(2), PyExpr(3)).py(), "2");
  EXPECT_EQ(PyExpr::apply("pow", A + 1, B).py(), "(a + 1) ** b");
  EXPECT_EQ(PyExpr::apply("-", A, B - A).py(), "a - (b - a)");
  EXPECT_EQ(PyExpr::apply("<=", A, B).py(), "a <= b");
  EXPECT_EQ(PyExpr::apply("&&", PyExpr::apply("<", A, B),
                          PyExpr::apply("||", A, B))
                .py(),
            "a < b and (a or b)");
  EXPECT_EQ(typeOf(PyExpr::apply("<", A, B), intNames), PyType::Bool);
}

TEST(PyExpr, Types) {
  auto T = [](const char *S) { return typeOf(PyExpr(S), intNames); };
  EXPECT_EQ(T("cols // 2"), PyType::Int);
  EXPECT_EQ(T("min(cols, f0 + 512)"), PyType::Int);
  EXPECT_EQ(T("1.0 / float(cols)"), PyType::Float);
  EXPECT_EQ(T("cols / 2"), PyType::Float);
  EXPECT_EQ(T("alpha * 2"), PyType::Float);
  EXPECT_EQ(T("cols >= 1 and rows >= 1"), PyType::Bool);
  EXPECT_EQ(T("(cols, rows)"), PyType::Tuple);
  EXPECT_EQ(T("len({r for r in range(n)})"), PyType::Int);
  EXPECT_EQ(T("x + 1"), PyType::Unknown);
  EXPECT_EQ(T("zzz * 2"), PyType::Unknown);
  EXPECT_EQ(T("\"a\""), PyType::Str);
}

TEST(PyExpr, IntegerValues) {
  std::map<std::string, int64_t> Env{{"cols", 1000}, {"f0", 512}};
  auto V = [&](const char *S) {
    return evalInt(PyExpr(S), [&](llvm::StringRef N) -> std::optional<int64_t> {
      auto It = Env.find(N.str());
      if (It == Env.end())
        return std::nullopt;
      return It->second;
    });
  };
  EXPECT_EQ(V("min(cols, f0 + 512)"), 1000);
  EXPECT_EQ(V("-7 // 2"), -4);
  EXPECT_EQ(V("-7 % 2"), 1);
  EXPECT_EQ(V("(cols + 127) // 128 * 128"), 1024);
  EXPECT_EQ(V("cols + n"), std::nullopt);
  EXPECT_EQ(V("cols / 2"), std::nullopt);
}

TEST(PyExpr, NamesRespectComprehensionScopes) {
  std::vector<std::string> N;
  PyExpr("len({r_ for r_ in range(M) if r_ < N}) == M // 16").freeNames(N);
  EXPECT_EQ(N, (std::vector<std::string>{"M", "N"}));
  N.clear();
  // The first iterable is evaluated outside: its n is the free one.
  PyExpr("{n for n in range(n)}").freeNames(N);
  EXPECT_EQ(N, (std::vector<std::string>{"n"}));
}

/// Random integer trees: printing and parsing again gives the same tree,
/// so the printer's parentheses are exactly what the structure needs.
TEST(PyExpr, PrintThenParseIsTheSameTree) {
  std::mt19937 G(7);
  const char *Ops[] = {"+",  "-",  "*", "//", "%", "**",
                       "<<", ">>", "&", "|",  "^", "/"};
  std::function<PyExpr(int)> Gen = [&](int D) -> PyExpr {
    unsigned R = G() % 10;
    if (D == 0 || R < 2)
      return R % 2 ? PyExpr::name("v" + std::to_string(G() % 3))
                   : PyExpr::integer(int64_t(G() % 5) - 2);
    if (R < 3)
      return PyExpr::unary(G() % 2 ? "-" : "~", Gen(D - 1));
    if (R < 4)
      return PyExpr::compare(Gen(D - 1), G() % 2 ? "<" : "in", Gen(D - 1));
    if (R < 5)
      return G() % 2 ? PyExpr::both(Gen(D - 1), Gen(D - 1))
                     : PyExpr::unary("not", Gen(D - 1));
    if (R < 6)
      return PyExpr::min(Gen(D - 1), Gen(D - 1));
    // Built unfolded, as the parser builds them.
    auto A = Gen(D - 1), B = Gen(D - 1);
    auto E = PyExpr::parse("(" + A.py() + ") " + Ops[G() % 12] + " (" + B.py() +
                           ")");
    EXPECT_TRUE(bool(E));
    return E ? *E : A;
  };
  for (int I = 0; I < 3000; ++I) {
    PyExpr E = Gen(5);
    auto Back = PyExpr::parse(E.py());
    ASSERT_TRUE(bool(Back)) << E.py();
    EXPECT_EQ(sexpr(*Back), sexpr(E)) << E.py();
  }
}

} // namespace
