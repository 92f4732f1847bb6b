// The buffer view after a failed verification: a CPU run of a ring broken in two known chunks
// of rank 0 (tests/exec/wrongring.h), its trace written to a file and opened as a stored run
// would be, shows exactly those chunks red (in place `o` is `i`, so both rows) from the moment
// each got its final value, says how many are wrong above the ranks, gives expected vs actual
// in the tooltip, and paints the cells red; a right run marks nothing.

#include "exec/wrongring.h"
#include "io/chrometrace.h"
#include "session/replaysession.h"
#include "views/bufferview.h"

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace cs;
using namespace cs::visualizer;

namespace {

/// Runs `program` on the CPU and opens its trace, read back from a file.
std::unique_ptr<ReplaySession> openRun(const Program& program, const QString& path)
{
  const ExecResult result = makeExecutor("cpu")->run(program, test::wrongRingOptions());
  std::ofstream(path.toStdString()) << writeChromeTrace(result.trace);
  ReplayOpen opened = ReplaySession::openFile(program, path, std::nullopt, result.mode);
  return std::move(opened.session);
}

/// How much redder than green a pixel is.
int redness(const QImage& image, const QPoint& at)
{
  const QColor pixel = image.pixelColor(at);
  return pixel.red() - pixel.green();
}

} // namespace

class Test_bufferwrong : public QObject
{
  Q_OBJECT

private slots:
  void wrongChunksAreRedWithExpectedAndActual()
  {
    QTemporaryDir dir;
    const test::WrongRing ring = test::makeWrongRing();
    const auto session = openRun(ring.program, dir.filePath("wrong.json"));
    QVERIFY(session);
    QVERIFY(session->trace().verification.has_value());
    BufferView view(session.get());
    view.resize(view.sizeHint());
    QVERIFY(view.verificationText().contains("in 2 chunks"));
    const QStringList details = view.wrongDetails();
    QCOMPARE(details.size(), 2);
    const WrongChunk& first = session->trace().verification->wrongChunks.front();
    QCOMPARE(details.front(), QString("rank %1 o[%2]: %3")
                                  .arg(first.rank)
                                  .arg(first.chunk)
                                  .arg(BufferView::describeWrong(first)));

    session->setCursor(session->endUs());
    for (int rank = 0; rank < 4; ++rank) {
      for (int k = 0; k < 4; ++k) {
        const bool expected = ring.wrongChunks().count({rank, k}) > 0;
        for (const Buffer buffer : {Buffer::Input, Buffer::Output})
          QCOMPARE(view.wrongAt(rank, buffer, k) != nullptr, expected);
      }
    }
    const WrongChunk& hit = *view.wrongAt(ring.rank, Buffer::Output, ring.hit);
    QCOMPARE(hit.chunk, ring.hit);
    QCOMPARE(BufferView::describeWrong(hit), QString("expected %1 actual %2 at element %3")
                                                 .arg(hit.expected)
                                                 .arg(hit.actual)
                                                 .arg(hit.element));

    // The overwritten chunk turns red when the misdirected receive writes it, not before.
    const double written =
        session->buffers().changedAt(ring.rank, Buffer::Output, ring.hit, session->endUs());
    QVERIFY(written > 0);
    session->setCursor(written);
    QVERIFY(view.wrongAt(ring.rank, Buffer::Output, ring.hit) != nullptr);
    session->setCursor(std::nextafter(written, 0.0));
    QVERIFY(view.wrongAt(ring.rank, Buffer::Output, ring.hit) == nullptr);

    // Painted: the wrong cell's background is red where the same sum on another rank is not.
    const QPoint inside =
        view.cellRect(ring.rank, Buffer::Output, ring.hit).topLeft() + QPoint(5, 5);
    const QPoint right = view.cellRect(1, Buffer::Output, ring.hit).topLeft() + QPoint(5, 5);
    session->setCursor(session->endUs());
    QCOMPARE(view.cellText(ring.rank, Buffer::Output, ring.hit),
             view.cellText(1, Buffer::Output, ring.hit));
    const QImage image = view.grab().toImage();
    QVERIFY2(
        redness(image, inside) > redness(image, right) + 20,
        qPrintable(QString("%1 vs %2").arg(redness(image, inside)).arg(redness(image, right))));
  }

  void aRightRunMarksNothing()
  {
    QTemporaryDir dir;
    const auto session =
        openRun(makeRingAllReduce({4, 1, Protocol::Simple}), dir.filePath("right.json"));
    QVERIFY(session);
    BufferView view(session.get());
    session->setCursor(session->endUs());
    QVERIFY(view.verificationText().isEmpty());
    QVERIFY(view.wrongDetails().isEmpty());
    for (int rank = 0; rank < 4; ++rank)
      for (int k = 0; k < 4; ++k)
        QVERIFY(view.wrongAt(rank, Buffer::Output, k) == nullptr);
  }
};

QTEST_MAIN(Test_bufferwrong)
#include "tst_bufferwrong.moc"
