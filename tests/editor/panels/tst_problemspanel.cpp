// The Problems dock: known-bad corpus files list exactly the Analysis's problems with their
// codes, related locations as child rows, activating a row (double-click, Enter) selects the
// offending instruction or transfer, filters and the "no problems" state, and the summary.

#include "document/commands/transfercommands.h"
#include "document/document.h"
#include "document/documentfiles.h"
#include "panels/problemsmodel.h"
#include "panels/problemspanel.h"

#include "catalogue/catalogue.h"
#include "model/diagnosticgroups.h"
#include "model/topologypresets.h"
#include "support/corpus.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace cs;
using namespace cs::editor;

namespace {

void openCorpusFile(Document& document, const QString& name)
{
  const QString path = test::corpusPath(name);
  LoadResult loaded = loadDocumentFile(path);
  QVERIFY2(loaded.state.has_value(), qPrintable(loaded.error));
  document.reset(std::move(*loaded.state), {.filePath = path});
}

DocumentState ringState(int ranks)
{
  GenerateResult generated = generateAlgorithm("ring-allreduce", {.ranks = ranks});
  DocumentState state;
  state.design.schedule = *generated.schedule;
  // Drawn for a ring of GPUs: without a topology the panel would say none was checked.
  state.design.topology = makePresetTopology("ring-" + std::to_string(ranks));
  return state;
}

/// Problems listed with a code that is `code` or inside it: top-level rows, and the other members
/// of a repeated fault's group (its child rows after the related locations).
int rowsWithCode(const ProblemsPanel& panel, const QString& code)
{
  int n = 0;
  const ProblemsModel* model = panel.model();
  for (int row = 0; row < panel.problemCount(); ++row) {
    const QModelIndex top = model->index(row, ProblemsModel::CodeColumn);
    for (int child = -1; child < model->rowCount(top.siblingAtColumn(0)); ++child) {
      const QModelIndex index = child < 0 ? top : model->index(child, 0, top.siblingAtColumn(0));
      if (child >= 0 && model->memberOf(index) < 0)
        continue;
      const QString shown = index.siblingAtColumn(ProblemsModel::CodeColumn).data().toString();
      if (codeInCategory(shown.toStdString(), code.toStdString()))
        ++n;
    }
  }
  return n;
}

/// What a window system delivers for a double-click: press, release, double-click, release.
void doubleClick(QTreeView* view, const QModelIndex& index)
{
  view->scrollTo(index);
  const QPoint at = view->visualRect(index).center();
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
  QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, at);
}

} // namespace

class TestProblemsPanel : public QObject
{
  Q_OBJECT

private slots:
  void knownBadFilesShowEveryProblem_data();
  void knownBadFilesShowEveryProblem();
  void relatedLocationsAreChildRows();
  void doubleClickSelectsTheInstruction();
  void enterOnATransferProblemSelectsTheTransfer();
  void filtersAndSearch();
  void correctAlgorithmShowsNoProblemsState();
};

void TestProblemsPanel::knownBadFilesShowEveryProblem_data()
{
  QTest::addColumn<QString>("file");
  QTest::addColumn<QString>("code");
  QTest::addColumn<int>("rank");
  // MANIFEST.md section C: wrong results, races, and a file the classic runtime rejects.
  QTest::newRow("post FAIL") << "allreduce_a100_pcie_hierarchical_4r_1i_LL.xml"
                             << "postcondition" << 0;
  QTest::newRow("16-rank post FAIL") << "pipeline_a100_ring_8r_2ch_1i_LL128.xml"
                                     << "postcondition" << 0;
  QTest::newRow("race") << "alltonext_forward_2x8r_1i_Simple.xml"
                        << "race" << 1;
  QTest::newRow("chunks per loop") << "patched_reducegather_custom_4r_2groups_1i_Simple.xml"
                                   << "limit.chunks-per-loop" << 0;
}

