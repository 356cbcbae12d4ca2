//===- FromHipMfma.cpp - MFMA fragments back to WMMA ----------------------===//
// Rules: PK6040, PK6041, PK6042
//
// PK6040: the fragments of port-kernel's MFMA helpers (namespace pk_mfma, the
// nvcuda::wmma interface on AMD matrix cores) are WMMA fragments again:
// pk_mfma:: -> nvcuda::wmma:: with <mma.h>; a fragment_array<F, R> (the
// 32x32-tile grouping of `F a[R]`) is the array `F a[R]` again, an
// accumulator fragment_array<F, R, C> is `F acc[R][C]`, and the whole-array
// mma_sync(acc, a, b, acc) of the grouping is the loop over the fragments it
// stands for.
//
// PK6041: the rows of shared tiles that the HIP port padded for conflict-free
// MFMA loads (its PK3017 notes: row pitch P -> P + d) get their CUDA pitch
// back, in the declaration and in the leading dimension of the loads and
// stores: WMMA needs a leading dimension of a multiple of 16 bytes.
//
// PK6042: MFMA builtins (__builtin_amdgcn_mfma_*) outside these helpers: the
// fragment pattern is not recognised, nothing is translated (error).
//
//===----------------------------------------------------------------------===//
#include "FromHip.h"
#include "RawTokens.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace pk;
using namespace clang;
using pk::cuda::args;
using pk::cuda::lex;
using pk::cuda::Tok;

namespace {

std::string wmmaText(llvm::StringRef S) {
  std::string R;
  while (true) {
    size_t P = S.find("pk_mfma::");
    if (P == llvm::StringRef::npos)
      break;
    R += S.take_front(P).str() + "nvcuda::wmma::";
    S = S.drop_front(P + 9);
  }
  return R + S.str();
}

struct Padding {
  unsigned Delta;
};

} // namespace

