//===- AtomicsCacheHints.cpp - __nv_atomic_* and cache-hinted accesses ----===//
// Rules: PK1017, PK1018
//
// PK1017: CUDA 12's scoped atomics (__nv_atomic_fetch_add(p, v, order,
// scope) and the rest of the family) become clang's HIP builtins
// (__hip_atomic_fetch_add(p, v, order, scope)), which take the same memory
// orders (__NV_ATOMIC_X -> __ATOMIC_X, the same values) and a HIP memory
// scope:
//   __NV_THREAD_SCOPE_THREAD  -> __HIP_MEMORY_SCOPE_SINGLETHREAD
//   __NV_THREAD_SCOPE_BLOCK   -> __HIP_MEMORY_SCOPE_WORKGROUP
//   __NV_THREAD_SCOPE_CLUSTER -> __HIP_MEMORY_SCOPE_AGENT (AMD GPUs have no
//                                clusters; the device is the next wider
//                                scope, at least as strong)
//   __NV_THREAD_SCOPE_DEVICE  -> __HIP_MEMORY_SCOPE_AGENT
//   __NV_THREAD_SCOPE_SYSTEM  -> __HIP_MEMORY_SCOPE_SYSTEM (also when the
//                                scope is left out, CUDA's default)
// The forms that pass values through pointers (__nv_atomic_load(p, &r, o),
// __nv_atomic_exchange(p, &v, &r, o), ...) dereference them around the
// builtin; compare-exchange picks the _weak or _strong builtin from its
// constant `weak` argument; __nv_atomic_thread_fence(o, s) becomes
// __builtin_amdgcn_fence(o, "scope").  An order, scope or weak flag that is
// not a constant, a relaxed fence, and a call the rewrite cannot edit (in a
// macro body) are flagged.  A call in a template whose arguments depend on
// its parameters is rewritten the same way (the spelling serves every
// instantiation) after checking that each instantiation calls CUDA's
// function and not a user's overload found through the argument types;
// otherwise it is flagged.  The same holds for the PK1018 hints.
//
// PK1018: cache-hinted loads and stores (__ldcs, __ldlu, __ldca, __ldcg,
// __ldcv, __stcs, __stcg, __stwb, __stwt) on any element type.  HIP
// declares none of them except a few __half overloads.  Streaming hints
// (__ldcs, __ldlu, __stcs: evict first) on a scalar become clang's
// __builtin_nontemporal_load/store, the AMDGPU streaming access; every other
// hint, and every hint on a vector or class type (which the nontemporal
// builtins do not take), becomes a plain access: the hints change caching,
// never the value read or written.  __ldcv (do not cache, fetch again) on a
// scalar becomes a volatile load; on other types it is flagged.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <optional>

using namespace pk;
using namespace clang;

