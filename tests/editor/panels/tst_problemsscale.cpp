// The Problems dock at cluster scale (issue 18, item 3): a 1,024-rank program with the same
// fault on every rank is one row for ranks 0–1023 whose other members are child rows, and the
// view asks the model only for the child rows it shows (none are built ahead).

#include "document/document.h"
#include "panels/problemsmodel.h"

#include <QApplication>
#include <QTest>
#include <QTreeView>

#include <set>

using namespace cs;
using namespace cs::editor;

namespace {

constexpr int kRanks = 1024;

/// An all-gather whose every rank copies two chunks from an input of one: the same out-of-range
/// fault on each of the 1,024 ranks.
Program copyPastTheInputOnEveryRank()
{
  Program program = programOfRanks(kRanks, {1, kRanks, 0});
  program.name = "scale";
  program.collective = Collective::AllGather;
  program.collSpelling = "allgather";
  program.nchannels = 1;
  program.nchunksperloop = kRanks;
  program.outofplace = true;
  for (int r = 0; r < kRanks; ++r) {
    Step& copy = appendThreadblock(program, r, -1, -1).steps.emplace_back();
    copy.type = OpType::Copy;
    copy.srcBuf = Buffer::Input;
    copy.srcOff = 0;
    copy.dstBuf = Buffer::Output;
    copy.dstOff = r;
    copy.cnt = 2;
  }
  return program;
}

/// Counts the distinct child rows whose text a view asked for.
class CountingModel : public ProblemsModel
{
public:
  using ProblemsModel::ProblemsModel;
  mutable std::set<std::pair<int, int>> childrenShown; ///< (parent row, row)

  QVariant data(const QModelIndex& index, int role) const override
  {
    if (role == Qt::DisplayRole && index.parent().isValid())
      childrenShown.insert({index.parent().row(), index.row()});
    return ProblemsModel::data(index, role);
  }
};

} // namespace

class TestProblemsScale : public QObject
{
  Q_OBJECT

private slots:
  void oneRowForTheSameFaultOnEveryRank();
};

void TestProblemsScale::oneRowForTheSameFaultOnEveryRank()
{
  Document document;
  document.setProgram(copyPastTheInputOnEveryRank());
  document.waitForAnalysis();
  const std::vector<Problem>& problems = document.analysis().problems;
  QVERIFY(problems.size() >= std::size_t{kRanks});

  CountingModel model(&document);
  // Thousands of problems, a handful of rows: each fault is one row however many ranks repeat it.
  QVERIFY2(model.problemCount() <= 10, qPrintable(QString::number(model.problemCount())));
  QCOMPARE(model.listedProblemCount(), static_cast<int>(problems.size()));

  int everyRank = -1;
  for (int row = 0; row < model.problemCount(); ++row) {
    if (model.ranksPrefix(row) == QStringLiteral("ranks 0") + QChar(0x2013) + "1023")
      everyRank = row;
  }
  QVERIFY(everyRank >= 0);
  const QModelIndex group = model.index(everyRank, 0);
  const Problem* first = model.problemAt(group);
  QVERIFY(first);
  const int related = static_cast<int>(first->diagnostic.related.size());
  QCOMPARE(model.rowCount(group), related + kRanks - 1);
  // The row and its member children name each rank once.
  std::set<int> ranks{first->rank.value_or(first->diagnostic.location.rank)};
  for (int child = related; child < model.rowCount(group); ++child) {
    const int member = model.memberOf(model.index(child, 0, group));
    QVERIFY(member >= 0);
    const Problem& other = problems[static_cast<std::size_t>(member)];
    ranks.insert(other.rank.value_or(other.diagnostic.location.rank));
  }
  QCOMPARE(static_cast<int>(ranks.size()), kRanks);
  QCOMPARE(*ranks.begin(), 0);
  QCOMPARE(*ranks.rbegin(), kRanks - 1);

  // Expanded in a view, only the rows on screen are asked for.
  model.childrenShown.clear();
  QTreeView view;
  view.setUniformRowHeights(true);
  view.setModel(&model);
  view.resize(600, 400);
  view.show();
  view.expand(group);
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  QApplication::processEvents();
  QVERIFY(!model.childrenShown.empty());
  QVERIFY2(model.childrenShown.size() < 100,
           qPrintable(QString::number(model.childrenShown.size())));
  view.scrollToBottom();
  QApplication::processEvents();
  QVERIFY(model.childrenShown.size() < 200);
  QVERIFY(model.childrenShown.contains({everyRank, model.rowCount(group) - 1}));
  qInfo("%zu problems in %d rows; the view asked for %zu of the group's %d child rows",
        problems.size(), model.problemCount(), model.childrenShown.size(), model.rowCount(group));
}

QTEST_MAIN(TestProblemsScale)
#include "tst_problemsscale.moc"
