// The symbolic values of the checks (engine/check/symbolicvalue.h): unions past the stored-entry
// budget keep only operands and a fingerprint, and must still expand to the exact multiset,
// compare equal to the right contributions and unequal to wrong ones (double counting, a missing
// or a foreign contribution).

#include "check/symbolicvalue.h"

#include <QTest>

using namespace cs;

class Test_valuestore : public QObject
{
  Q_OBJECT

private slots:
  void unionsPastTheBudgetExpandExactly();
  void fingerprintsTellMultisetsApart();
  void resultMatcherReusesPassedValues();
};

namespace {

/// Σ of tokens first..last built left to right in `store`.
ValueId sumOf(ValueStore& store, std::uint32_t first, std::uint32_t last)
{
  ValueId value = store.singleton(first);
  for (std::uint32_t t = first + 1; t <= last; ++t)
    value = store.combine(value, store.singleton(t));
  return value;
}

std::vector<std::uint32_t> range(std::uint32_t first, std::uint32_t last)
{
  std::vector<std::uint32_t> tokens;
  for (std::uint32_t t = first; t <= last; ++t)
    tokens.push_back(t);
  return tokens;
}

} // namespace

void Test_valuestore::unionsPastTheBudgetExpandExactly()
{
  // 16 entries stored: the singletons take 10, so Σ{0,1,2} (2 then 3 entries) fits and
  // everything later is kept as operands only.
  ValueStore store(10, 16);
  const ValueId small = sumOf(store, 0, 2);
  const ValueId large = sumOf(store, 0, 9);
  const ValueId twice = store.combine(large, small);
  QCOMPARE(store.entries(large).size(), std::size_t{10});
  const TokenEntries entries = store.entries(twice);
  QCOMPARE(entries.size(), std::size_t{10});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    QCOMPARE(entries[i].token, static_cast<std::uint32_t>(i));
    QCOMPARE(entries[i].count, i <= 2 ? 2u : 1u);
  }
  QVERIFY(!store.overflowed());
  QCOMPARE(store.combine(twice, kUninitialised), kUninitialised);
}

void Test_valuestore::fingerprintsTellMultisetsApart()
{
  ValueStore store(10, 10); // nothing beyond the singletons is stored
  const ValueId all = sumOf(store, 0, 9);
  QVERIFY(store.holdsEachOnce(all, range(0, 9)));
  QVERIFY(!store.holdsEachOnce(all, range(0, 8)));
  QVERIFY(!store.holdsEachOnce(all, range(1, 9)));
  const ValueId doubled = store.combine(all, store.singleton(3));
  QVERIFY(!store.holdsEachOnce(doubled, range(0, 9)));
  std::vector<std::uint32_t> swapped = range(0, 8);
  swapped.push_back(10); // a token of another chunk instead of 9
  QVERIFY(!store.holdsEachOnce(all, swapped));
  // Built in another order, the same multiset passes.
  ValueId reversed = store.singleton(9);
  for (int t = 8; t >= 0; --t)
    reversed = store.combine(store.singleton(static_cast<std::uint32_t>(t)), reversed);
  QVERIFY(store.holdsEachOnce(reversed, range(0, 9)));
  QVERIFY(!store.holdsEachOnce(kUninitialised, range(0, 9)));
}

void Test_valuestore::resultMatcherReusesPassedValues()
{
  // All-reduce of 3 ranks × 3 chunks: every rank's chunk c must be Σ over ranks of (p, c).
  const TokenSpace tokens({3, 3, 3});
  ValueStore store(tokens.count(), tokens.count());
  const CollectiveSpec spec(Collective::AllReduce, 3, 3);
  ResultMatcher matcher(spec, store, tokens);
  std::vector<Contribution> expected;
  for (int c = 0; c < 3; ++c) {
    ValueId sum = store.singleton(*tokens.token(0, c));
    for (int p = 1; p < 3; ++p)
      sum = store.combine(sum, store.singleton(*tokens.token(p, c)));
    for (int r = 0; r < 3; ++r)
      QVERIFY(matcher.holds(r, c, sum, expected));
  }
  // A wrong value at an index that passed before is still compared, and says what it needs.
  QVERIFY(!matcher.holds(2, 1, store.singleton(*tokens.token(2, 1)), expected));
  QCOMPARE(expected.size(), std::size_t{3});
  QCOMPARE(expected[0], (Contribution{0, 1}));
}

QTEST_GUILESS_MAIN(Test_valuestore)
#include "tst_valuestore.moc"
