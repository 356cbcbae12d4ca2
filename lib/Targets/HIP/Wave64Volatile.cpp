//===- Wave64Volatile.cpp - warp-synchronous volatile steps ---------------===//
// Rules: PK2007
//
// `vs[i] += vs[i + 16]` on volatile shared memory relies on the lanes of a
// warp running in lockstep.  Each step is split: every lane reads, a wave
// barrier, every lane writes, a wave barrier.
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::hip;
using namespace clang;

void Wave64Rewriter::volatileStep(const W64Site &S) {
  const auto *BO = cast<BinaryOperator>(S.S);
  SourceLocation B = BO->getBeginLoc(), E = BO->getEndLoc();
  if (!B.isFileID() || !E.isFileID())
    return;
  std::string L = TC.text(BO->getLHS());
  std::string R = TC.text(BO->getRHS());
  std::string Value;
  if (BO->getOpcode() == BO_Assign)
    Value = R;
  else {
    std::string Op =
        BinaryOperator::getOpcodeStr(
            BinaryOperator::getOpForCompoundAssignment(BO->getOpcode()))
            .str();
    Value = L + " " + Op + " " + R;
  }
  // Through the semicolon, when there is one.
  SourceLocation After = Lexer::findLocationAfterToken(
      E, tok::semi, SM(), LO(), /*SkipTrailingWhitespaceAndNewLine=*/false);
  std::string Text = "{ auto __pk_v = " + Value + "; __pk_syncwarp(); " + L +
                     " = __pk_v; __pk_syncwarp(); }";
  CharSourceRange Rg;
  if (After.isValid())
    Rg = CharSourceRange::getCharRange(B, After);
  else {
    Rg = CharSourceRange::getTokenRange(B, E);
    Text.pop_back();
    Text.pop_back();
    Text += " }";
  }
  if (TC.replace(Rg, Text, RuleId::PK2007,
                 llvm::formatv("'{0}' reads another lane's slot and writes "
                               "its own: all lanes read, then all write, "
                               "with a wave barrier between (warp-"
                               "synchronous code needs explicit "
                               "synchronisation)",
                               TC.text(BO))
                     .str()))
    needSync(BO->getBeginLoc());
}
