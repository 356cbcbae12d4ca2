//===- RuleTableTest.cpp - the rule table, the registry and the docs ------===//
#include "pk/Rules.h"

#include "gtest/gtest.h"
#include <set>

using namespace pk;

TEST(RuleTable, IdsAreSortedUniqueAndWellFormed) {
  std::set<std::string> Seen;
  llvm::StringRef Prev;
  for (const RuleSpec &R : ruleTable()) {
    llvm::StringRef N = R.Name;
    EXPECT_EQ(N.size(), 6u) << N.str();
    EXPECT_TRUE(N.starts_with("PK")) << N.str();
    EXPECT_TRUE(Seen.insert(N.str()).second) << "duplicate " << N.str();
    EXPECT_LT(Prev.str(), N.str()) << "table out of order at " << N.str();
    Prev = N;
    EXPECT_EQ(ruleName(R.Id).str(), N.str());
    EXPECT_EQ(&ruleSpec(R.Id), &R);
    ASSERT_TRUE(findRuleId(N).has_value());
    EXPECT_EQ(*findRuleId(N), R.Id);
    EXPECT_FALSE(llvm::StringRef(R.Title).empty()) << N.str();
    EXPECT_FALSE(llvm::StringRef(R.Targets).empty()) << N.str();
  }
  EXPECT_FALSE(findRuleId("PK0000").has_value());
  EXPECT_EQ(ruleName(RuleId::PK2001).str(), "PK2001");
}

// `port-kernel rules` lists the registry; `explain` prints the embedded doc;
// both must agree with the table.
TEST(RuleTable, RegistryAndDocsMatchTheTable) {
  // Other tests of this process may have loaded user tables (IDs outside the
  // table): only the built-in rows are compared.
  std::vector<RuleInfo> All;
  for (const RuleInfo &R : RuleRegistry::get().all())
    if (findRuleId(R.ID))
      All.push_back(R);
  ASSERT_EQ(All.size(), ruleTable().size());
  for (size_t I = 0; I < All.size(); ++I) {
    const RuleSpec &R = ruleTable()[I];
    EXPECT_EQ(All[I].ID, R.Name);
    EXPECT_EQ(All[I].Title, R.Title) << R.Name;
    EXPECT_EQ(All[I].Kind, ruleKindName(R.Kind).str()) << R.Name;
    llvm::StringRef Doc = ruleDoc(R.Name);
    ASSERT_FALSE(Doc.empty()) << "no docs/rules/" << R.Name << ".md";
    EXPECT_EQ(Doc.split('\n').first.str(), (llvm::Twine("# ") + R.Name + ": " + R.Title).str())
        << "doc heading differs from the table";
  }
  // Every documented ID is in the table.
  for (const std::string &ID : documentedRuleIDs())
    EXPECT_TRUE(findRuleId(ID).has_value()) << ID << " has a page but no table row";
}

TEST(RuleTable, RuleRefNamesTheRule) {
  RuleRef R = RuleId::PK3017;
  EXPECT_EQ(R.name().str(), "PK3017");
  EXPECT_TRUE(R == RuleId::PK3017);
  EXPECT_FALSE(R == RuleId::PK3016);
  EXPECT_EQ(RuleRef::fromTable("PK8001").name().str(), "PK8001");
}
