// Teach › Gallery (issue 19 item 1): a card for every catalogue algorithm with the rank counts it
// allows worked out from the generators themselves, a thumbnail of its timeline, and a choice of
// ranks and topology (a preset, or the drawing in the open document) that opens in teaching mode.

#include "window/gallerydialog.h"
#include "window/galleryentries.h"
#include "window/gallerythumbnail.h"
#include "window/newdocuments.h"

#include "model/topologypresets.h"

#include "support/isolatedwindow.h"
#include "teach/teachingview.h"

#include <QColor>
#include <QImage>
#include <QTest>

#include <set>

using namespace cs;
using namespace cs::editor;

class TestGallery : public QObject
{
  Q_OBJECT

private slots:
  void everyAlgorithmHasACard();
  void rankRulesReadAsPeopleSayThem();
  void allowedRanksComeFromTheGenerators();
  void thumbnailsShowTheTimeline();
  void unsupportedRanksDisableOpen();
  void currentDrawingNeedsItsGpuCount();
  void openInTeachingModeBuildsTheChoice();
  void offeredOnceAsAStartPage();
};

void TestGallery::everyAlgorithmHasACard()
{
  const std::vector<GalleryEntry> entries = galleryEntries();
  QCOMPARE(entries.size(), algorithmCatalog().size());
  std::set<QString> keys;
  for (const GalleryEntry& entry : entries) {
    keys.insert(entry.key);
    QVERIFY2(!entry.costFormula.isEmpty(), qPrintable(entry.key));
    QVERIFY2(!entry.collective.isEmpty(), qPrintable(entry.key));
    const AlgorithmInfo* info = findAlgorithm(entry.key.toStdString());
    QVERIFY(info);
    QVERIFY2(!info->unsupported({.ranks = entry.suggestedRanks}), qPrintable(entry.key));
  }
  QCOMPARE(keys.size(), entries.size());
}

void TestGallery::rankRulesReadAsPeopleSayThem()
{
  QCOMPARE(describeRanks({2, 3, 4, 5, 6, 7, 8}, 8), QString("any n ≥ 2"));
  QCOMPARE(describeRanks({2, 4, 8, 16}, 16), QString("powers of two: 2, 4, 8, …"));
  QCOMPARE(describeRanks({16, 24, 32}, 32), QString("multiples of 8: 16, 24, 32"));
  QCOMPARE(describeRanks({4, 9}, 9), QString("n in 4, 9"));
  QCOMPARE(describeRanks({}, 9), QString("no rank count up to 9"));
  // A gap in "any n" is not hidden: 2, 3, 5 is listed.
  QCOMPARE(describeRanks({2, 3, 5}, 5), QString("n in 2, 3, 5"));
}

void TestGallery::allowedRanksComeFromTheGenerators()
{
  for (const GalleryEntry& entry : galleryEntries()) {
    const AlgorithmInfo* info = findAlgorithm(entry.key.toStdString());
    const std::vector<int> ranks = supportedRanks(*info);
    QVERIFY2(!ranks.empty(), qPrintable(entry.key));
    for (const int n : ranks)
      QVERIFY2(generateAlgorithm(entry.key.toStdString(), {.ranks = n}).schedule,
               qPrintable(entry.key + " " + QString::number(n)));
    QCOMPARE(entry.allowedRanks, describeRanks(ranks));
  }
  QCOMPARE(galleryEntries().front().allowedRanks, QString("any n ≥ 2"));
  const std::vector<GalleryEntry> entries = galleryEntries();
  const auto halving =
      std::ranges::find(entries, QString("halving-doubling-allreduce"), &GalleryEntry::key);
  QVERIFY(halving != entries.end());
  QVERIFY(halving->allowedRanks.startsWith("powers of two"));
}

void TestGallery::thumbnailsShowTheTimeline()
{
  const auto state = algorithmDocumentState("ring-allreduce", {.ranks = 4}, QString());
  QVERIFY(state);
  const QImage thumbnail = timelineThumbnail(*state, QSize(260, 150));
  QCOMPARE(thumbnail.size(), QSize(260, 150));
  // Something is drawn: many distinct colours (cells in rank colours, headers, arrows), not a
  // blank or one-colour rectangle.
  std::set<QRgb> colours;
  for (int y = 0; y < thumbnail.height(); y += 3)
    for (int x = 0; x < thumbnail.width(); x += 3)
      colours.insert(thumbnail.pixel(x, y));
  QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
  DocumentState empty = *state;
  empty.design.schedule.transfers.clear();
  QVERIFY(timelineThumbnail(empty, QSize(260, 150)).isNull());

  GalleryDialog dialog(std::nullopt);
  dialog.renderAllThumbnails();
  QCOMPARE(dialog.thumbnailsRendered(), static_cast<int>(algorithmCatalog().size()));
}

