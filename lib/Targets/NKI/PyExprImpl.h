//===- PyExprImpl.h - the nodes of PyExpr (private) ---------------------===//
// Rules: PK5001
//
// What PyExpr.cpp and PyExprParse.cpp share: the node, a comprehension's
// clauses, and the one way to wrap a node into an expression.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_PYEXPRIMPL_H
#define PK_NKI_PYEXPRIMPL_H

#include "PyExpr.h"

namespace pk {
namespace nki {

/// One clause of a comprehension: `for Target in Iter` or `if Cond`.
struct CompClause {
  bool IsFor = true;
  PyExpr Target, Value;
};

struct PyExpr::Node {
  Kind K = None;
  int64_t I = 0;
  std::string Text, Op;
  std::vector<PyExpr> Args;
  std::vector<std::string> Ops;
  char CompKind = 's';
  std::vector<CompClause> Clauses;
};

} // namespace nki
} // namespace pk

namespace pk {
namespace nki {

/// Grants the parser and the builders the private constructor.
struct PyExprAccess {
  static PyExpr make(std::shared_ptr<const PyExpr::Node> N);
};

namespace pyexpr {
using PyNodeP = std::shared_ptr<PyExpr::Node>;

inline PyNodeP pyNode(PyExpr::Kind K) {
  auto N = std::make_shared<PyExpr::Node>();
  N->K = K;
  return N;
}
} // namespace pyexpr

} // namespace nki
} // namespace pk

#endif
