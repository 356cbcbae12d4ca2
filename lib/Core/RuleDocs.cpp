// Rules: none (embedded docs/rules pages)
#include "pk/Rules.h"

namespace {
struct DocEntry {
  const char *ID;
  const char *Text;
};
const DocEntry Docs[] = {
#include "RuleDocs.inc"
    {nullptr, nullptr}};
} // namespace

llvm::StringRef pk::ruleDoc(llvm::StringRef ID) {
  for (const DocEntry *D = Docs; D->ID; ++D)
    if (ID == D->ID)
      return D->Text;
  return {};
}

std::vector<std::string> pk::documentedRuleIDs() {
  std::vector<std::string> V;
  for (const DocEntry *D = Docs; D->ID; ++D)
    V.push_back(D->ID);
  return V;
}
