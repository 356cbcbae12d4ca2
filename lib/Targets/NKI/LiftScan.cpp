//===- LiftScan.cpp - block inclusive scans to nc_matmul prefix sums ------===//
// Rules: PK5001, PK5004
//
// A kernel that scans across the lanes of a warp (__shfl_up_sync) is lifted
// when its body is, statement by statement, the single-pass block scan of
// docs/nki.md (corpus/inclusive_scan): each block sums everything in front
// of its tile (a strided loop, a __shfl_down_sync tree, one slot per warp,
// a barrier, a loop over the slots), scans its tile (a Hillis-Steele
// __shfl_up_sync scan with the lane guard inside each warp, the warps'
// totals scanned by warp 0 the same way, each warp adding the totals of the
// warps before it) and stores `v + blockOffset` under `gid < n`.  Names are
// free (bound on first use, distinct), the block size is a template
// parameter, a constant or blockDim.x; everything else is matched token by
// token (raw source tokens, `const` dropped, integer literals compared by
// value), so the kernel is the one whose meaning was worked out once:
// out[i] = in[0] + ... + in[i] for every i < n, when the block has B = block_x
// threads (whole warps, one shared slot per warp) and the grid covers n.
//
// The values must be 32-bit integers: a sum of integers modulo 2^32 is the
// same in any order, which is what lets a matrix product compute it.  The
// tile program splits each value into its four bytes (right_shift,
// bitwise_and), scans each byte plane in fp32 with nc_matmul (rows of 128
// elements on the partitions: the row's transposed bytes times an upper
// triangular [128, 128] matrix of ones give each row's prefix sums; a
// strictly triangular matrix times the row totals adds the rows before;
// a K = 1 matmul adds the carry of the tiles before), and puts the bytes
// back with carries (an integer right_shift by 8 of each plane's sum added
// to the next plane) and left_shift / bitwise_or.  Exactness: a byte
// plane's prefix sum over n elements is at most 255 * n, and with the carry
// from the plane below (< 2^16) it stays below 2^24 while n <= 65536, so
// every fp32 PSUM sum and every conversion is exact; `assert n <= 65536`
// is traced and larger inputs are refused when the kernel is built.
//
// A scan that deviates is refused (PK5004) at the statement or shuffle that
// deviates, with what the recognised shape expects there.
//
//===----------------------------------------------------------------------===//
#include "LiftScan.h"
#include "Lift.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <map>
#include <set>

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace {

/// A raw source token (text) and where it is.
struct Tok {
  std::string S;
  SourceLocation Loc;
};

bool isWord(const std::string &S) {
  return !S.empty() &&
         (isalnum(static_cast<unsigned char>(S[0])) || S[0] == '_');
}
bool isNumber(const std::string &S) {
  return !S.empty() && isdigit(static_cast<unsigned char>(S[0]));
}

/// The raw tokens of \p R (and the ';' right after it), normalised: `const`
/// and restrict qualifiers dropped, `threadIdx . x` as one token, integer
/// literals as decimal values, preprocessor lines (`#pragma unroll`)
/// skipped (macros are read as written).  Empty when \p R is not in one
/// file.
std::vector<Tok> tokens(const SourceManager &SM, const LangOptions &LO,
                        SourceRange R) {
  // A statement that begins with a macro (`__shared__`) is read as written.
  SourceLocation B = R.getBegin(), E = R.getEnd();
  if (B.isInvalid() || E.isInvalid())
    return {};
  B = SM.getExpansionLoc(B);
  E = SM.getExpansionRange(E).getEnd();
  if (!B.isFileID() || !E.isFileID() || SM.getFileID(B) != SM.getFileID(E))
    return {};
  FileID F = SM.getFileID(B);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(F, &Invalid);
  if (Invalid)
    return {};
  unsigned BO = SM.getFileOffset(B), EO = SM.getFileOffset(E);
  Lexer L(SM.getLocForStartOfFile(F), LO, Buf.begin(), Buf.begin() + BO,
          Buf.end());
  std::vector<Tok> Raw;
  Token T;
  bool InDirective = false;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    unsigned O = SM.getFileOffset(T.getLocation());
    if (T.isAtStartOfLine())
      InDirective = T.is(tok::hash);
    if (InDirective)
      continue;
    if (O > EO) {
      if (T.is(tok::semi))
        Raw.push_back({";", T.getLocation()});
      break;
    }
    Raw.push_back({Buf.substr(O, T.getLength()).str(), T.getLocation()});
  }
  std::vector<Tok> Out;
  for (size_t I = 0; I < Raw.size(); ++I) {
    const std::string &S = Raw[I].S;
    if (S == "const" || S == "__restrict__" || S == "__restrict")
      continue;
    if ((S == "threadIdx" || S == "blockIdx" || S == "blockDim" ||
         S == "gridDim") &&
        I + 2 < Raw.size() && Raw[I + 1].S == "." && isWord(Raw[I + 2].S)) {
      Out.push_back({S + "." + Raw[I + 2].S, Raw[I].Loc});
      I += 2;
      continue;
    }
    if (isNumber(S)) {
      llvm::StringRef N(S);
      N = N.rtrim("uUlL");
      uint64_t V = 0;
      if (!N.getAsInteger(0, V)) {
        Out.push_back({std::to_string(V), Raw[I].Loc});
        continue;
      }
    }
    Out.push_back(Raw[I]);
  }
  return Out;
}

