// Teaching's predict exercise on the timeline (issue 19 item 4): concealing a step hides exactly
// the cells that step writes (their column shows "?"), leaves the other cells of that column and
// the earlier ones as they were, blanks every later column (a written chunk often keeps its value
// there, which would give the answer away), and showing it again restores the picture.

#include "timeline/timelineview.h"

#include "document/document.h"

#include "catalogue/catalogue.h"

#include <QTest>

using namespace cs;
using namespace cs::editor;

class TestTimelineConceal : public QObject
{
  Q_OBJECT

private slots:
  void hidesExactlyTheCellsTheStepWrites();
};

void TestTimelineConceal::hidesExactlyTheCellsTheStepWrites()
{
  Document document;
  DocumentState state;
  state.design.schedule = *generateAlgorithm("ring-allreduce", {.ranks = 4}).schedule;
  document.reset(state, {});
  document.waitForAnalysis();
  TimelineView view(&document);
  view.resize(1400, 900);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));

  const Schedule& schedule = document.state().design.schedule;
  constexpr int kStep = 1;
  std::vector<ChunkRef> written;
  for (const Transfer& transfer : schedule.transfers) {
    if (transfer.step == kStep)
      written.push_back(transfer.dst);
  }
  QCOMPARE(written.size(), std::size_t{4});
  const ChunkRef untouched = {.rank = 0, .buffer = Buffer::Input, .index = 0};
  QVERIFY(std::ranges::find(written, untouched) == written.end());

  const auto cellImage = [&view](const ChunkRef& slot, int column) {
    const QRect cell = view.cellRect(slot, column);
    return view.viewport()->grab(cell).toImage();
  };
  const QImage shownWritten = cellImage(written.front(), kStep + 1);
  const QImage shownUntouched = cellImage(untouched, kStep + 1);
  const QImage shownNextColumn = cellImage(written.front(), kStep + 2);
  const QImage shownUntouchedLater = cellImage(untouched, kStep + 3);
  const QImage shownEarlier = cellImage(written.front(), kStep);

  view.setConcealedStep(kStep);
  QCOMPARE(view.concealedStep(), std::optional<int>(kStep));
  QVERIFY(cellImage(written.front(), kStep + 1) != shownWritten);
  QCOMPARE(cellImage(untouched, kStep + 1), shownUntouched);
  QCOMPARE(cellImage(written.front(), kStep), shownEarlier);
  // Later columns are blank, written or not: no content fill and no label.
  for (const QImage& later :
       {cellImage(written.front(), kStep + 2), cellImage(untouched, kStep + 3)}) {
    const QColor middle = later.pixelColor(later.width() / 2, later.height() / 2);
    for (int x = 2; x < later.width() - 2; ++x)
      QCOMPARE(later.pixelColor(x, later.height() / 2), middle);
  }
  QVERIFY(cellImage(written.front(), kStep + 2) != shownNextColumn);
  QVERIFY(cellImage(untouched, kStep + 3) != shownUntouchedLater);
  // Nothing of the contents shows through: the cell's middle is the plain background with the
  // question mark, never the contents' fill colour.
  const QImage concealed = cellImage(written.front(), kStep + 1);
  const QColor fill = shownWritten.pixelColor(shownWritten.width() / 5, shownWritten.height() / 3);
  QVERIFY(concealed.pixelColor(concealed.width() / 5, concealed.height() / 3) != fill);

  view.setConcealedStep(std::nullopt);
  QCOMPARE(cellImage(written.front(), kStep + 1), shownWritten);
  QCOMPARE(cellImage(written.front(), kStep + 2), shownNextColumn);
  QCOMPARE(cellImage(untouched, kStep + 3), shownUntouchedLater);
}

QTEST_MAIN(TestTimelineConceal)
#include "tst_timelineconceal.moc"