void TestGallery::unsupportedRanksDisableOpen()
{
  GalleryDialog dialog(std::nullopt);
  QVERIFY(dialog.selectAlgorithm("halving-doubling-allreduce"));
  QCOMPARE(dialog.choice().ranks, 4);
  QVERIFY(dialog.problem().isEmpty());
  dialog.setRanks(6);
  QVERIFY(!dialog.problem().isEmpty());
  dialog.setRanks(8);
  QVERIFY(dialog.problem().isEmpty());
  // Presets follow the ranks, and the one offered first routes every exchange: a ring does not
  // (its GPUs do not forward the distance-2 and -4 exchanges), so choosing it says so.
  QCOMPARE(dialog.choice().preset, QString("fully-connected-8"));
  QVERIFY(dialog.selectTopology("ring-8"));
  QVERIFY2(dialog.problem().contains("no path in the topology"), qPrintable(dialog.problem()));
  QVERIFY(dialog.selectAlgorithm("ring-allreduce"));
  QCOMPARE(dialog.choice().preset, QString("ring-4"));
  QVERIFY(!dialog.selectAlgorithm("no-such-algorithm"));
}

void TestGallery::currentDrawingNeedsItsGpuCount()
{
  GalleryDialog none(std::nullopt);
  QVERIFY(!none.selectTopology("The current drawing (4 GPUs)"));

  GalleryDialog dialog(makePresetTopology("ring-4"));
  QVERIFY(dialog.selectAlgorithm("ring-allgather"));
  QVERIFY(dialog.selectTopology("The current drawing (4 GPUs)"));
  QVERIFY(dialog.choice().currentDrawing);
  QVERIFY(dialog.choice().preset.isEmpty());
  QVERIFY(dialog.problem().isEmpty());
  QVERIFY(dialog.selectAlgorithm("bruck-allgather"));
  QVERIFY(dialog.selectTopology("The current drawing (4 GPUs)"));
  QVERIFY2(dialog.problem().contains("rank 0 → rank 2: no path"), qPrintable(dialog.problem()));
  dialog.setRanks(5);
  // The drawing stays chosen, and now says why it does not fit.
  QVERIFY(dialog.choice().currentDrawing);
  QVERIFY2(dialog.problem().contains("4 GPUs"), qPrintable(dialog.problem()));
}

void TestGallery::openInTeachingModeBuildsTheChoice()
{
  QTemporaryDir dir;
  auto window = test::openIsolatedRingWindow(dir, "tst_gallery");
  QVERIFY(window);
  const auto drawn = window->document()->state().design.topology;
  QVERIFY(drawn);

  QVERIFY(
      window
          ->openInTeachingMode(
              {.key = "ring-allgather", .ranks = 4, .preset = QString(), .currentDrawing = true})
          .isEmpty());
  QCOMPARE(window->document()->state().design.schedule.ranks, 4);
  QCOMPARE(window->document()->state().design.schedule.collective, Collective::AllGather);
  QVERIFY(window->document()->state().design.topology == drawn);
  QCOMPARE(window->currentView(), MainWindow::View::Timeline);
  // Teaching mode is on, stepping a run of the new algorithm.
  QVERIFY(window->teachingView());
  QVERIFY2(window->teachingView()->session(),
           qPrintable(window->teachingView()->panel()->narrationText()));
  QCOMPARE(window->teachingView()->session()->program().ngpus, 4);
  // Bruck's exchanges skip ranks, which a ring's GPUs cannot forward: it opens, and the panel
  // says why there is nothing to step through.
  QVERIFY(
      window
          ->openInTeachingMode(
              {.key = "bruck-allgather", .ranks = 4, .preset = QString(), .currentDrawing = true})
          .isEmpty());
  QVERIFY(!window->teachingView()->session());
  QVERIFY2(window->teachingView()->panel()->narrationText().contains("no route from rank 0"),
           qPrintable(window->teachingView()->panel()->narrationText()));

  QVERIFY(window
              ->openInTeachingMode({.key = "ring-allreduce",
                                    .ranks = 8,
                                    .preset = "fully-connected-8",
                                    .currentDrawing = false})
              .isEmpty());
  QCOMPARE(window->document()->state().design.topology->rankCount(), 8);
  // The 8-GPU topology is now the drawing: 4 ranks on it are refused and nothing changes.
  const auto before = window->document()->state();
  QVERIFY(
      !window
           ->openInTeachingMode(
               {.key = "ring-allreduce", .ranks = 4, .preset = QString(), .currentDrawing = true})
           .isEmpty());
  QVERIFY(window->document()->state() == before);
  QVERIFY(!window
               ->openInTeachingMode({.key = "halving-doubling-allreduce",
                                     .ranks = 6,
                                     .preset = "ring-6",
                                     .currentDrawing = false})
               .isEmpty());
  window->setTeachingMode(false);
  QVERIFY(!window->teachingView());
}

void TestGallery::offeredOnceAsAStartPage()
{
  QTemporaryDir dir;
  auto window = test::openIsolatedRingWindow(dir, "tst_gallery_start");
  QVERIFY(window);
  QVERIFY(window->offerGalleryOnFirstStart());
  auto* gallery = window->findChild<GalleryDialog*>();
  QVERIFY(gallery);
  QVERIFY(gallery->isVisible());
  gallery->reject();
  // Remembered across windows (the setting), so the next start goes straight to the example.
  auto second = test::openIsolatedRingWindow(dir, "tst_gallery_start");
  QVERIFY(!second->offerGalleryOnFirstStart());
  QVERIFY(!window->offerGalleryOnFirstStart());
}

QTEST_MAIN(TestGallery)
#include "tst_gallery.moc"