/// Where the kernel's text is not what is compiled: a preprocessor line other
/// than `#pragma` inside one of \p Body's statements (the text of an inactive
/// `#if` branch would be read as code; lines between statements are not
/// read), or a user macro expanded in one of its expressions (its name would
/// be compared, not what it expands to). The scan is matched as written, so
/// either refuses it.
std::optional<std::pair<SourceLocation, std::string>>
notAsWritten(const SourceManager &SM, const LangOptions &LO,
             const CompoundStmt *Body) {
  SourceLocation B = SM.getExpansionLoc(Body->getBeginLoc()),
                 E = SM.getExpansionLoc(Body->getEndLoc());
  if (!B.isFileID() || !E.isFileID() || SM.getFileID(B) != SM.getFileID(E))
    return std::nullopt; // the statements are refused one by one
  FileID F = SM.getFileID(B);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(F, &Invalid);
  if (Invalid)
    return std::nullopt;
  unsigned EO = SM.getFileOffset(E);
  Lexer L(SM.getLocForStartOfFile(F), LO, Buf.begin(),
          Buf.begin() + SM.getFileOffset(B), Buf.end());
  // The file offsets each statement of the body spans.
  std::vector<std::pair<unsigned, unsigned>> Spans;
  for (const clang::Stmt *S : Body->body()) {
    SourceLocation SB = SM.getExpansionLoc(S->getBeginLoc()),
                   SE = SM.getExpansionRange(S->getEndLoc()).getEnd();
    if (SB.isFileID() && SE.isFileID() && SM.getFileID(SB) == F &&
        SM.getFileID(SE) == F)
      Spans.push_back({SM.getFileOffset(SB), SM.getFileOffset(SE)});
  }
  auto InStatement = [&](unsigned O) {
    return llvm::any_of(Spans,
                        [&](auto &P) { return P.first <= O && O <= P.second; });
  };
  Token T, Name;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof) || SM.getFileOffset(T.getLocation()) > EO)
      break;
    if (!T.isAtStartOfLine() || !T.is(tok::hash) ||
        !InStatement(SM.getFileOffset(T.getLocation())))
      continue;
    L.LexFromRawLexer(Name);
    llvm::StringRef D =
        Buf.substr(SM.getFileOffset(Name.getLocation()), Name.getLength());
    if (D != "pragma")
      return std::make_pair(T.getLocation(),
                            ("a '#" + D +
                             "' line inside a statement: the scan is "
                             "compared as written")
                                .str());
  }
  // The CUDA and HIP names that some headers define as macros.
  static const llvm::StringSet<> Builtin = {
      "threadIdx",  "blockIdx",      "blockDim",       "gridDim",
      "warpSize",   "__syncthreads", "__shfl_up_sync", "__shfl_down_sync",
      "__shared__", "__device__",    "__restrict__"};
  std::optional<std::pair<SourceLocation, std::string>> Found;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S || Found)
      return;
    SourceLocation Loc = S->getBeginLoc();
    if (isa<Expr>(S) && Loc.isMacroID()) {
      llvm::StringRef M = Lexer::getImmediateMacroName(Loc, SM, LO);
      if (!Builtin.count(M)) {
        Found = std::make_pair(SM.getExpansionLoc(Loc),
                               ("macro '" + M +
                                "' inside the kernel: the scan is compared as "
                                "written, not as expanded")
                                   .str());
        return;
      }
    }
    for (const clang::Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  return Found;
}

/// Names bound by the patterns: `$x` (the kernel's names, distinct) and
/// `%x` (names local to one statement, distinct from all others).
struct Bindings {
  std::map<std::string, std::string> G, L;
};