void TestProblemsPanel::knownBadFilesShowEveryProblem()
{
  CS_REQUIRE_CORPUS();
  QFETCH(QString, file);
  QFETCH(QString, code);
  QFETCH(int, rank);
  Document document;
  ProblemsPanel panel(&document);
  QSignalSpy summaries(&panel, &ProblemsPanel::summaryChanged);
  openCorpusFile(document, file);
  const Analysis& analysis = document.analysis();
  QVERIFY(analysis.errors > 0);

  QCOMPARE(panel.model()->listedProblemCount(), static_cast<int>(analysis.problems.size()));
  QCOMPARE(panel.problemCount(),
           static_cast<int>(groupRepeatedDiagnostics(analysis.diagnostics()).size()));
  int expected = 0;
  for (const Problem& problem : analysis.problems)
    if (codeInCategory(problem.diagnostic.code, code.toStdString()))
      ++expected;
  QVERIFY(expected > 0);
  QCOMPARE(rowsWithCode(panel, code), expected);
  // Errors come first, in the Analysis's order, with their message in the first column (after
  // the ranks when the row stands for several).
  const QString first = panel.model()->index(0, ProblemsModel::MessageColumn).data().toString();
  QVERIFY2(first.endsWith(QString::fromStdString(analysis.problems.front().diagnostic.message)),
           qPrintable(first));
  const QString summary = panel.summary();
  QVERIFY2(summary.startsWith(QStringLiteral("%1 error").arg(analysis.errors)),
           qPrintable(summary));
  QCOMPARE(summaries.count(), 1);
  QCOMPARE(summaries.front().front().toString(), summary);

  // The first problem of that code is located on the manifest's rank.
  for (int row = 0; row < panel.problemCount(); ++row) {
    const Problem& problem = analysis.problems[static_cast<std::size_t>(
        panel.model()->problemIndex(panel.model()->index(row, 0)))];
    if (!codeInCategory(problem.diagnostic.code, code.toStdString()))
      continue;
    QCOMPARE(problem.rank, std::optional<int>(rank));
    QVERIFY(panel.model()
                ->index(row, ProblemsModel::WhereColumn)
                .data()
                .toString()
                .startsWith(QStringLiteral("rank %1").arg(rank)));
    break;
  }
}

void TestProblemsPanel::relatedLocationsAreChildRows()
{
  CS_REQUIRE_CORPUS();
  Document document;
  ProblemsPanel panel(&document);
  openCorpusFile(document, QStringLiteral("alltonext_forward_2x8r_1i_Simple.xml"));
  const QModelIndex race = panel.model()->index(0, 0);
  const Problem& problem =
      document.analysis().problems[static_cast<std::size_t>(panel.model()->problemIndex(race))];
  // The related locations come first; the same race on other ranks follows as group members.
  const int relatedCount = static_cast<int>(problem.diagnostic.related.size());
  QVERIFY(relatedCount > 0);
  QVERIFY(panel.model()->rowCount(race) >= relatedCount);
  for (int child = 0; child < panel.model()->rowCount(race); ++child) {
    const int member = panel.model()->memberOf(panel.model()->index(child, 0, race));
    QCOMPARE(member >= 0, child >= relatedCount);
    if (member >= 0)
      QCOMPARE(document.analysis().problems[static_cast<std::size_t>(member)].diagnostic.code,
               problem.diagnostic.code);
  }
  const Location& related = problem.diagnostic.related.front();
  QCOMPARE(panel.model()->relatedLocation(panel.model()->index(0, 0, race)),
           std::optional(related));

  // Activating the child row selects the related instruction.
  QSignalSpy activated(&panel, &ProblemsPanel::problemActivated);
  panel.resize(900, 300);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  const QModelIndex child = panel.model()->index(0, ProblemsModel::MessageColumn, race);
  doubleClick(panel.treeView(), child);
  QCOMPARE(activated.count(), 1);
  QCOMPARE(document.selection().instruction,
           std::optional(InstructionRef{related.rank, related.tb, related.step}));
}

void TestProblemsPanel::doubleClickSelectsTheInstruction()
{
  CS_REQUIRE_CORPUS();
  Document document;
  ProblemsPanel panel(&document);
  panel.resize(900, 300);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  openCorpusFile(document, QStringLiteral("allreduce_a100_pcie_hierarchical_4r_1i_LL.xml"));

  int row = -1;
  for (int r = 0; r < panel.problemCount() && row < 0; ++r)
    if (panel.model()->index(r, ProblemsModel::CodeColumn).data().toString() ==
        QStringLiteral("postcondition"))
      row = r;
  QVERIFY(row >= 0);
  const Problem& problem = document.analysis().problems[static_cast<std::size_t>(
      panel.model()->problemIndex(panel.model()->index(row, 0)))];
  QCOMPARE(problem.rank, std::optional(0));
  QCOMPARE(problem.tb, std::optional(0));
  QCOMPARE(problem.step, std::optional(1));

  QSignalSpy activated(&panel, &ProblemsPanel::problemActivated);
  const QModelIndex cell = panel.model()->index(row, ProblemsModel::MessageColumn);
  doubleClick(panel.treeView(), cell);
  QCOMPARE(activated.count(), 1);
  QCOMPARE(document.selection().instruction, std::optional(InstructionRef{0, 0, 1}));
  const auto sent = activated.front().front().value<Problem>();
  QCOMPARE(sent.diagnostic.code, std::string("postcondition"));

  // activateRow is the same path for tests and the main window.
  document.setSelection({});
  QVERIFY(panel.activateRow(row));
  QCOMPARE(document.selection().instruction, std::optional(InstructionRef{0, 0, 1}));
  QVERIFY(!panel.activateRow(panel.problemCount()));
}

