//===- LiftMapImpl.h - the map reader between the model and the spec ------===//
// Rules: PK5006, PK5007
#ifndef PK_NKI_LIFTMAPIMPL_H
#define PK_NKI_LIFTMAPIMPL_H

#include "LiftMap.h"
#include "LiftMatmul.h"
#include "LiftSym.h"
#include "pk/KernelModel.h"

#include "pk/DynamicVisitor.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pk {
namespace nki {
namespace mapread {

using namespace clang;
using km::SymP;
using km::SymPool;
using km::Trace;

/// Atoms of the normalised values: the global coordinates, and the row and
/// column of a flat index seen as rows.
enum : unsigned { GTag = 1000, RowTag = 1003, ColTag = 1004 };

/// A store of the block, rewritten in the global coordinates.
struct NStore {
  const ParmVarDecl *P = nullptr;
  SymP Idx = nullptr, Val = nullptr, Guard = nullptr;
  SourceLocation Loc;
  bool operator==(const NStore &O) const {
    return P == O.P && Idx == O.Idx && Val == O.Val && Guard == O.Guard;
  }
};

/// The reading of one block shape's trace: the normalised stores, or why
/// the kernel is not a map.
struct Reading {
  std::vector<NStore> Stores;
  /// Grid-stride coordinates: d -> the loop's end.
  std::map<unsigned, SymP> StrideEnd;
  /// Parameters taken to be the block size in dimension d.
  std::map<const ValueDecl *, unsigned> BlockParam;
  std::string NotMap; ///< non-empty: why this is not a map
  RuleId NotMapRule = RuleId::PK5006;
  bool NotMapPreferred = false; ///< a reason to report over the matcher's
  SourceLocation NotMapLoc;
  /// Parameters a thread read after its own store without the model
  /// forwarding it (Trace::ReadAfterOwnStore).
  std::vector<const ValueDecl *> ReadAfterOwnStore;
};

/// Reads the stores of one block shape's trace in the global coordinates.
Reading readStores(const Trace &Tr, SymPool &P);

/// The GEMM of a 2-D map's one store (see LiftMapGemm.cpp): rows Row < M,
/// columns Col < N; none with \p Why when it is not a contraction.
std::optional<GemmSpec> contraction(SymPool &P, const NStore &S, SymP Row,
                                    SymP Col, SymP M, SymP N,
                                    const MapSpec &Spec, std::string &Why);

/// The map of one kernel: its reading at two block shapes, and the spec.
class MapBuilder {
public:
  MapBuilder(TargetContext &TC, const FunctionDecl *FD, SymPool &P,
          const Reading &Rd, const LaunchDims &Ds)
      : TC(TC), FD(FD), P(P), Rd(Rd), Ds(Ds) {}

  /// The spec; NotMap or Why when there is none.
  std::optional<MapSpec> build();
  /// A 2-D map that is a contraction: the GEMM (build() returns none).
  std::optional<GemmSpec> Gemm;
  std::string NotMap, NotMapPrefix = "not an element-wise map: ";
  RuleId NotMapRule = RuleId::PK5006;
  bool NotMapPreferred = false;
  std::optional<Refusal> Why;

private:
  TargetContext &TC;
  const FunctionDecl *FD;
  SymPool &P;
  const Reading &Rd;
  const LaunchDims &Ds;
  SymP F = nullptr;          ///< the stores' index
  SymP Row = nullptr, Col = nullptr; ///< the view's coordinates
  std::map<const ParmVarDecl *, MapSpec::Use> Uses;
  std::map<SymP, NodeP> Memo;

  SymP G(unsigned D) { return P.atom(GTag + D); }
  bool notMap(std::string W, RuleId Rule = RuleId::PK5006,
              bool Preferred = false) {
    if (NotMap.empty()) {
      NotMap = std::move(W);
      NotMapRule = Rule;
      NotMapPreferred = Preferred;
    }
    return false;
  }
  bool refuse(RuleId R, SourceLocation L, std::string M) {
    if (!Why)
      Why = Refusal{R, L.isValid() ? L : FD->getLocation(), std::move(M),
                    true};
    return false;
  }
  NodeP node(SymP S, SourceLocation L);
  bool classify(SymP S, SourceLocation L, std::set<SymP> &Seen);
  /// An arg-reduction's index: the values along the row (Vals, over the
  /// reduction's variable), the row's best they are compared with, and
  /// whether ties go to the last index.
  struct ArgForm {
    SymP Vals, Best;
    bool Last;
  };
  std::optional<ArgForm> argForm(SymP S);
  NodeP argIndex(SymP S, SourceLocation L);
  /// Column reductions: the reduction being classified, the extent of the
  /// column coordinate (the matrix's row length), whether the map is 1-D.
  SymP CurIter = nullptr, ColExt = nullptr;
  bool OneD = false, HasReduce = false;
  /// The map's reductions: 'R' down the columns (a column sum), 'W' along
  /// each element's row (a per-thread row reduction); 0 before the first.
  char RedKind = 0;
  bool readBeforeWrite(const ParmVarDecl *PV);
  /// While the stores' nodes are built: whether the element's row and
  /// column may be values (a 2-D view without reductions), the view's
  /// extents, and the checks their use adds.
  bool IndexView = false;
  PyExpr ViewEx, ViewEy;
  std::vector<std::pair<PyExpr, std::string>> IndexChecks;
};

/// A sum over K tiles of T unrolled terms (a staged tile's products with
/// zero fill past K, Body over the tile index It) as one sum over k < K:
/// the new iteration variable and term; none with \p Why.
std::optional<std::pair<SymP, SymP>> untile(SymPool &P, SymP It, SymP Body,
                                            SymP Guard, std::string &Why);

/// The conjuncts of a guard (`!(a || b)` is `!a && !b`).
void conjuncts(SymPool &P, SymP S, std::vector<SymP> &Out);


} // namespace mapread
} // namespace nki
} // namespace pk

#endif