/// Matches \p P (space-separated tokens; `$x`, `%x` bind a name or a number)
/// against \p Ts; on success \p Bd holds the new bindings.
bool matchPattern(const std::string &P, const std::vector<Tok> &Ts,
                  Bindings &Bd) {
  llvm::SmallVector<llvm::StringRef, 64> Ps;
  llvm::StringRef(P).split(Ps, ' ', -1, false);
  if (Ps.size() != Ts.size())
    return false;
  Bindings N = Bd;
  N.L.clear();
  auto Taken = [&](const std::string &V) {
    if (!isWord(V) || isNumber(V))
      return false;
    for (auto &[K, W] : N.G)
      if (W == V)
        return true;
    for (auto &[K, W] : N.L)
      if (W == V)
        return true;
    return false;
  };
  for (size_t I = 0; I < Ps.size(); ++I) {
    std::string Pt = Ps[I].str();
    const std::string &T = Ts[I].S;
    if (Pt.size() > 1 && (Pt[0] == '$' || Pt[0] == '%')) {
      if (!isWord(T))
        return false;
      auto &M = Pt[0] == '$' ? N.G : N.L;
      auto It = M.find(Pt);
      if (It != M.end()) {
        if (It->second != T)
          return false;
        continue;
      }
      if (Taken(T))
        return false;
      M[Pt] = T;
      continue;
    }
    if (Pt != T)
      return false;
  }
  N.L.clear();
  Bd = std::move(N);
  return true;
}

/// One statement of the recognised shape: what it is (for the refusal),
/// its accepted spellings, and the group of statements that may come in
/// any order (0: in sequence).
struct Step {
  const char *What;
  std::vector<const char *> Forms;
  int Group = 0;
};

const char *const HillisSteele =
    "for ( int %d = 1 ; %d < 32 ; %d <<= 1 ) { $T %t = __shfl_up_sync ( "
    "4294967295 , $v , %d ) ; if ( $lane >= %d ) $v += %t ; }";

std::vector<Step> blockScanShape() {
  return {
      {"`constexpr int NUM_WARPS = B / 32;` (B: the block size)",
       {"constexpr int $NW = $B / 32 ;", "int $NW = $B / 32 ;"},
       1},
      {"`__shared__ T warpPartials[S];` (one slot per warp)",
       {"__shared__ $T $sp [ $S1 ] ;"},
       1},
      {"`__shared__ T warpTotals[S];` (one slot per warp)",
       {"__shared__ $T $st [ $S2 ] ;"},
       1},
      {"`int lane = threadIdx.x & 31;`",
       {"int $lane = threadIdx.x & 31 ;", "int $lane = threadIdx.x % 32 ;"},
       1},
      {"`int warp = threadIdx.x >> 5;`",
       {"int $warp = threadIdx.x >> 5 ;", "int $warp = threadIdx.x / 32 ;"},
       1},
      {"`int tileStart = blockIdx.x * B;`",
       {"int $ts = blockIdx.x * $B ;", "int $ts = $B * blockIdx.x ;"},
       1},
      {"`T pre = 0;` (the sum of the elements before the tile)",
       {"$T $pre = 0 ;"}},
      {"`for (int i = threadIdx.x; i < tileStart; i += B) pre += in[i];`",
       {"for ( int %i = threadIdx.x ; %i < $ts ; %i += $B ) $pre += $in [ %i "
        "] ;"}},
      {"`for (int o = 16; o > 0; o >>= 1) pre += __shfl_down_sync(0xffffffff, "
       "pre, o);` (the warp's sum in lane 0)",
       {"for ( int %o = 16 ; %o > 0 ; %o >>= 1 ) $pre += __shfl_down_sync ( "
        "4294967295 , $pre , %o ) ;",
        "for ( int %o = 16 ; %o > 0 ; %o /= 2 ) $pre += __shfl_down_sync ( "
        "4294967295 , $pre , %o ) ;"}},
      {"`if (lane == 0) warpPartials[warp] = pre;`",
       {"if ( $lane == 0 ) $sp [ $warp ] = $pre ;"}},
      {"`__syncthreads();`", {"__syncthreads ( ) ;"}},
      {"`T blockOffset = 0;`", {"$T $bo = 0 ;"}},
      {"`for (int w = 0; w < NUM_WARPS; ++w) blockOffset += warpPartials[w];`",
       {"for ( int %w = 0 ; %w < $NW ; ++ %w ) $bo += $sp [ %w ] ;",
        "for ( int %w = 0 ; %w < $NW ; %w ++ ) $bo += $sp [ %w ] ;"}},
      {"`int gid = tileStart + threadIdx.x;`",
       {"int $gid = $ts + threadIdx.x ;", "int $gid = threadIdx.x + $ts ;"}},
      {"`T v = gid < n ? in[gid] : 0;`",
       {"$T $v = $gid < $n ? $in [ $gid ] : 0 ;",
        "$T $v = ( $gid < $n ) ? $in [ $gid ] : 0 ;"}},
      {"the warp's scan `for (int d = 1; d < 32; d <<= 1) { T t = "
       "__shfl_up_sync(0xffffffff, v, d); if (lane >= d) v += t; }`",
       {HillisSteele}},
      {"`if (lane == 31) warpTotals[warp] = v;`",
       {"if ( $lane == 31 ) $st [ $warp ] = $v ;"}},
      {"`__syncthreads();`", {"__syncthreads ( ) ;"}},
      {"warp 0's scan of the totals `if (warp == 0) { T t = lane < NUM_WARPS "
       "? warpTotals[lane] : 0; <the warp's scan of t>; if (lane < NUM_WARPS) "
       "warpTotals[lane] = t; }`",
       {"if ( $warp == 0 ) { $T %t = $lane < $NW ? $st [ $lane ] : 0 ; for ( "
        "int %d = 1 ; %d < 32 ; %d <<= 1 ) { $T %u = __shfl_up_sync ( "
        "4294967295 , %t , %d ) ; if ( $lane >= %d ) %t += %u ; } if ( $lane "
        "< $NW ) $st [ $lane ] = %t ; }"}},
      {"`__syncthreads();`", {"__syncthreads ( ) ;"}},
      {"`if (warp > 0) v += warpTotals[warp - 1];` (the totals of the warps "
       "before)",
       {"if ( $warp > 0 ) $v += $st [ $warp - 1 ] ;"}},
      {"`if (gid < n) out[gid] = v + blockOffset;`",
       {"if ( $gid < $n ) $out [ $gid ] = $v + $bo ;",
        "if ( $gid < $n ) $out [ $gid ] = $bo + $v ;"}},
  };
}