void TestProblemsPanel::enterOnATransferProblemSelectsTheTransfer()
{
  Document document;
  document.reset(ringState(4), {});
  ProblemsPanel panel(&document);
  panel.resize(900, 300);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  QSignalSpy summaries(&panel, &ProblemsPanel::summaryChanged);

  // Point one transfer at a chunk that does not exist: a Schedule error about that transfer.
  Transfer broken = document.schedule().transfers[3];
  broken.dst.index = 40;
  document.undoStack()->push(new ChangeTransfersCommand(&document, {broken}, "break"));
  QVERIFY(document.analysis().errors > 0);
  QCOMPARE(summaries.count(), 1);
  QCOMPARE(panel.model()->listedProblemCount(),
           static_cast<int>(document.analysis().problems.size()));

  int row = -1;
  for (int r = 0; r < panel.problemCount() && row < 0; ++r)
    if (document.analysis()
            .problems[static_cast<std::size_t>(
                panel.model()->problemIndex(panel.model()->index(r, 0)))]
            .transferId == broken.id)
      row = r;
  QVERIFY(row >= 0);
  QVERIFY(panel.model()
              ->index(row, ProblemsModel::WhereColumn)
              .data()
              .toString()
              .startsWith(QStringLiteral("transfer #%1").arg(broken.id)));

  panel.treeView()->setFocus();
  panel.treeView()->setCurrentIndex(panel.model()->index(row, 0));
  QTest::keyClick(panel.treeView(), Qt::Key_Return);
  QCOMPARE(document.selection().transfers, std::set<int>{broken.id});

  // Undo: the problem disappears live and the summary says so.
  document.undoStack()->undo();
  QCOMPARE(panel.model()->listedProblemCount(),
           static_cast<int>(document.analysis().problems.size()));
  QCOMPARE(summaries.count(), 2);
  QCOMPARE(panel.summary(), QStringLiteral("No problems"));
}

void TestProblemsPanel::filtersAndSearch()
{
  CS_REQUIRE_CORPUS();
  Document document;
  ProblemsPanel panel(&document);
  openCorpusFile(document, QStringLiteral("patched_reducegather_custom_4r_2groups_1i_Simple.xml"));
  const Analysis& analysis = document.analysis();
  const int total = static_cast<int>(analysis.problems.size());
  QCOMPARE(panel.model()->listedProblemCount(), total);

  auto* errors = panel.findChild<QToolButton*>(QStringLiteral("showErrors"));
  QVERIFY(errors);
  QCOMPARE(errors->text(), QStringLiteral("%1 errors").arg(analysis.errors));
  QTest::mouseClick(errors, Qt::LeftButton);
  QCOMPARE(panel.model()->listedProblemCount(), total - analysis.errors);

  auto* search = panel.findChild<QLineEdit*>(QStringLiteral("problemSearch"));
  QTest::mouseClick(errors, Qt::LeftButton);
  QTest::keyClicks(search, QStringLiteral("CHUNKS-PER-LOOP"));
  // One per rank, matched by code ignoring case, listed as one row for ranks 0–3.
  QCOMPARE(panel.model()->listedProblemCount(), 4);
  QCOMPARE(panel.problemCount(), 1);
  const QString grouped = panel.model()->index(0, ProblemsModel::MessageColumn).data().toString();
  QVERIFY2(grouped.startsWith(QString("ranks 0") + QChar(0x2013) + "3: "), qPrintable(grouped));
  QTest::keyClicks(search, QStringLiteral("zzz"));
  QCOMPARE(panel.problemCount(), 0);
  auto* title = panel.findChild<QLabel*>(QStringLiteral("emptyTitle"));
  QVERIFY(title->isVisible() || !panel.isVisible());
  QCOMPARE(title->text(), QStringLiteral("No problem matches the filter"));
  search->clear();
  QCOMPARE(panel.model()->listedProblemCount(), total);
}

void TestProblemsPanel::correctAlgorithmShowsNoProblemsState()
{
  Document document;
  document.reset(ringState(4), {});
  ProblemsPanel panel(&document);
  panel.resize(700, 200);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  QCOMPARE(document.analysis().problems.size(), std::size_t{0});
  QCOMPARE(panel.problemCount(), 0);
  QCOMPARE(panel.summary(), QStringLiteral("No problems"));
  // One line: no filter bar, no table, and the panel no taller than that line.
  auto* line = panel.findChild<QLabel*>(QStringLiteral("compactLine"));
  QVERIFY(line->isVisible());
  QVERIFY2(line->text().contains(QStringLiteral("No problems")), qPrintable(line->text()));
  QVERIFY(panel.isCompact());
  QVERIFY(!panel.treeView()->isVisible());
  QVERIFY(!panel.findChild<QLineEdit*>(QStringLiteral("problemSearch"))->isVisible());
  QCOMPARE(panel.height(), line->sizeHint().height());
  QVERIFY(panel.height() < 3 * panel.fontMetrics().height());

  // A problem brings the list back.
  document.undoStack()->push(
      new RemoveTransfersCommand(&document, {document.schedule().transfers.front().id}));
  QVERIFY(!panel.isCompact());
  QVERIFY(panel.treeView()->isVisible());
  QVERIFY(panel.problemCount() > 0);
}

QTEST_MAIN(TestProblemsPanel)
#include "tst_problemspanel.moc"
