//===- PyExpr.h - typed trace-time expressions of the tile program --------===//
// Rules: PK5001
//
// The tile program's shapes, slice bounds, loop bounds, scalar operands,
// assignments and trace-time checks are expression trees, not text: what
// the NKI kernel computes at trace time (Python integers, floats, booleans
// and the tuples, sets and comprehensions of a coverage check).  Lifters
// build them with the operators below or, where a form is easier to write
// as text, parse it (PyExpr::parse; the implicit conversion from text
// parses, and malformed text is an Invalid expression that the type check
// refuses).  Only the emitter
// prints them (py()), with the parentheses Python's precedence needs.
//
// Types: every node has one of Int, Float, Bool, Str, Tuple, Set, List,
// Tensor or Unknown, from its literals, its operators and the binding of
// its names (typeOf); verifyTileTypes (TileProgram.h) checks a whole
// kernel: shapes and bounds are integers, checks are booleans, every name
// is bound before it is used.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_PYEXPR_H
#define PK_NKI_PYEXPR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatProviders.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pk {
namespace nki {

struct CompClause;
enum class PyType { Unknown, Int, Float, Bool, Str, Tuple, Set, List, Tensor };
const char *pyTypeName(PyType T);

class PyExpr {
public:
  enum Kind {
    None,     ///< no expression (the empty value)
    IntLit,   ///< Int
    FloatLit, ///< Text: as written (1.0, -3.4e38)
    StrLit,   ///< Text: the string's contents (no quotes, no escapes)
    Name,     ///< Text
    Unary,    ///< Op ("-", "+", "~", "not") Args[0]
    Binary,   ///< Args[0] Op Args[1]: + - * / // % ** << >> & | ^
    Compare,  ///< Args[0] Ops[0] Args[1] Ops[1] Args[2] ... (a chain)
    BoolOp,   ///< Args joined by Op ("and" or "or")
    IfElse,   ///< Args[1] if Args[0] else Args[2]
    Call,     ///< Text(Args...)
    Attr,     ///< Args[0].Text
    Tuple,    ///< (Args...)
    SetDisp,  ///< {Args...}
    ListDisp, ///< [Args...]
    /// {Args[0] for Targets[0] in Iters[0] ... if Conds...}: Comp is 's'
    /// (set), 'l' (list) or 'g' (a generator, only as a call's argument).
    Comp,
    /// Text that does not parse (Text: the text, Op: why): a lifter's
    /// mistake, which verifyTileTypes reports instead of printing it.
    Invalid,
  };

  PyExpr() = default;
  /// Integer literals.
  PyExpr(int V);
  PyExpr(long V);
  PyExpr(long long V);
  PyExpr(unsigned V);
  PyExpr(unsigned long V);
  /// Parses \p Text; malformed text is an Invalid expression (a lifter's
  /// bug, which the type check refuses).  Empty text is the empty
  /// expression.
  PyExpr(const char *Text);
  PyExpr(const std::string &Text);
  PyExpr(llvm::StringRef Text);

  static llvm::Expected<PyExpr> parse(llvm::StringRef Text);
  static PyExpr integer(int64_t V);
  /// A float literal printed as \p Text (a Python float literal).
  static PyExpr real(double V);
  static PyExpr name(llvm::StringRef N);
  static PyExpr str(llvm::StringRef S);
  static PyExpr call(llvm::StringRef Fn, std::vector<PyExpr> Args);
  static PyExpr unary(llvm::StringRef Op, PyExpr A);
  /// A binary arithmetic operation; integer literals fold, and 0 and 1
  /// vanish where they are identities (x + 0, x * 1).
  static PyExpr binary(llvm::StringRef Op, PyExpr A, PyExpr B);
  static PyExpr compare(PyExpr A, llvm::StringRef Op, PyExpr B);
  /// A and B combined by the kernel model's operator \p Op: min and max
  /// as calls, pow as **, an arithmetic or bit operator as itself, a
  /// comparison as a comparison.
  static PyExpr apply(llvm::StringRef Op, PyExpr A, PyExpr B);
  static PyExpr both(PyExpr A, PyExpr B);   ///< A and B
  static PyExpr either(PyExpr A, PyExpr B); ///< A or B
  static PyExpr tuple(std::vector<PyExpr> Elts);
  static PyExpr min(PyExpr A, PyExpr B);
  static PyExpr max(PyExpr A, PyExpr B);

