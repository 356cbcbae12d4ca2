//===- BuiltinVarsTest.cpp - the recogniser of threadIdx.x and the like ---===//
//
// pk::builtinMember and pk::builtinIndex on real parses: CUDA against the
// bundled declarations (x, y, z are properties) and HIP against the HIP
// headers (x, y, z are static members read through a conversion).  Each
// kernel assigns one spelling per statement; the test reads the right-hand
// sides in order.
//
//===----------------------------------------------------------------------===//
#include "pk/BuiltinVars.h"
#include "pk/DynamicVisitor.h"
#include "pk/Frontend.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace clang;

namespace {

/// The right-hand sides of the assignments in the body of kernel `k`, in
/// source order (built-in and class assignment operators).
struct Assignments : pk::DynamicASTVisitor {
  bool VisitBinaryOperator(BinaryOperator *B) override {
    if (B->getOpcode() == BO_Assign)
      Rhs.push_back(B->getRHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) override {
    if (C->getOperator() == OO_Equal && C->getNumArgs() == 2)
      Rhs.push_back(C->getArg(1));
    return true;
  }
  std::vector<const Expr *> Rhs;
};

/// The first node of \p S (itself, then its children depth first) that
/// pk::builtinIndex recognises.
std::optional<pk::BuiltinIndex> firstIndex(const Stmt *S) {
  if (!S)
    return std::nullopt;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<pk::BuiltinIndex> B = pk::builtinIndex(E))
      return B;
  for (const Stmt *C : S->children())
    if (std::optional<pk::BuiltinIndex> B = firstIndex(C))
      return B;
  return std::nullopt;
}

/// The first node of \p S that pk::builtinMember recognises.
std::optional<pk::BuiltinMember> firstMember(const Stmt *S) {
  if (!S)
    return std::nullopt;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<pk::BuiltinMember> M = pk::builtinMember(E))
      return M;
  for (const Stmt *C : S->children())
    if (std::optional<pk::BuiltinMember> M = firstMember(C))
      return M;
  return std::nullopt;
}

class BuiltinVarsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pk-builtin-vars", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// Parses \p Code as \p Name and returns the assignments of kernel `k`.
  std::vector<const Expr *> parse(llvm::StringRef Name, llvm::StringRef Code,
                                  pk::Lang L) {
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, Name);
    {
      std::error_code EC;
      llvm::raw_fd_ostream OS(Path, EC);
      EXPECT_FALSE(EC) << EC.message();
      OS << Code;
    }
    pk::FrontendOptions O;
    O.CudaPath = "none"; // the bundled declarations
    auto PF = pk::parseFile(Path, L, O);
    if (!PF) {
      ADD_FAILURE() << llvm::toString(PF.takeError());
      return {};
    }
    Parsed = std::move(*PF);
    Assignments A;
    for (Decl *D : Parsed->UserScope)
      if (const auto *FD = dyn_cast<FunctionDecl>(D))
        if (FD->getIdentifier() && FD->getName() == "k" && FD->hasBody())
          A.TraverseStmt(FD->getBody());
    return A.Rhs;
  }

  llvm::SmallString<128> Dir;
  std::unique_ptr<pk::ParsedFile> Parsed;
};

void expectIndex(std::optional<pk::BuiltinIndex> B, llvm::StringRef Var,
                 char Axis) {
  ASSERT_TRUE(B.has_value()) << Var.str() << "." << Axis;
  EXPECT_EQ(B->Var, Var);
  EXPECT_EQ(B->axis(), Axis);
  EXPECT_EQ(B->Dim, unsigned(Axis - 'x'));
}

} // namespace

TEST_F(BuiltinVarsTest, CudaProperties) {
  std::vector<const Expr *> R = parse("k.cu", R"(
struct Pt { int x, y; };
__global__ void k(int *o, Pt p) {
  o[0] = threadIdx.x;
  o[1] = blockIdx.y;
  o[2] = blockDim.z;
  o[3] = gridDim.x;
  o[4] = (threadIdx).y;
  o[5] = (int)blockIdx.z;
  o[6] = p.x;
  o[7] = warpSize;
}
)",
                                      pk::Lang::CUDA);
  ASSERT_EQ(R.size(), 8u);
  // The expression as the callers pass it: the whole right-hand side.
  expectIndex(pk::builtinIndex(R[0]), "threadIdx", 'x');
  expectIndex(pk::builtinIndex(R[1]), "blockIdx", 'y');
  expectIndex(pk::builtinIndex(R[2]), "blockDim", 'z');
  expectIndex(pk::builtinIndex(R[3]), "gridDim", 'x');
  expectIndex(pk::builtinIndex(R[4]), "threadIdx", 'y');
  // An explicit cast is not looked through (the callers strip the casts
  // they accept first).
  EXPECT_FALSE(pk::builtinIndex(R[5]).has_value());
  expectIndex(firstIndex(R[5]), "blockIdx", 'z');
  // A member named x of anything else, and warpSize, are not coordinates.
  EXPECT_FALSE(firstIndex(R[6]).has_value());
  EXPECT_FALSE(pk::builtinMember(R[6]).has_value());
  EXPECT_FALSE(firstIndex(R[7]).has_value());

  std::optional<pk::BuiltinMember> M = pk::builtinMember(R[1]);
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(M->Var, "blockIdx");
  EXPECT_EQ(M->Field, "y");
}

TEST_F(BuiltinVarsTest, CudaConversionsAreNotCoordinates) {
  // `dim3 d = blockDim` converts the variable: the member read is the
  // conversion function, which has no name; builtinMember reports it with an
  // empty field and builtinIndex does not take it.
  std::vector<const Expr *> R = parse("c.cu", R"(
__global__ void k(unsigned *o) {
  dim3 d;
  d = blockDim;
  o[0] = d.x;
}
)",
                                      pk::Lang::CUDA);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_FALSE(firstIndex(R[0]).has_value());
  std::optional<pk::BuiltinMember> M = firstMember(R[0]);
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(M->Var, "blockDim");
  EXPECT_EQ(M->Field, "");
  // d.x is a member named x of a local dim3.
  EXPECT_FALSE(firstMember(R[1]).has_value());
}

TEST_F(BuiltinVarsTest, HipMembers) {
  std::vector<const Expr *> R = parse("k.hip", R"(
#include <hip/hip_runtime.h>
__global__ void k(int *o) {
  o[0] = threadIdx.x;
  o[1] = blockIdx.y;
  o[2] = blockDim.z;
  o[3] = gridDim.x;
  o[4] = hipThreadIdx_x;
  o[5] = hipBlockIdx_y;
}
)",
                                      pk::Lang::HIP);
  ASSERT_EQ(R.size(), 6u);
  // HIP's x, y, z are static members of the variable's type: the member
  // read is recognised under the conversion to an integer.
  expectIndex(firstIndex(R[0]), "threadIdx", 'x');
  expectIndex(firstIndex(R[1]), "blockIdx", 'y');
  expectIndex(firstIndex(R[2]), "blockDim", 'z');
  expectIndex(firstIndex(R[3]), "gridDim", 'x');
  // The HIP macros expand to device library calls, not to the variables.
  EXPECT_FALSE(firstIndex(R[4]).has_value());
  EXPECT_FALSE(firstIndex(R[5]).has_value());
}
