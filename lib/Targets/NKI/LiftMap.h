//===- LiftMap.h - element-wise maps: the spec and its two readers --------===//
// Rules: PK5001, PK5006, PK5007, PK5008
//
// An element-wise map computes each element of its outputs from the same
// element of its inputs, from row or column vectors broadcast over it and
// from scalars.  Two readers produce a MapSpec: the kernel model
// (liftMap, LiftMap.cpp), which reads what the executed block stores
// whatever the spelling, and the older spelling matcher of
// LiftElementwise.cpp.  One emitter (emitMap, LiftMapEmit.cpp) turns a spec
// into the tile program.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTMAP_H
#define PK_NKI_LIFTMAP_H

#include "Lift.h"
#include "LiftLower.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace pk {
namespace nki {

/// An element-wise map over a 1-D index space (Ex elements) or a 2-D one
/// (Ey rows of Ex columns), with its outputs and their values.
struct MapSpec {
  bool TwoD = false;
  /// The extents (trace-time integers).
  PyExpr Ex, Ey = 1;
  /// Launch dimensions the kernel reads (grid_x, block_x, ...), in order.
  std::vector<std::string> Launch;
  /// Assumptions checked when the kernel is traced: (condition, why).
  std::vector<std::pair<PyExpr, std::string>> Checks;
  /// How each pointer parameter is accessed: 'e' the element itself, 'r' a
  /// row vector (one value per column), 'c' a column vector (per row).
  /// 'R' a matrix read down its columns by a column reduction, of Rows
  /// rows of Ex; 'W' a matrix read along its rows by a row reduction, of Ey
  /// rows of Rows; 'V' a vector of Rows read along every row by a row
  /// reduction (broadcast over the partitions).
  struct Use {
    char Layout = 'e';
    bool Read = false, Written = false;
    PyExpr Rows;
  };
  std::map<const clang::ParmVarDecl *, Use> Uses;
  /// Outputs in the order the kernel stores them.
  std::vector<std::pair<const clang::ParmVarDecl *, NodeP>> Stores;
  /// The PK5001 note's description of the kernel.
  std::string Family;
};

/// Emits \p S as the tile program of \p K (parameters, outputs, tile loops).
/// A refusal when a parameter has no NKI dtype or an unused pointer has no
/// shape.
std::optional<Refusal> emitMap(TargetContext &TC, const clang::FunctionDecl *FD,
                               const MapSpec &S, Kernel &K);

/// Lifts \p FD when the kernel model (pk/KernelModel.h) shows that every
/// thread stores, at its element of an index space of up to three
/// dimensions (however the index is spelled: locals, reassignments,
/// grid-stride loops, flat indices with `% cols` broadcasts, the block
/// size passed as a parameter), a function of that element of the inputs.
/// True with \p K filled; false with \p Why set when a map is recognised
/// but cannot be lifted; false with \p Why empty when the kernel is not a
/// map (another lifter's).
bool liftMap(TargetContext &TC, const clang::FunctionDecl *FD, Kernel &K,
             std::optional<Refusal> &Why);

} // namespace nki
} // namespace pk

#endif