  Kind kind() const;
  bool empty() const { return !N; }
  explicit operator bool() const { return N != nullptr; }
  /// The integer literal's value.
  std::optional<int64_t> asInt() const;
  /// Name, Call, Attr: the name; FloatLit: the literal; StrLit: contents.
  llvm::StringRef text() const;
  /// Unary/Binary/BoolOp: the operator.
  llvm::StringRef op() const;
  const std::vector<PyExpr> &args() const;
  /// Compare: the operators between args.
  const std::vector<std::string> &ops() const;
  /// Comp: 's', 'l' or 'g'; its clauses in order.
  char compKind() const;
  const std::vector<CompClause> &clauses() const;

  /// The Python text, with the parentheses precedence needs and no other.
  std::string py() const;
  /// py(), parenthesised unless it is a primary (a name, a literal, a
  /// call): safe to paste into text beside any operator.
  std::string pyAtom() const;
  /// Every name the expression reads, outside the comprehensions' own
  /// targets, in first-use order.
  void freeNames(std::vector<std::string> &Out) const;
  /// The first Invalid node's text and why it does not parse, if any.
  std::optional<std::string> invalid() const;
  bool operator==(const PyExpr &O) const { return py() == O.py(); }
  bool operator!=(const PyExpr &O) const { return !(*this == O); }

  struct Node;

private:
  friend struct PyExprAccess;
  explicit PyExpr(std::shared_ptr<const Node> N) : N(std::move(N)) {}
  std::shared_ptr<const Node> N;
};

PyExpr operator+(const PyExpr &A, const PyExpr &B);
PyExpr operator-(const PyExpr &A, const PyExpr &B);
PyExpr operator*(const PyExpr &A, const PyExpr &B);
// Text is never an arithmetic operand: `"min(" + E` is string building by
// mistake, not an addition, and does not compile.
#define PK_PYEXPR_NO_TEXT(OP)                                                  \
  PyExpr operator OP(const PyExpr &, const char *) = delete;                   \
  PyExpr operator OP(const char *, const PyExpr &) = delete;                   \
  PyExpr operator OP(const PyExpr &, const std::string &) = delete;            \
  PyExpr operator OP(const std::string &, const PyExpr &) = delete;            \
  inline PyExpr operator OP(const PyExpr &A, int B) { return A OP PyExpr(B); } \
  inline PyExpr operator OP(int A, const PyExpr &B) { return PyExpr(A) OP B; }
PK_PYEXPR_NO_TEXT(+)
PK_PYEXPR_NO_TEXT(-)
PK_PYEXPR_NO_TEXT(*)
#undef PK_PYEXPR_NO_TEXT
/// Python's floor division (//) and modulo of integers.
PyExpr floorDiv(const PyExpr &A, const PyExpr &B);
PyExpr mod(const PyExpr &A, const PyExpr &B);

/// The type of \p E where \p NameType gives the bound names' types
/// (Unknown for a name it does not know).
PyType typeOf(const PyExpr &E,
              const std::function<PyType(llvm::StringRef)> &NameType);

/// The value of an integer expression with the names \p Env gives (none
/// where a name is unknown, or the expression is not integer arithmetic).
std::optional<int64_t>
evalInt(const PyExpr &E,
        const std::function<std::optional<int64_t>(llvm::StringRef)> &Env);

/// A list of expressions (a shape) built from text or expressions.
using PyExprs = std::vector<PyExpr>;

} // namespace nki
} // namespace pk

namespace llvm {
/// formatv("{0}", E) prints E's Python text (messages and descriptions).
template <> struct format_provider<pk::nki::PyExpr> {
  static void format(const pk::nki::PyExpr &E, raw_ostream &OS, StringRef) {
    OS << E.py();
  }
};
} // namespace llvm

#endif