/// The __shfl_up_sync calls of a body, with the loop each one is in.
struct ShuffleUps : DynamicASTVisitor {
  std::vector<std::pair<const CallExpr *, const ForStmt *>> Calls;
  std::vector<const ForStmt *> Loops;
  bool TraverseForStmt(ForStmt *F) override {
    Loops.push_back(F);
    bool R = DynamicASTVisitor::TraverseForStmt(F);
    Loops.pop_back();
    return R;
  }
  bool VisitCallExpr(CallExpr *C) override {
    std::string N;
    if (const FunctionDecl *F = C->getDirectCallee())
      N = F->getNameAsString();
    else if (auto *U = dyn_cast<UnresolvedLookupExpr>(
                 C->getCallee()->IgnoreParenImpCasts()))
      N = U->getName().getAsString();
    if (N == "__shfl_up_sync" || N == "__shfl_up")
      Calls.push_back({C, Loops.empty() ? nullptr : Loops.back()});
    return true;
  }
};

class ScanLifter {
public:
  ScanLifter(TargetContext &TC, const FunctionDecl *FD, Kernel &K)
      : TC(TC), FD(FD), K(K) {}
  std::optional<Refusal> run();

private:
  TargetContext &TC;
  const FunctionDecl *FD;
  Kernel &K;
  Bindings Bd;

  Refusal refuse(SourceLocation L, std::string Msg) {
    return Refusal{RuleId::PK5004, TC.SM().getExpansionLoc(L),
                   "__shfl_up_sync: a prefix scan across the lanes, not "
                   "the recognised block scan: " +
                       std::move(Msg)};
  }
  std::vector<Tok> toks(const clang::Stmt *S) {
    return tokens(TC.SM(), TC.Ctx().getLangOpts(), S->getSourceRange());
  }
  std::optional<Refusal> checkStep(const CallExpr *C, const ForStmt *F);
  void emit(DType Ty, const std::string &In, const std::string &Out,
            const std::string &N, std::optional<uint64_t> BlockConst,
            uint64_t S1, uint64_t S2);
};

/// Each shuffle-up must be the step of a Hillis-Steele scan, with the
/// full mask and the lane guard.
std::optional<Refusal> ScanLifter::checkStep(const CallExpr *C,
                                             const ForStmt *F) {
  SourceLocation L = C->getBeginLoc();
  QualType VT = C->getNumArgs() > 1 ? C->getArg(1)->IgnoreImpCasts()->getType()
                                    : QualType();
  auto DT = VT.isNull() ? std::nullopt : dtypeOf(VT);
  if (!DT || (*DT != DType::I32 && *DT != DType::U32))
    return refuse(L, "the scanned values are not 32-bit integers ('" +
                         (VT.isNull() ? std::string("?") : VT.getAsString()) +
                         "'): floating-point sums depend on their order, and "
                         "only integer scans (exact in any order) become "
                         "matrix products");
  if (!F)
    return refuse(L, "a shuffle-up outside a loop over the offsets 1, 2, 4, "
                     "8, 16");
  std::vector<Tok> Ts = toks(F);
  if (Ts.empty())
    return refuse(L, "the scan loop is not in one file");
  Bindings B;
  if (matchPattern(HillisSteele, Ts, B))
    return std::nullopt;
  // Say which part differs.
  Bindings H;
  std::vector<Tok> Head(Ts.begin(),
                        Ts.begin() + std::min<size_t>(16, Ts.size()));
  if (!matchPattern("for ( int %d = 1 ; %d < 32 ; %d <<= 1 ) {", Head, H))
    return refuse(L, "the shuffle-up offsets are not 1, 2, 4, 8, 16 (`for "
                     "(int d = 1; d < 32; d <<= 1)`), so the lanes do not "
                     "each add all the lanes below them");
  for (size_t I = 0; I + 2 < Ts.size(); ++I)
    if (Ts[I].S == "__shfl_up_sync" && Ts[I + 2].S != "4294967295")
      return refuse(L, "the mask is not 0xffffffff: every lane of the warp "
                       "must take part in each step");
  bool Guard = false;
  for (size_t I = 0; I + 2 < Ts.size(); ++I)
    if (Ts[I].S == ">=" && Ts[I + 1].S == Ts[3].S && Ts[I + 2].S == ")")
      Guard = true;
  if (!Guard)
    return refuse(L, "the step is not guarded by `if (lane >= d)`: a lane "
                     "below d would add the value it reads from itself");
  return refuse(L, "the step is not `T t = __shfl_up_sync(0xffffffff, v, d); "
                   "if (lane >= d) v += t;` with a variable `lane = "
                   "threadIdx.x & 31`");
}