void cuda::fromHipMfma(TargetContext &TC) {
  if (TC.PF.Language != Lang::HIP)
    return;
  for (const std::string &File : TC.PF.UserFiles) {
    llvm::StringRef Buf = TC.contents(File);
    std::vector<HelperBlock> Blocks = helperBlocks(Buf);
    auto T = lex(Buf, TC.Ctx().getLangOpts());
    auto Text = [&](size_t A, size_t B) { // tokens [A, B)
      return Buf.slice(T[A].Off, T[B - 1].Off + T[B - 1].Len);
    };
    // PK6041: the pitches the HIP port padded, from its notes.
    std::map<std::string, unsigned> Pad;
    for (size_t P = Buf.find("row pitch of '"); P != llvm::StringRef::npos;
         P = Buf.find("row pitch of '", P + 1)) {
      llvm::StringRef R = Buf.drop_front(P + 14);
      llvm::StringRef Name = R.take_until([](char C) { return C == '\''; });
      unsigned From = 0, To = 0;
      llvm::StringRef X = R.drop_front(Name.size() + 1).ltrim();
      if (X.consumeInteger(10, From) || !X.consume_front(" -> ") ||
          X.consumeInteger(10, To) || To <= From)
        continue;
      Pad[Name.str()] = To - From;
      // The note line itself describes the HIP port: removed with it.
      size_t LS = Buf.take_front(P).rfind('\n');
      LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
      size_t LE = Buf.find('\n', P);
      LE = LE == llvm::StringRef::npos ? Buf.size() : LE + 1;
      if (Buf.slice(LS, P).trim().starts_with("//"))
        TC.edit(File, LS, LE - LS, "", RuleId::PK6041,
                "the note of the HIP port's row padding: the padding is "
                "removed");
    }
    auto DropPad = [&](size_t A, size_t B, unsigned Delta,
                       llvm::StringRef Why) {
      // Tokens [A, B) end with `+ Delta`.
      if (B - A < 3 || T[B - 2].Kind != tok::plus ||
          T[B - 1].Kind != tok::numeric_constant ||
          T[B - 1].Text != std::to_string(Delta))
        return;
      unsigned From = T[B - 3].Off + T[B - 3].Len;
      TC.edit(File, From, T[B - 1].Off + T[B - 1].Len - From, "",
              RuleId::PK6041, Why);
    };

    std::map<std::string, std::vector<std::string>> Arrays; // name -> dims
    std::vector<std::pair<unsigned, unsigned>> Done;        // edited ranges
    bool Any = false;
    for (size_t I = 0; I + 2 < T.size(); ++I) {
      if (inRevertedBlock(Blocks, T[I].Off))
        continue;
      bool InDone = false;
      for (auto &D : Done)
        InDone |= T[I].Off >= D.first && T[I].Off < D.second;
      if (InDone)
        continue;
      // Padded shared declarations: NAME[..][.. + d]
      if (T[I].Kind == tok::raw_identifier && Pad.count(T[I].Text.str()) &&
          T[I + 1].Kind == tok::l_square && I > 0 &&
          T[I - 1].Kind != tok::l_paren && T[I - 1].Kind != tok::amp &&
          T[I - 1].Kind != tok::l_square && T[I - 1].Kind != tok::comma) {
        // The last bracket of the declarator.
        size_t J = I + 1, LastOpen = 0, LastClose = 0;
        while (J < T.size() && T[J].Kind == tok::l_square) {
          std::vector<std::pair<size_t, size_t>> A;
          size_t C = args(T, J, A);
          if (!C)
            break;
          LastOpen = J;
          LastClose = C;
          J = C + 1;
        }
        if (LastOpen && J < T.size() &&
            (T[J].Kind == tok::semi || T[J].Kind == tok::comma) &&
            LastClose > LastOpen + 1)
          DropPad(LastOpen + 1, LastClose, Pad[T[I].Text.str()],
                  llvm::formatv("the row pitch of '{0}' the HIP port padded "
                                "for MFMA loads goes back to the CUDA pitch "
                                "(WMMA needs a leading dimension of a "
                                "multiple of 16 bytes)",
                                T[I].Text)
                      .str());
      }
      if (T[I].Kind != tok::raw_identifier || T[I].Text != "pk_mfma" ||
          T[I + 1].Kind != tok::coloncolon)
        continue;
      Any = true;
      llvm::StringRef What = T[I + 2].Text;
      // fragment_array<F, R[, C]> name;
      if (What == "fragment_array" && I + 3 < T.size() &&
          T[I + 3].Kind == tok::less) {
        std::vector<std::pair<size_t, size_t>> A;
        size_t Close = args(T, I + 3, A);
        if (Close && (A.size() == 2 || A.size() == 3) && Close + 2 < T.size() &&
            T[Close + 1].Kind == tok::raw_identifier &&
            T[Close + 2].Kind == tok::semi && T[Close].Kind == tok::greater) {
          std::string Name = T[Close + 1].Text.str();
          std::vector<std::string> Dims;
          for (size_t K = 1; K < A.size(); ++K)
            Dims.push_back(Text(A[K].first, A[K].second).str());
          Arrays[Name] = Dims;
          std::string S = wmmaText(Text(A[0].first, A[0].second)) + " " + Name;
          for (auto &D : Dims)
            S += "[" + D + "]";
          TC.edit(File, T[I].Off,
                  T[Close + 1].Off + T[Close + 1].Len - T[I].Off, S,
                  RuleId::PK6040,
                  "a fragment_array is the HIP port's 32x32-tile grouping of "
                  "an array of 16x16 WMMA fragments: the array again");
          Done.push_back({T[I].Off, T[Close + 2].Off});
          continue;
        }
      }
      // mma_sync(acc, a, b, acc) over fragment arrays.
      if (What == "mma_sync" && I + 3 < T.size() &&
          T[I + 3].Kind == tok::l_paren) {
        std::vector<std::pair<size_t, size_t>> A;
        size_t Close = args(T, I + 3, A);
        auto Arr = [&](size_t K) -> const std::vector<std::string> * {
          if (K >= A.size() || A[K].second != A[K].first + 1)
            return nullptr;
          auto It = Arrays.find(T[A[K].first].Text.str());
          return It == Arrays.end() ? nullptr : &It->second;
        };
        if (Close && A.size() == 4 && Arr(0) && Arr(0)->size() == 2 && Arr(1) &&
            Arr(2) && Arr(3)) {
          std::string D = T[A[0].first].Text.str(),
                      Av = T[A[1].first].Text.str(),
                      Bv = T[A[2].first].Text.str(),
                      C = T[A[3].first].Text.str();
          size_t LS = Buf.take_front(T[I].Off).rfind('\n');
          LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
          llvm::StringRef Ind = Buf.slice(LS, T[I].Off);
          if (!Ind.trim().empty())
            Ind = "";
          std::string S = llvm::formatv(
              "for (int pk_i = 0; pk_i < {0}; ++pk_i)\n"
              "{6}  for (int pk_j = 0; pk_j < {1}; ++pk_j)\n"
              "{6}    nvcuda::wmma::mma_sync({2}[pk_i][pk_j], {3}[pk_i], "
              "{4}[pk_j], {5}[pk_i][pk_j])",
              (*Arr(0))[0], (*Arr(0))[1], D, Av, Bv, C, Ind);
          TC.edit(File, T[I].Off, T[Close].Off + 1 - T[I].Off, S,
                  RuleId::PK6040,
                  "the whole-array mma_sync of the HIP port's 32x32 tiles is "
                  "one WMMA mma_sync per fragment of the accumulator array");
          Done.push_back({T[I].Off, T[Close].Off + 1});
          continue;
        }
      }
      // The liveness argument of the HIP port's early-exit lowering
      // (PK3003): the warp that reaches a WMMA operation is whole again.
      if (I + 3 < T.size() && T[I + 3].Kind == tok::l_paren) {
        std::vector<std::pair<size_t, size_t>> A;
        size_t Close = args(T, I + 3, A);
        if (Close && A.size() >= 2 && A.back().second == A.back().first + 1 &&
            T[A.back().first].Text == "__pk_mfma_live") {
          size_t Prev = A[A.size() - 2].second - 1;
          unsigned From = T[Prev].Off + T[Prev].Len;
          TC.edit(File, From,
                  T[A.back().first].Off + T[A.back().first].Len - From, "",
                  RuleId::PK6040,
                  "the liveness argument of the HIP port's early exit: the "
                  "warps that reach a WMMA operation are whole (the warps "
                  "whose lanes are all finished have returned)");
        }
      }
      // Leading dimensions of loads and stores of padded tiles.
      if ((What == "load_matrix_sync" || What == "store_matrix_sync") &&
          I + 3 < T.size() && T[I + 3].Kind == tok::l_paren && !Pad.empty()) {
        std::vector<std::pair<size_t, size_t>> A;
        size_t Close = args(T, I + 3, A);
        if (Close && A.size() >= 3) {
          size_t PtrArg = What == "load_matrix_sync" ? 1 : 0;
          for (size_t K = A[PtrArg].first; K < A[PtrArg].second; ++K)
            if (T[K].Kind == tok::raw_identifier &&
                Pad.count(T[K].Text.str())) {
              DropPad(A[2].first, A[2].second, Pad[T[K].Text.str()],
                      llvm::formatv("the leading dimension of '{0}' goes "
                                    "back to its CUDA row pitch",
                                    T[K].Text)
                          .str());
              break;
            }
        }
      }
      TC.edit(File, T[I].Off, T[I + 1].Off + T[I + 1].Len - T[I].Off,
              "nvcuda::wmma::", RuleId::PK6040,
              "pk_mfma is the nvcuda::wmma interface of the HIP port's MFMA "
              "helpers: WMMA again");
    }
    if (Any)
      TC.Helpers[File][HelperKey{RuleId::PK6040, "mma"}] =
          "\n#include <mma.h> // port-kernel: WMMA fragments [PK6040]\n";
    // PK6042: MFMA builtins outside the helpers that the kernel pass
    // (FromHipMfmaBuiltins.cpp) has neither mapped nor reported.
    auto Reported = [&](unsigned Off) {
      for (const Finding &F : TC.Findings)
        if (F.RuleID == ruleName(RuleId::PK6042) && F.File == File &&
            F.Offset == Off)
          return true;
      return coveredByEdit(TC, File, Off);
    };
    for (size_t I = 0; I + 1 < T.size(); ++I)
      if (T[I].Kind == tok::raw_identifier &&
          T[I].Text.starts_with("__builtin_amdgcn_mfma_") &&
          T[I + 1].Kind == tok::l_paren && !inRevertedBlock(Blocks, T[I].Off) &&
          !Reported(T[I].Off))
        TC.finding(File, T[I].Off, RuleId::PK6042, Severity::Error,
                   llvm::formatv("{0}: an MFMA builtin whose fragment pattern "
                                 "is not recognised (only port-kernel's own "
                                 "MFMA helpers map back to WMMA): not "
                                 "translated",
                                 T[I].Text)
                       .str());
  }
}
