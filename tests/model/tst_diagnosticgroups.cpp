// Grouping diagnostics that repeat one fault across ranks (model/diagnosticgroups.h): what counts
// as the same fault, the rank ranges people read, and that nothing is lost or reordered.

#include "model/diagnosticgroups.h"

#include <QTest>

using namespace cs;

namespace {

Diagnostic made(Severity severity, const char* code, std::string message, int rank = -1)
{
  Diagnostic d;
  d.severity = severity;
  d.code = code;
  d.message = std::move(message);
  d.location.rank = rank;
  return d;
}

} // namespace

class TestDiagnosticGroups : public QObject
{
  Q_OBJECT

private slots:
  void rangesJoinConsecutiveValues_data()
  {
    QTest::addColumn<QList<int>>("values");
    QTest::addColumn<QString>("text");
    QTest::newRow("one") << QList<int>{3} << "3";
    QTest::newRow("run") << QList<int>{2, 0, 1, 3} << "0-3";
    QTest::newRow("pair is not a run") << QList<int>{4, 5} << "4, 5";
    QTest::newRow("mixed") << QList<int>{9, 0, 2, 5, 6, 7, 2} << "0, 2, 5-7, 9";
    QTest::newRow("none") << QList<int>{} << "";
  }

  void rangesJoinConsecutiveValues()
  {
    QFETCH(QList<int>, values);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(describeRanges({values.begin(), values.end()})), text);
  }

  void sameFaultOnManyRanksIsOneGroup()
  {
    std::vector<Diagnostic> list;
    for (int rank = 0; rank < 1024; ++rank)
      list.push_back(made(Severity::Error, "match.unmatched",
                          "rank " + std::to_string(rank) + " sends to rank " +
                              std::to_string((rank + 1) % 1024) + " but nobody receives",
                          rank));
    // Another code, another severity, another wording: three more groups.
    list.insert(list.begin() + 5, made(Severity::Error, "match.count", "rank 5 sends twice", 5));
    list.push_back(made(Severity::Warning, "match.unmatched",
                        "rank 1 sends to rank 2 but nobody "
                        "receives",
                        1));
    list.push_back(made(Severity::Error, "match.unmatched", "rank 1 sends to itself", 1));
    const std::vector<DiagnosticGroup> groups = groupRepeatedDiagnostics(list);
    QCOMPARE(groups.size(), std::size_t(4));
    QCOMPARE(groups[0].members.size(), std::size_t(1024));
    QCOMPARE(groups[0].members[5], std::size_t(6)); // in list order, around the other group
    QCOMPARE(groups[1].members, std::vector<std::size_t>{5});
    QCOMPARE(QString::fromStdString(describeGroupRanks(list, groups[0])), "ranks 0-1023");
    QCOMPARE(QString::fromStdString(describeGroupRanks(list, groups[0], 3)), "ranks 3-1023");
    QCOMPARE(QString::fromStdString(describeGroupRanks(list, groups[1])), "rank 5");
    std::size_t total = 0;
    for (const DiagnosticGroup& group : groups)
      total += group.members.size();
    QCOMPARE(total, list.size());
  }

  void diagnosticsWithoutRanksHaveNoRankText()
  {
    const std::vector<Diagnostic> list = {made(Severity::Info, "x.y", "line 3 is long"),
                                          made(Severity::Info, "x.y", "line 9 is long")};
    const std::vector<DiagnosticGroup> groups = groupRepeatedDiagnostics(list);
    QCOMPARE(groups.size(), std::size_t(1));
    QVERIFY(describeGroupRanks(list, groups[0]).empty());
  }
};

QTEST_GUILESS_MAIN(TestDiagnosticGroups)
#include "tst_diagnosticgroups.moc"