std::optional<Refusal> ScanLifter::run() {
  auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return refuse(FD->getLocation(), "no body");
  if (auto W = notAsWritten(TC.SM(), TC.Ctx().getLangOpts(), Body))
    return refuse(W->first, W->second);
  ShuffleUps SU;
  SU.TraverseStmt(Body);
  for (auto &[C, F] : SU.Calls)
    if (auto R = checkStep(C, F))
      return R;

  // The body, statement by statement (static_assert declarations aside).
  std::vector<const clang::Stmt *> Stmts;
  for (const clang::Stmt *S : Body->body()) {
    if (auto *DS = dyn_cast<DeclStmt>(S))
      if (DS->isSingleDecl() && isa<StaticAssertDecl>(DS->getSingleDecl()))
        continue;
    if (auto *AS = dyn_cast<AttributedStmt>(S))
      S = AS->getSubStmt();
    Stmts.push_back(S);
  }
  std::vector<Step> Shape = blockScanShape();
  size_t SI = 0;
  std::vector<bool> Done(Shape.size(), false);
  for (const clang::Stmt *S : Stmts) {
    std::vector<Tok> Ts = toks(S);
    if (Ts.empty())
      return refuse(S->getBeginLoc(), "a statement that is not in one file");
    while (SI < Shape.size() && Done[SI])
      ++SI;
    if (SI == Shape.size())
      return refuse(S->getBeginLoc(),
                    "a statement after the store `out[gid] = v + "
                    "blockOffset`");
    // The steps this statement may be: the next one, or any of its group.
    bool Matched = false;
    for (size_t J = SI; J < Shape.size() && !Matched; ++J) {
      if (Done[J] || (J != SI && (Shape[SI].Group == 0 ||
                                  Shape[J].Group != Shape[SI].Group)))
        continue;
      for (const char *Form : Shape[J].Forms)
        if (matchPattern(Form, Ts, Bd)) {
          Done[J] = true;
          Matched = true;
          break;
        }
    }
    if (!Matched)
      return refuse(S->getBeginLoc(),
                    std::string("expected ") + Shape[SI].What);
  }
  while (SI < Shape.size() && Done[SI])
    ++SI;
  if (SI < Shape.size())
    return refuse(Body->getRBracLoc(),
                  std::string("the body ends before ") + Shape[SI].What);

  // The names: parameters, the block size, the element type.
  auto Param = [&](const std::string &N) -> const ParmVarDecl * {
    for (const ParmVarDecl *P : FD->parameters())
      if (P->getName() == N)
        return P;
    return nullptr;
  };
  if (FD->getNumParams() != 3)
    return refuse(FD->getLocation(),
                  "the kernel has parameters besides the input, the output "
                  "and the element count");
  const ParmVarDecl *In = Param(Bd.G["$in"]), *Out = Param(Bd.G["$out"]),
                    *N = Param(Bd.G["$n"]);
  if (!In || !Out || !N)
    return refuse(FD->getLocation(), "'" +
                                         (!In    ? Bd.G["$in"]
                                          : !Out ? Bd.G["$out"]
                                                 : Bd.G["$n"]) +
                                         "' is not a parameter of the kernel");
  if (!N->getType()->isIntegerType())
    return refuse(N->getLocation(),
                  "the element count '" + Bd.G["$n"] + "' is not an integer");
  std::optional<DType> DT;
  for (const ParmVarDecl *P : {In, Out}) {
    QualType T = P->getType();
    auto D = T->isPointerType() ? dtypeOf(T->getPointeeType()) : std::nullopt;
    if (!D || (*D != DType::I32 && *D != DType::U32) || (DT && *DT != *D))
      return refuse(P->getLocation(),
                    "'" + P->getNameAsString() +
                        "' is not a pointer to the scanned 32-bit integers");
    DT = D;
  }
  const std::string &T = Bd.G["$T"];
  if ((T == "int") != (*DT == DType::I32) || (T != "int" && T != "unsigned"))
    return refuse(FD->getLocation(), "the scan's values are '" + T +
                                         "', not the element type of '" +
                                         In->getNameAsString() + "'");
  std::optional<uint64_t> BlockConst;
  const std::string &BS = Bd.G["$B"];
  auto Num = [](const std::string &S) -> std::optional<uint64_t> {
    uint64_t V = 0;
    if (!isNumber(S) || llvm::StringRef(S).getAsInteger(10, V))
      return std::nullopt;
    return V;
  };
  if (isNumber(BS)) {
    uint64_t V = Num(BS).value_or(0);
    if (V % 32 || V == 0 || V > 1024)
      return refuse(FD->getLocation(),
                    "the block size " + BS +
                        " is not a whole number of warps up to 1024");
    BlockConst = V;
  } else if (BS != "blockDim.x") {
    bool IsParm = false;
    if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate())
      for (const NamedDecl *P : *FT->getTemplateParameters())
        if (isa<NonTypeTemplateParmDecl>(P) && P->getName() == BS)
          IsParm = true;
    if (!IsParm)
      return refuse(FD->getLocation(),
                    "the block size '" + BS +
                        "' is not a template parameter, a constant or "
                        "blockDim.x");
  }
  auto S1 = Num(Bd.G["$S1"]), S2 = Num(Bd.G["$S2"]);
  if (!S1 || !S2)
    return refuse(FD->getLocation(),
                  "the shared arrays' sizes are not constants");
  emit(*DT, Bd.G["$in"], Bd.G["$out"], Bd.G["$n"], BlockConst, *S1, *S2);
  return std::nullopt;
}

