//===- LineDiff.cpp - Myers line diff and unified hunks -------------------===//
// Rules: none (diffing for reports and patches)
#include "pk/LineDiff.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace pk;

std::vector<llvm::StringRef> pk::splitLines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Lines;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    size_t Len = NL == llvm::StringRef::npos ? Text.size() : NL + 1;
    Lines.push_back(Text.take_front(Len));
    Text = Text.drop_front(Len);
  }
  return Lines;
}

std::vector<DiffLine> pk::diffLines(llvm::ArrayRef<llvm::StringRef> A0,
                                    llvm::ArrayRef<llvm::StringRef> B0) {
  // Lines become numbers: equal lines, equal numbers.
  llvm::StringMap<unsigned> Ids;
  auto Number = [&](llvm::ArrayRef<llvm::StringRef> L) {
    std::vector<unsigned> V;
    V.reserve(L.size());
    for (llvm::StringRef S : L)
      V.push_back(Ids.try_emplace(S, Ids.size()).first->second);
    return V;
  };
  std::vector<unsigned> A = Number(A0), B = Number(B0);

  size_t Pre = 0;
  while (Pre < A.size() && Pre < B.size() && A[Pre] == B[Pre])
    ++Pre;
  size_t Suf = 0;
  while (Suf < A.size() - Pre && Suf < B.size() - Pre &&
         A[A.size() - 1 - Suf] == B[B.size() - 1 - Suf])
    ++Suf;
  const int N = int(A.size() - Pre - Suf), M = int(B.size() - Pre - Suf);
  const unsigned *Ap = A.data() + Pre, *Bp = B.data() + Pre;

  // Forward search; Trace[d] holds V[-d..d] after step d.
  const int Max = N + M, Off = Max + 1;
  std::vector<int> V(2 * Max + 3, 0);
  std::vector<std::vector<int>> Trace;
  int D = 0;
  for (bool Found = false; !Found && D <= Max; ++D) {
    for (int K = -D; K <= D; K += 2) {
      int X = (K == -D || (K != D && V[Off + K - 1] < V[Off + K + 1]))
                  ? V[Off + K + 1]
                  : V[Off + K - 1] + 1;
      int Y = X - K;
      while (X < N && Y < M && Ap[X] == Bp[Y])
        ++X, ++Y;
      V[Off + K] = X;
      if (X >= N && Y >= M)
        Found = true;
    }
    Trace.emplace_back(V.begin() + Off - D, V.begin() + Off + D + 1);
    if (Found)
      break;
  }

  // Backtrack from (N, M).
  std::vector<DiffLine> Rev;
  int X = N, Y = M;
  auto Equal = [&] {
    --X, --Y;
    Rev.push_back({DiffLine::Equal, unsigned(X + Pre), unsigned(Y + Pre)});
  };
  for (int Dd = std::min<int>(D, Trace.size() - 1); Dd > 0; --Dd) {
    const std::vector<int> &Vp = Trace[Dd - 1];
    auto Get = [&](int K) { return Vp[K + Dd - 1]; };
    int K = X - Y;
    bool Down = K == -Dd || (K != Dd && Get(K - 1) < Get(K + 1));
    int PrevK = Down ? K + 1 : K - 1;
    int PrevX = Get(PrevK);
    int MidX = Down ? PrevX : PrevX + 1;
    while (X > MidX)
      Equal();
    if (Down) {
      --Y;
      Rev.push_back({DiffLine::Insert, 0, unsigned(Y + Pre)});
    } else {
      --X;
      Rev.push_back({DiffLine::Delete, unsigned(X + Pre), 0});
    }
  }
  while (X > 0)
    Equal();

  std::vector<DiffLine> Out;
  Out.reserve(Pre + Rev.size() + Suf);
  for (unsigned I = 0; I < Pre; ++I)
    Out.push_back({DiffLine::Equal, I, I});
  Out.insert(Out.end(), Rev.rbegin(), Rev.rend());
  for (size_t I = 0; I < Suf; ++I)
    Out.push_back({DiffLine::Equal, unsigned(A.size() - Suf + I),
                   unsigned(B.size() - Suf + I)});

  // Deletions before insertions within each run of changes.
  for (size_t I = 0; I < Out.size();) {
    if (Out[I].K == DiffLine::Equal) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Out.size() && Out[J].K != DiffLine::Equal)
      ++J;
    std::stable_partition(
        Out.begin() + I, Out.begin() + J,
        [](const DiffLine &L) { return L.K == DiffLine::Delete; });
    I = J;
  }
  return Out;
}

std::vector<DiffHunk> pk::makeHunks(const std::vector<DiffLine> &S,
                                    unsigned Context) {
  std::vector<DiffHunk> Hunks;
  size_t I = 0, End = S.size();
  while (I < End) {
    while (I < End && S[I].K == DiffLine::Equal)
      ++I;
    if (I == End)
      break;
    size_t Begin = I >= Context ? I - Context : 0;
    // Extend while the next change is within 2 * Context kept lines.
    size_t Last = I; // last changed line of the hunk
    size_t J = I;
    while (J < End) {
      if (S[J].K != DiffLine::Equal) {
        Last = J++;
        continue;
      }
      size_t K = J;
      while (K < End && S[K].K == DiffLine::Equal)
        ++K;
      if (K == End || K - J > 2 * Context)
        break;
      J = K;
    }
    size_t Stop = std::min(End, Last + 1 + Context);
    DiffHunk H;
    H.Lines.assign(S.begin() + Begin, S.begin() + Stop);
    // Where the hunk starts on each side: the first line it has there, or
    // the number of lines before it.
    unsigned OldAt = 0, NewAt = 0;
    for (size_t P = 0; P < Begin; ++P) {
      OldAt = S[P].K != DiffLine::Insert ? S[P].Old + 1 : OldAt;
      NewAt = S[P].K != DiffLine::Delete ? S[P].New + 1 : NewAt;
    }
    H.OldStart = OldAt;
    H.NewStart = NewAt;
    for (const DiffLine &L : H.Lines) {
      H.OldLen += L.K != DiffLine::Insert;
      H.NewLen += L.K != DiffLine::Delete;
    }
    Hunks.push_back(std::move(H));
    I = Stop;
  }
  return Hunks;
}

void pk::writeUnifiedHunks(llvm::raw_ostream &OS,
                           llvm::ArrayRef<llvm::StringRef> A,
                           llvm::ArrayRef<llvm::StringRef> B,
                           llvm::ArrayRef<DiffHunk> Hunks) {
  auto Range = [](unsigned Start, unsigned Len) {
    // An empty range names the line before it (0 before the first).
    unsigned First = Len ? Start + 1 : Start;
    return Len == 1 ? llvm::formatv("{0}", First).str()
                    : llvm::formatv("{0},{1}", First, Len).str();
  };
  for (const DiffHunk &H : Hunks) {
    OS << "@@ -" << Range(H.OldStart, H.OldLen) << " +"
       << Range(H.NewStart, H.NewLen) << " @@\n";
    for (const DiffLine &L : H.Lines) {
      llvm::StringRef Text = L.K == DiffLine::Insert ? B[L.New] : A[L.Old];
      OS << char(L.K) << Text;
      if (!Text.ends_with("\n"))
        OS << "\n\\ No newline at end of file\n";
    }
  }
}
