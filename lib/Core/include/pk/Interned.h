//===- Interned.h - strings kept once per process ---------------*- C++ -*-===//
// Rules: none (shared infrastructure)
//
// An edit names its file, its rule and why it was made. A large file has
// hundreds of thousands of edits and a handful of distinct values of each:
// kept as strings per edit, they were a fifth of the edits' memory and an
// allocation per edit. `IStr` holds a pointer to one copy of its text in a
// process-wide pool (thread-safe; the pool only grows, by the distinct
// values a run makes). Equal texts are equal pointers.
//
//===----------------------------------------------------------------------===//
#ifndef PK_INTERNED_H
#define PK_INTERNED_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace pk {

class IStr {
public:
  IStr() = default;
  IStr(llvm::StringRef S);
  IStr(const std::string &S) : IStr(llvm::StringRef(S)) {}
  IStr(const char *S) : IStr(llvm::StringRef(S)) {}

  llvm::StringRef ref() const { return R; }
  operator llvm::StringRef() const { return R; }
  std::string str() const { return R.str(); }
  bool empty() const { return R.empty(); }
  size_t size() const { return R.size(); }
  const char *data() const { return R.data(); }
  bool starts_with(llvm::StringRef P) const { return R.starts_with(P); }
  bool contains(llvm::StringRef P) const { return R.contains(P); }

  /// One copy per text: equal texts are the same pointer.
  friend bool operator==(const IStr &A, const IStr &B) {
    return A.R.data() == B.R.data();
  }
  friend bool operator!=(const IStr &A, const IStr &B) { return !(A == B); }
  friend bool operator==(const IStr &A, llvm::StringRef B) { return A.R == B; }
  friend bool operator!=(const IStr &A, llvm::StringRef B) { return A.R != B; }
  friend bool operator==(const IStr &A, const char *B) {
    return A.R == llvm::StringRef(B);
  }
  friend bool operator!=(const IStr &A, const char *B) { return !(A == B); }
  friend bool operator==(const IStr &A, const std::string &B) {
    return A.R == B;
  }
  friend bool operator!=(const IStr &A, const std::string &B) {
    return A.R != B;
  }
  friend bool operator==(llvm::StringRef A, const IStr &B) { return B == A; }
  friend bool operator!=(llvm::StringRef A, const IStr &B) { return B != A; }
  friend bool operator==(const char *A, const IStr &B) { return B == A; }
  friend bool operator!=(const char *A, const IStr &B) { return B != A; }
  friend bool operator==(const std::string &A, const IStr &B) { return B == A; }
  friend bool operator!=(const std::string &A, const IStr &B) { return B != A; }
  /// By text (reports sort by it).
  friend bool operator<(const IStr &A, const IStr &B) { return A.R < B.R; }
  friend std::string operator+(const std::string &A, const IStr &B) {
    return A + B.R.str();
  }
  friend std::string operator+(const IStr &A, const std::string &B) {
    return A.R.str() + B;
  }
  friend std::string operator+(const char *A, const IStr &B) {
    return A + B.R.str();
  }
  friend std::string operator+(const IStr &A, const char *B) {
    return A.R.str() + B;
  }
  friend llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, const IStr &S) {
    return OS << S.R;
  }

private:
  llvm::StringRef R; ///< null when empty, so every empty IStr is equal
};

} // namespace pk
#endif