namespace {

/// The integer value of a constant argument; std::nullopt otherwise.
std::optional<int64_t> constantArg(const Expr *E, const ASTContext &Ctx) {
  if (E->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

const char *orderName(int64_t V) {
  static const char *const Names[] = {"__ATOMIC_RELAXED", "__ATOMIC_CONSUME",
                                      "__ATOMIC_ACQUIRE", "__ATOMIC_RELEASE",
                                      "__ATOMIC_ACQ_REL", "__ATOMIC_SEQ_CST"};
  return V >= 0 && V < 6 ? Names[V] : nullptr;
}

/// CUDA scope value -> HIP scope macro and the fence's scope string.
struct Scope {
  const char *Hip;
  const char *Fence;
};
std::optional<Scope> scopeOf(int64_t V) {
  switch (V) {
  case 0:
    return Scope{"__HIP_MEMORY_SCOPE_SINGLETHREAD", "singlethread"};
  case 1:
    return Scope{"__HIP_MEMORY_SCOPE_WORKGROUP", "workgroup"};
  case 2: // cluster: no AMD counterpart, the device is at least as strong
  case 3:
    return Scope{"__HIP_MEMORY_SCOPE_AGENT", "agent"};
  case 4:
    return Scope{"__HIP_MEMORY_SCOPE_SYSTEM", ""};
  default:
    return std::nullopt;
  }
}

class Rewriter : public DynamicASTVisitor {
public:
  explicit Rewriter(TargetContext &TC) : TC(TC) {}

  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *Callee = CE->getDirectCallee();
    const auto *ULE =
        dyn_cast<UnresolvedLookupExpr>(CE->getCallee()->IgnoreImpCasts());
    llvm::StringRef Name;
    if (Callee && Callee->getIdentifier())
      Name = Callee->getName();
    else if (!Callee && ULE && ULE->getName().isIdentifier())
      Name = ULE->getName().getAsIdentifierInfo()->getName();
    else
      return true;
    bool Atomic = Name.starts_with("__nv_atomic_");
    bool Hint = isCacheHint(Name);
    if (!Atomic && !Hint)
      return true;
    if (Callee && TC.isUserLoc(Callee->getLocation()))
      return true; // the user's own function of that name
    if (!Callee)
      for (const NamedDecl *D : ULE->decls())
        if (TC.isUserLoc(D->getLocation()))
          return true;
    if (!TC.isUserLoc(TC.SM().getFileLoc(CE->getBeginLoc())))
      return true;
    // A call in a template whose arguments depend on its parameters: one
    // spelling serves every instantiation, so each of them must call the
    // CUDA function of that name (not a user's overload found through its
    // arguments' types).
    if (!Callee) {
      std::string Bad = instantiationMismatch(CE, Name);
      if (!Bad.empty()) {
        flag(CE, Atomic ? RuleId::PK1017 : RuleId::PK1018,
             Name + "() in a template is not translated to HIP: in " + Bad +
                 " it does not call CUDA's " + Name + "()");
        return true;
      }
    }
    if (Atomic)
      atomic(CE, Name);
    else
      cacheHint(CE, Name);
    return true;
  }

private:
  TargetContext &TC;
  /// Calls in template instantiations, by their location: the function
  /// each resolves to and the instantiation it is in.
  std::multimap<unsigned, std::pair<const FunctionDecl *, const FunctionDecl *>>
      InstCalls;
  bool InstCallsDone = false;

  /// Collects the calls of instantiated function bodies.
  struct InstVisitor : DynamicASTVisitor {
    decltype(InstCalls) &Out;
    const FunctionDecl *In = nullptr;
    explicit InstVisitor(decltype(InstCalls) &Out) : Out(Out) {
      ShouldVisitTemplateInstantiations = true;
    }
    bool TraverseFunctionDecl(FunctionDecl *FD) override {
      const FunctionDecl *Old = In;
      if (FD->isTemplateInstantiation())
        In = FD;
      bool R = DynamicASTVisitor::TraverseFunctionDecl(FD);
      In = Old;
      return R;
    }
    bool TraverseCXXMethodDecl(CXXMethodDecl *FD) override {
      const FunctionDecl *Old = In;
      if (FD->isTemplateInstantiation())
        In = FD;
      bool R = DynamicASTVisitor::TraverseCXXMethodDecl(FD);
      In = Old;
      return R;
    }
    bool VisitCallExpr(CallExpr *CE) override {
      if (In)
        Out.insert(
            {CE->getBeginLoc().getRawEncoding(), {CE->getDirectCallee(), In}});
      return true;
    }
  };

  /// The first instantiation in which the dependent call \p CE does not
  /// call the CUDA function \p Name ("" when every one does).
  std::string instantiationMismatch(const CallExpr *CE, llvm::StringRef Name) {
    if (!InstCallsDone) {
      InstVisitor V(InstCalls);
      V.TraverseAST(TC.Ctx());
      InstCallsDone = true;
    }
    auto [B, E] = InstCalls.equal_range(CE->getBeginLoc().getRawEncoding());
    for (auto It = B; It != E; ++It) {
      const FunctionDecl *C = It->second.first;
      // Another call that starts there (an operator around it), or the
      // CUDA function itself.
      if (!C || !C->getIdentifier() || C->getName() != Name ||
          !TC.isUserLoc(C->getLocation()))
        continue;
      std::string S;
      llvm::raw_string_ostream OS(S);
      It->second.second->getNameForDiagnostic(OS, TC.Ctx().getPrintingPolicy(),
                                              /*Qualified=*/false);
      return "'" + S + "'";
    }
    return "";
  }

  static bool isCacheHint(llvm::StringRef N) {
    return llvm::StringSwitch<bool>(N)
        .Cases("__ldcs", "__ldlu", "__ldca", "__ldcg", "__ldcv", true)
        .Cases("__stcs", "__stcg", "__stwb", "__stwt", true)
        .Default(false);
  }

  static bool isRmw(llvm::StringRef Op) {
    return llvm::StringSwitch<bool>(Op)
        .Cases("add", "sub", "and", "or", "xor", "min", "max", true)
        .Default(false);
  }

  std::string arg(const CallExpr *CE, unsigned I) {
    return TC.text(CE->getArg(I));
  }

  void flag(const CallExpr *CE, RuleId R, const llvm::Twine &Why) {
    TC.finding(CE->getBeginLoc(), R, Severity::Warning, Why.str());
  }

  // ---- PK1017 ---------------------------------------------------------------

  /// Edits the call in pieces (the callee, the order and scope arguments,
  /// `*(...)` around pointer arguments) so that the other arguments keep
  /// their own edits.
  void atomic(const CallExpr *CE, llvm::StringRef Name) {
    llvm::StringRef Op = Name.drop_front(strlen("__nv_atomic_"));
    unsigned N = CE->getNumArgs();
    auto Fail = [&](const llvm::Twine &Why) {
      flag(CE, RuleId::PK1017,
           Name + "() is not translated to HIP: " + Why +
               "; write it with __hip_atomic_* (order, scope)");
    };
    // Arguments before the order(s), and the number of orders.
    unsigned Vals = 0, Orders = 1;
    bool Cmpxchg = Op == "compare_exchange" || Op == "compare_exchange_n";
    if (Op == "thread_fence")
      Vals = 0;
    else if (Op == "load_n")
      Vals = 1;
    else if (Op == "load" || Op == "store" || Op == "store_n" ||
             Op == "exchange_n" || isRmw(Op) ||
             (Op.starts_with("fetch_") && isRmw(Op.drop_front(6))))
      Vals = 2;
    else if (Op == "exchange")
      Vals = 3;
    else if (Cmpxchg)
      Vals = 4, Orders = 2;
    else
      return Fail("no HIP mapping is known for it");
    if (N != Vals + Orders + 1 && N != Vals + Orders)
      return Fail("unexpected number of arguments");

    std::vector<const char *> Ord;
    for (unsigned I = 0; I < Orders; ++I) {
      auto V = constantArg(CE->getArg(Vals + I), TC.Ctx());
      const char *O = V ? orderName(*V) : nullptr;
      if (!O)
        return Fail("its memory order is not a constant __NV_ATOMIC_* value");
      Ord.push_back(O);
    }
    std::optional<Scope> S = Scope{"__HIP_MEMORY_SCOPE_SYSTEM", ""};
    bool Cluster = false;
    const Expr *ScopeArg =
        N == Vals + Orders + 1 ? CE->getArg(Vals + Orders) : nullptr;
    if (ScopeArg && isa<CXXDefaultArgExpr>(ScopeArg))
      ScopeArg = nullptr;
    if (ScopeArg) {
      auto V = constantArg(ScopeArg, TC.Ctx());
      S = V ? scopeOf(*V) : std::nullopt;
      if (!S)
        return Fail("its scope is not a constant __NV_THREAD_SCOPE_* value");
      Cluster = *V == 2;
    }
    std::optional<int64_t> Weak;
    if (Cmpxchg && !(Weak = constantArg(CE->getArg(3), TC.Ctx())))
      return Fail("its `weak` argument is not a constant (HIP has separate "
                  "_weak and _strong builtins)");
    if (Op == "thread_fence" && llvm::StringRef(Ord[0]) == "__ATOMIC_RELAXED")
      return Fail("a relaxed fence has no AMDGPU counterpart (HIP's fence "
                  "needs acquire, release, acq_rel or seq_cst)");

    // The new callee; the pointer forms that store a result go through a
    // helper macro (the result pointer comes after the atomic's operands).
    std::string Callee;
    const char *Helper = nullptr;
    if (Op == "thread_fence")
      Callee = "__builtin_amdgcn_fence";
    else if (Op == "load_n")
      Callee = "__hip_atomic_load";
    else if (Op == "store_n" || Op == "store")
      Callee = "__hip_atomic_store";
    else if (Op == "exchange_n")
      Callee = "__hip_atomic_exchange";
    else if (Op == "load")
      Callee = "pk_nv_atomic_load", Helper = AtomicLoadHelper;
    else if (Op == "exchange")
      Callee = "pk_nv_atomic_exchange", Helper = AtomicExchangeHelper;
    else if (Cmpxchg)
      Callee = *Weak ? "__hip_atomic_compare_exchange_weak"
                     : "__hip_atomic_compare_exchange_strong";
    else if (Op.consume_front("fetch_"))
      Callee = ("__hip_atomic_fetch_" + Op).str();
    else
      Callee = ("(void)__hip_atomic_fetch_" + Op).str(); // no result
    std::string Why = llvm::formatv(
        "{0}() -> clang's HIP atomic builtin with the same memory order and "
        "the matching HIP scope{1}",
        Name,
        Cluster ? " (AMD GPUs have no thread-block clusters: the cluster "
                  "scope becomes the device scope, which is at least as "
                  "strong)"
                : "");
    const Expr *Fn = CE->getCallee()->IgnoreImpCasts();
    std::string ScopeText = Op == "thread_fence"
                                ? ("\"" + llvm::Twine(S->Fence) + "\"").str()
                                : std::string(S->Hip);
    if (CE->getRParenLoc().isMacroID())
      return Fail("the call cannot be edited where it is written (a macro "
                  "body?)");
    if (!TC.replace(Fn->getSourceRange(), Callee, RuleId::PK1017, Why))
      return Fail("the call cannot be edited where it is written (a macro "
                  "body?)");
    auto Deref = [&](unsigned I) {
      const Expr *A = CE->getArg(I);
      TC.insert(A->getBeginLoc(), "*(", RuleId::PK1017, Why);
      TC.insert(clang::Lexer::getLocForEndOfToken(A->getEndLoc(), 0, TC.SM(),
                                                  TC.Ctx().getLangOpts()),
                ")", RuleId::PK1017, Why);
    };
    if (Op == "store")
      Deref(1);
    if (Op == "compare_exchange")
      Deref(2);
    if (Cmpxchg) // the `weak` flag is in the builtin's name
      TC.replace(CharSourceRange::getCharRange(CE->getArg(3)->getBeginLoc(),
                                               CE->getArg(4)->getBeginLoc()),
                 "", RuleId::PK1017, Why);
    for (unsigned I = 0; I < Orders; ++I)
      TC.replace(CE->getArg(Vals + I)->getSourceRange(), Ord[I], RuleId::PK1017,
                 Why);
    if (ScopeArg)
      TC.replace(ScopeArg->getSourceRange(), ScopeText, RuleId::PK1017, Why);
    else
      TC.insert(CE->getRParenLoc(), ", " + ScopeText, RuleId::PK1017, Why);
    if (Helper)
      need(CE->getBeginLoc(), HelperKey{RuleId::PK1017, Callee}, Helper);
  }

  // ---- PK1018 ---------------------------------------------------------------

  /// The callee becomes a helper of the same arguments (pk_ldcs, ...):
  /// nontemporal builtins for streaming hints on scalars, plain accesses
  /// otherwise.
  void cacheHint(const CallExpr *CE, llvm::StringRef Name) {
    bool Store = Name.starts_with("__st");
    auto Fail = [&](const llvm::Twine &Why) {
      flag(CE, RuleId::PK1018,
           Name + "() is not translated to HIP: " + Why +
               "; HIP declares no cache-hinted accesses for this type");
    };
    if (CE->getNumArgs() != (Store ? 2u : 1u))
      return Fail("unexpected number of arguments");
    // In a template the argument's type may depend on its parameters
    // (`out + i` with `T *out`): the helpers decide per instantiation.
    bool Dep = CE->getArg(0)->isTypeDependent();
    QualType PT = CE->getArg(0)->IgnoreImpCasts()->getType();
    if (!Dep && !PT->isPointerType())
      PT = CE->getArg(0)->getType();
    if (!Dep && !PT->isPointerType())
      return Fail("its first argument is not a pointer");
    QualType T = Dep ? QualType() : PT->getPointeeType();
    Dep = Dep || T->isDependentType();
    // The nontemporal builtins take scalars (and clang vectors, which HIP's
    // float4 & co. are not: they are classes).
    bool Scalar = !Dep && T->isArithmeticType() && !T->isEnumeralType();
    bool Streaming = Name == "__ldcs" || Name == "__ldlu" || Name == "__stcs";
    if (Name == "__ldcv" && Dep)
      return Fail("its element type depends on a template parameter, and a "
                  "load that must bypass the caches has no volatile form for "
                  "vector or class types");
    if (Name == "__ldcv" && !Scalar)
      return Fail("a load that must bypass the caches on a vector or class "
                  "type has no volatile form that HIP's types accept");
    const char *How = Dep && Streaming
                          ? "chosen per instantiation: a nontemporal "
                            "(streaming) access for arithmetic types, a "
                            "plain one otherwise"
                      : Dep && Store        ? "a plain store"
                      : Dep                 ? "a plain load"
                      : Name == "__ldcv"    ? "a volatile load"
                      : Streaming && Scalar ? (Store ? "a nontemporal "
                                                       "(streaming) store"
                                                     : "a nontemporal "
                                                       "(streaming) load")
                      : Store               ? "a plain store"
                                            : "a plain load";
    std::string Helper = ("pk" + Name.drop_front(1)).str(); // __ldcs -> pk_ldcs
    std::string Why =
        llvm::formatv("{0}() has no HIP counterpart for {1}: {2}() is {3} (a "
                      "cache hint changes caching, not the value)",
                      Name,
                      Dep ? "a type that depends on a template parameter"
                          : T.getAsString(TC.Ctx().getPrintingPolicy()),
                      Helper, How);
    const Expr *Fn = CE->getCallee()->IgnoreImpCasts();
    if (!TC.replace(Fn->getSourceRange(), Helper, RuleId::PK1018, Why))
      return Fail("the call cannot be edited where it is written (a macro "
                  "body?)");
    if (Store)
      need(CE->getBeginLoc(), HelperKey{RuleId::PK1018, "0id"}, IdentityType);
    need(CE->getBeginLoc(), HelperKey{RuleId::PK1018, Helper},
         cacheHintHelper(Name));
  }

  void need(SourceLocation L, const HelperKey &Key, const char *Text) {
    std::string F = TC.fileOf(TC.SM().getFileLoc(L));
    if (TC.isUserFile(F))
      TC.Helpers[F][Key] = Text;
  }

  static constexpr const char *AtomicLoadHelper =
      "// port-kernel: __nv_atomic_load(p, r, order, scope) [PK1017]\n"
      "#ifndef pk_nv_atomic_load\n"
      "#define pk_nv_atomic_load(p, r, order, scope)                       "
      "  \\\n"
      "  ((void)(*(r) = __hip_atomic_load((p), (order), (scope))))\n"
      "#endif\n";
  static constexpr const char *AtomicExchangeHelper =
      "// port-kernel: __nv_atomic_exchange(p, v, r, order, scope) "
      "[PK1017]\n"
      "#ifndef pk_nv_atomic_exchange\n"
      "#define pk_nv_atomic_exchange(p, v, r, order, scope)                "
      "  \\\n"
      "  ((void)(*(r) = __hip_atomic_exchange((p), *(v), (order), (scope))))\n"
      "#endif\n";
  static constexpr const char *IdentityType =
      "// port-kernel: CUDA's cache-hinted stores convert the value to the "
      "element type [PK1018]\n"
      "#ifndef PK_CACHE_HINT_ID\n"
      "#define PK_CACHE_HINT_ID\n"
      "template <typename T> struct pk_cache_hint_id { using type = T; };\n"
      "#endif\n";

  static const char *cacheHintHelper(llvm::StringRef Name) {
    // Streaming: nontemporal on scalars; the rest plain.
#define PK_LOAD(N, SCALAR)                                                     \
  "// port-kernel: CUDA's _" #N "() [PK1018]\n"                                \
  "#ifndef PK_HINT_" #N "\n"                                                   \
  "#define PK_HINT_" #N "\n"                                                   \
  "template <typename T> __device__ inline T pk" #N "(const T *p) {\n"         \
  "  if constexpr (__is_arithmetic(T))\n"                                      \
  "    return " SCALAR ";\n"                                                   \
  "  else\n"                                                                   \
  "    return *p;\n"                                                           \
  "}\n"                                                                        \
  "#endif\n"
#define PK_STORE(N, SCALAR)                                                    \
  "// port-kernel: CUDA's _" #N "() [PK1018]\n"                                \
  "#ifndef PK_HINT_" #N "\n"                                                   \
  "#define PK_HINT_" #N "\n"                                                   \
  "template <typename T>\n"                                                    \
  "__device__ inline void pk" #N "(T *p, typename pk_cache_hint_id<T>::type "  \
  "v) {\n"                                                                     \
  "  if constexpr (__is_arithmetic(T))\n"                                      \
  "    " SCALAR ";\n"                                                          \
  "  else\n"                                                                   \
  "    *p = v;\n"                                                              \
  "}\n"                                                                        \
  "#endif\n"
#define PK_LOAD_PLAIN(N)                                                       \
  "// port-kernel: CUDA's _" #N "() [PK1018]\n"                                \
  "#ifndef PK_HINT_" #N "\n"                                                   \
  "#define PK_HINT_" #N "\n"                                                   \
  "template <typename T> __device__ inline T pk" #N "(const T *p) {\n"         \
  "  return *p;\n"                                                             \
  "}\n"                                                                        \
  "#endif\n"
#define PK_STORE_PLAIN(N)                                                      \
  "// port-kernel: CUDA's _" #N "() [PK1018]\n"                                \
  "#ifndef PK_HINT_" #N "\n"                                                   \
  "#define PK_HINT_" #N "\n"                                                   \
  "template <typename T>\n"                                                    \
  "__device__ inline void pk" #N "(T *p, typename pk_cache_hint_id<T>::type "  \
  "v) {\n"                                                                     \
  "  *p = v;\n"                                                                \
  "}\n"                                                                        \
  "#endif\n"
    return llvm::StringSwitch<const char *>(Name)
        .Case("__ldcs", PK_LOAD(_ldcs, "__builtin_nontemporal_load(p)"))
        .Case("__ldlu", PK_LOAD(_ldlu, "__builtin_nontemporal_load(p)"))
        .Case("__ldca", PK_LOAD_PLAIN(_ldca))
        .Case("__ldcg", PK_LOAD_PLAIN(_ldcg))
        .Case("__ldcv", PK_LOAD(_ldcv, "*(const volatile T *)p"))
        .Case("__stcs", PK_STORE(_stcs, "__builtin_nontemporal_store(v, p)"))
        .Case("__stcg", PK_STORE_PLAIN(_stcg))
        .Case("__stwb", PK_STORE_PLAIN(_stwb))
        .Default(PK_STORE_PLAIN(_stwt));
#undef PK_LOAD
#undef PK_STORE
#undef PK_LOAD_PLAIN
#undef PK_STORE_PLAIN
  }
};

} // namespace

void pk::hip::rewriteAtomicsAndCacheHints(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return;
  Rewriter V(TC);
  V.TraverseAST(TC.Ctx());
}