Access slice(const std::string &T, const PyExpr &P0, const PyExpr &P1,
             const PyExpr &F0, const PyExpr &F1) {
  Access A;
  A.Tensor = T;
  A.Slices = {{P0, P1}, {F0, F1}};
  return A;
}

void ScanLifter::emit(DType Ty, const std::string &InC, const std::string &OutC,
                      const std::string &NC, std::optional<uint64_t> BlockConst,
                      uint64_t S1, uint64_t S2) {
  std::string In = pyName(InC), Out = pyName(OutC);
  PyExpr N = PyExpr::name(pyName(NC));
  K.Name = FD->getNameAsString();
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getNameAsString();
    Pa.PyName = pyName(Pa.Name);
    if (Pa.Name == InC || Pa.Name == OutC) {
      Pa.IsTensor = true;
      Pa.Ty = Ty;
      Pa.Shape = {N};
      Pa.R = Pa.Name == InC ? Param::In : Param::Out;
    } else {
      Pa.Ty = dtypeOf(P->getType()).value_or(DType::I32);
    }
    K.Params.push_back(Pa);
  }
  K.Launch = {"grid_x", "block_x"};
  K.Family = "inclusive scan (block scan with shuffle-up warp scans): byte "
             "planes prefix-summed by nc_matmul with triangular ones in fp32 "
             "PSUM (exact for n <= 65536), bytes recombined with integer "
             "shifts";
  Builder B(K.Body);
  PyExpr Bx = PyExpr::name("block_x");
  B.check("block_x % 32 == 0 and 32 <= block_x <= 1024",
          "the block is whole warps, at most 1024 threads");
  if (BlockConst)
    B.check(PyExpr::compare(Bx, "==", PyExpr::integer(int64_t(*BlockConst))),
            "the block has the " + std::to_string(*BlockConst) +
                " threads the tile indices assume");
  B.check(PyExpr::compare(floorDiv(Bx, 32),
                          "<=", PyExpr::integer(int64_t(std::min(S1, S2)))),
          "the shared arrays hold one slot per warp");
  B.check(PyExpr::compare(PyExpr::name("grid_x") * Bx, ">=", N),
          "the grid covers the elements");
  B.check(PyExpr::compare(N, "<=", 65536),
          "each byte plane's prefix sums stay below 2**24, exact in fp32");
  Op A;
  A.Kind = OpKind::Alloc;
  A.Alloc = Tensor{Out, Mem::HBM, Ty, {N}};
  B.op(A);
  K.Returns.push_back(Out);

  auto Whole = [](const std::string &T) {
    Access X;
    X.Tensor = T;
    return X;
  };
  auto Tl = [](Access X) { return Operand::tile(std::move(X)); };
  auto Sc = [](std::string S) { return Operand::scalar(std::move(S)); };

  // Upper triangular ones (k <= m) by doubling: [[U, 1], [0, U]]; the
  // diagonal block moves across partitions, so by DMA.
  std::string Tri = B.alloc("tri", Mem::SBUF, DType::F32, {"128", "128"});
  B.op(OpKind::Memset, Whole(Tri), {Sc("0.0")});
  B.op(OpKind::Memset, slice(Tri, "0", "1", "0", "1"), {Sc("1.0")});
  PyExpr S = B.open(B.fresh("s"), 0, 7, 1);
  PyExpr W = PyExpr::binary("<<", 1, S), W2 = PyExpr::binary("<<", 2, S);
  B.op(OpKind::DmaCopy, slice(Tri, W, W2, W, W2),
       {Tl(slice(Tri, "0", W, "0", W))});
  B.op(OpKind::Memset, slice(Tri, "0", W, W, W2), {Sc("1.0")});
  B.close();
  // Strictly upper triangular (j < r): the same shifted one column right.
  std::string STri = B.alloc("stri", Mem::SBUF, DType::F32, {"128", "128"});
  B.op(OpKind::Memset, slice(STri, "0", "128", "0", "1"), {Sc("0.0")});
  B.op(OpKind::TensorCopy, slice(STri, "0", "128", "1", "128"),
       {Tl(slice(Tri, "0", "128", "0", "127"))});
  std::string Ones = B.alloc("ones", Mem::SBUF, DType::F32, {"128", "128"});
  B.op(OpKind::Memset, Whole(Ones), {Sc("1.0")});
  // The carry of each byte plane: the plane's sum of every tile before.
  std::string Carry = B.alloc("carry", Mem::SBUF, DType::F32, {"1", "4"});
  B.op(OpKind::Memset, Whole(Carry), {Sc("0.0")});

  DType IT = Ty; // integer tiles keep the element type
  // One tile of NP rows by NF elements, read from Src and written to Dst.
  auto TileScan = [&](Access Src, Access Dst, const PyExpr &NP,
                      const PyExpr &NF) {
    auto Sl = [&](const std::string &T) { return slice(T, 0, NP, 0, NF); };
    std::string X = B.alloc("x", Mem::SBUF, IT, {"128", "128"});
    B.op(OpKind::DmaCopy, Sl(X), {Tl(Src)});
    std::string Res = B.alloc("res", Mem::SBUF, IT, {"128", "128"});
    std::string CarryUp; // the carry out of the plane below, fp32
    for (int Kb = 0; Kb < 4; ++Kb) {
      std::string Kc = std::to_string(Kb);
      std::string Li = B.alloc("byte", Mem::SBUF, IT, {"128", "128"});
      if (Kb)
        B.op(OpKind::TensorScalar, Sl(Li),
             {Tl(Sl(X)), Sc(std::to_string(8 * Kb))}, "nl.right_shift");
      B.op(OpKind::TensorScalar, Sl(Li), {Tl(Sl(Kb ? Li : X)), Sc("255")},
           "nl.bitwise_and");
      std::string Lf = B.alloc("bytef", Mem::SBUF, DType::F32, {"128", "128"});
      B.op(OpKind::TensorCopy, Sl(Lf), {Tl(Sl(Li))});
      std::string LtP =
          B.alloc("bytet_ps", Mem::PSUM, DType::F32, {"128", "128"});
      B.op(OpKind::Transpose, slice(LtP, "0", NF, "0", NP), {Tl(Sl(Lf))});
      std::string Lt = B.alloc("bytet", Mem::SBUF, DType::F32, {"128", "128"});
      B.op(OpKind::TensorCopy, slice(Lt, "0", NF, "0", NP),
           {Tl(slice(LtP, "0", NF, "0", NP))});
      // Each row's prefix sums, then the rows before, then the tiles before.
      std::string Ps =
          B.alloc("scan_ps", Mem::PSUM, DType::F32, {"128", "128"});
      B.op(OpKind::Matmul, Sl(Ps),
           {Tl(slice(Lt, "0", NF, "0", NP)), Tl(slice(Tri, "0", NF, "0", NF))});
      std::string Tot = B.alloc("rowsum", Mem::SBUF, DType::F32, {"128", "1"});
      B.op(OpKind::Reduce, slice(Tot, "0", NP, "0", "1"), {Tl(Sl(Lf))},
           "nl.add");
      std::string TotB =
          B.alloc("rowsums", Mem::SBUF, DType::F32, {"128", "128"});
      B.op(OpKind::TensorScalar, Sl(TotB),
           {Tl(Sl(Ones)), Tl(slice(Tot, "0", NP, "0", "1"))}, "nl.multiply");
      B.op(OpKind::Matmul, Sl(Ps),
           {Tl(slice(STri, "0", NP, "0", NP)), Tl(Sl(TotB))});
      std::string CB = B.alloc("carryrow", Mem::SBUF, DType::F32, {"1", "128"});
      B.op(OpKind::TensorScalar, slice(CB, "0", "1", "0", NF),
           {Tl(slice(Ones, "0", "1", "0", NF)),
            Tl(slice(Carry, "0", "1", Kc, std::to_string(Kb + 1)))},
           "nl.multiply");
      B.op(OpKind::Matmul, Sl(Ps),
           {Tl(slice(Ones, "0", "1", "0", NP)),
            Tl(slice(CB, "0", "1", "0", NF))});
      std::string Sf = B.alloc("scan", Mem::SBUF, DType::F32, {"128", "128"});
      B.op(OpKind::TensorCopy, Sl(Sf), {Tl(Sl(Ps))});
      // The last element's sum is the carry of the next tile (a DMA: it
      // moves from partition NP - 1 to partition 0).
      B.op(OpKind::DmaCopy, slice(Carry, "0", "1", Kc, std::to_string(Kb + 1)),
           {Tl(slice(Sf, NP - 1, NP, NF - 1, NF))});
      // This plane's byte of the result, with the carry from the plane
      // below (all values below 2**24: exact in fp32).
      if (Kb)
        B.op(OpKind::TensorTensor, Sl(Sf), {Tl(Sl(Sf)), Tl(Sl(CarryUp))},
             "nl.add");
      std::string Ti = B.alloc("sumi", Mem::SBUF, IT, {"128", "128"});
      B.op(OpKind::TensorCopy, Sl(Ti), {Tl(Sl(Sf))});
      if (Kb < 3) {
        std::string Ci = B.alloc("up", Mem::SBUF, IT, {"128", "128"});
        B.op(OpKind::TensorScalar, Sl(Ci), {Tl(Sl(Ti)), Sc("8")},
             "nl.right_shift");
        CarryUp = B.alloc("upf", Mem::SBUF, DType::F32, {"128", "128"});
        B.op(OpKind::TensorCopy, Sl(CarryUp), {Tl(Sl(Ci))});
      }
      if (!Kb) {
        B.op(OpKind::TensorScalar, Sl(Res), {Tl(Sl(Ti)), Sc("255")},
             "nl.bitwise_and");
        continue;
      }
      std::string Di = B.alloc("digit", Mem::SBUF, IT, {"128", "128"});
      B.op(OpKind::TensorScalar, Sl(Di), {Tl(Sl(Ti)), Sc("255")},
           "nl.bitwise_and");
      B.op(OpKind::TensorScalar, Sl(Di),
           {Tl(Sl(Di)), Sc(std::to_string(8 * Kb))}, "nl.left_shift");
      B.op(OpKind::TensorTensor, Sl(Res), {Tl(Sl(Res)), Tl(Sl(Di))},
           "nl.bitwise_or");
    }
    B.op(OpKind::DmaCopy, Dst, {Tl(Sl(Res))});
  };

  // Whole rows of 128 elements, 128 rows a tile; then the ragged tail.
  PyExpr Rows = floorDiv(N, 128);
  std::string R0s = B.fresh("r0"), R1s = B.fresh("r1"), NPs = B.fresh("np");
  B.chunks(R0s, R1s, NPs, Rows, 128);
  PyExpr R0 = PyExpr::name(R0s), R1 = PyExpr::name(R1s),
         NPn = PyExpr::name(NPs);
  auto RowRun = [&](const std::string &T) {
    Access X;
    X.Tensor = T;
    X.Slices = {{R0 * 128, R1 * 128}};
    X.Reshape = {NPn, 128};
    return X;
  };
  TileScan(RowRun(In), RowRun(Out), NPn, 128);
  B.close();
  PyExpr T0 = B.open(B.fresh("t0"), Rows * 128, N, 128);
  PyExpr NT = B.assign(B.fresh("nt"), N - T0);
  auto Tail = [&](const std::string &T) {
    Access X;
    X.Tensor = T;
    X.Slices = {{T0, N}};
    X.Reshape = {1, NT};
    return X;
  };
  TileScan(Tail(In), Tail(Out), 1, NT);
  B.close();
}

} // namespace

bool nki::liftScan(TargetContext &TC, const FunctionDecl *FD, Kernel &K,
                   std::optional<Refusal> &Why) {
  ShuffleUps SU;
  if (FD->getBody())
    SU.TraverseStmt(FD->getBody());
  if (SU.Calls.empty())
    return false;
  Kernel Out;
  ScanLifter L(TC, FD, Out);
  if (auto R = L.run()) {
    Why = std::move(*R);
    return false;
  }
  K = std::move(Out);
  return true;
}
