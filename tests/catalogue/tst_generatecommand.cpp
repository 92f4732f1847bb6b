// `cstudio generate` over the catalogue: --list, --explain, unsupported rank counts (exit 2 with
// the reason), .xml output that `cstudio validate` accepts, .json design documents that read
// back to a Schedule passing the Schedule checks, drawn on --topology only when it routes every
// exchange; and the gallery examples the build writes cover the whole catalogue.

#include "catalogue/catalogue.h"
#include "check/schedulecheck.h"
#include "check/topologyfit.h"
#include "io/designdocument.h"
#include "support/cli.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace cs;

using cs::test::cstudio;
using cs::test::readFile;
using cs::test::writeFile;
using Run = cs::test::CliRun;

class Test_generatecommand : public QObject
{
  Q_OBJECT

private slots:
  void listsTheCatalogue();
  void explains();
  void unsupportedRankCount();
  void writesValidXml_data();
  void writesValidXml();
  void writesDesignDocument();
  void refusalNamesTheLimit();
  void refusalOffersOnlyDialectsThatFitTheGpu();
  void refusesBeforeLoweringWhatNoGpuKeepsResident();
  void designDocumentOnATopology();
  void galleryExamplesCoverTheCatalogue();

private:
  QTemporaryDir m_dir;
};

void Test_generatecommand::listsTheCatalogue()
{
  const Run run = cstudio({"generate", "--list"});
  QCOMPARE(run.exitCode, 0);
  const QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), static_cast<qsizetype>(algorithmCatalog().size()));
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    const QString key = QString::fromUtf8(info.key.data(), static_cast<qsizetype>(info.key.size()));
    const auto line = std::find_if(lines.begin(), lines.end(),
                                   [&](const QString& l) { return l.startsWith(key + ' '); });
    QVERIFY2(line != lines.end(), qPrintable(key));
    QVERIFY(line->contains(QString::fromUtf8(collectiveTitle(info.collective).data())));
    QVERIFY(line->contains(
        QString::fromUtf8(info.summary.data(), static_cast<qsizetype>(info.summary.size()))));
  }
}

void Test_generatecommand::explains()
{
  const Run run = cstudio({"generate", "ring-allreduce", "--explain", "--ranks", "8"});
  QCOMPARE(run.exitCode, 0);
  QVERIFY(run.out.contains("2(n-1)\u00b7(\u03b1 + S/(n\u03b2))"));
  QVERIFY(run.out.contains("reduce-scatter") || run.out.contains("partial sum"));
  // 1 MiB on 8 ranks with α = 2 µs, β = 100 GB/s: 14 · (2 + 131072 B / 100 GB/s) µs.
  const double expected = 14 * (2 + 131072 / 1e5);
  QVERIFY2(run.out.contains(QString::number(expected, 'f', 1) + " \u00b5s"), qPrintable(run.out));
}

void Test_generatecommand::unsupportedRankCount()
{
  const QString file = m_dir.filePath("hd.xml");
  const Run run = cstudio({"generate", "halving-doubling-allreduce", "--ranks", "6", "-o", file});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains("power of two"), qPrintable(run.err));
  QVERIFY(!QFile::exists(file));
  const Run torus =
      cstudio({"generate", "torus2d-allreduce", "--ranks", "8", "--group", "3", "-o", file});
  QCOMPARE(torus.exitCode, 2);
  QVERIFY2(torus.err.contains("3 rows"), qPrintable(torus.err));
}

void Test_generatecommand::writesValidXml_data()
{
  QTest::addColumn<QStringList>("arguments");
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    const QString key = QString::fromUtf8(info.key.data(), static_cast<qsizetype>(info.key.size()));
    QTest::newRow(qPrintable(key)) << QStringList{key, "--ranks", "8"};
  }
  QTest::newRow("ring 3 ch rccl LL") << QStringList{
      "ring-allgather", "--ranks", "5", "--channels", "3", "--proto", "LL", "--dialect", "rccl"};
  QTest::newRow("hier group 4") << QStringList{"hierarchical-tree-allreduce", "--ranks", "16",
                                               "--group", "4"};
  QTest::newRow("ring 2 instances")
      << QStringList{"ring-allreduce", "--ranks", "6", "--instances", "2"};
  // Its last step moves 128 blocks, wider than the runtime's cnt limit of 71.
  QTest::newRow("bruck 256") << QStringList{"bruck-allgather", "--ranks", "256"};
}

void Test_generatecommand::refusalNamesTheLimit()
{
  // 71 peers each way plus the local copy of the own block: 143 threadblocks per rank, packed
  // (a send and a receive per threadblock, the copy folded in) to 71, still over RCCL's 64 but
  // within the others'.
  const QString file = m_dir.filePath("a2a.xml");
  const Run run =
      cstudio({"generate", "direct-alltoall", "--ranks", "72", "--dialect", "rccl", "-o", file});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.contains("a rank needs 71 threadblocks"), qPrintable(run.err));
  QVERIFY2(run.err.contains("allows 64 per rank"), qPrintable(run.err));
  QVERIFY2(run.err.contains("[lower.threadblocks]"), qPrintable(run.err));
  QVERIFY2(run.err.contains("(it fits --dialect classic or executor)"), qPrintable(run.err));
  QVERIFY2(
      run.err.contains("all-to-all algorithms for 72 ranks: two-step-alltoall, bruck-alltoall"),
      qPrintable(run.err));
  QVERIFY(!QFile::exists(file));
}

void Test_generatecommand::refusalOffersOnlyDialectsThatFitTheGpu()
{
  // 199 peers each way: classic and executor lower it (216 and 1,024 threadblocks per rank),
  // but a rank of an H100 SXM keeps 132 of their blocks resident, so neither may be offered.
  const QString file = m_dir.filePath("a2a200.xml");
  const Run wide = cstudio({"generate", "direct-alltoall", "--ranks", "200", "--dialect", "rccl",
                            "--gpu", "h100-sxm", "-o", file});
  QCOMPARE(wide.exitCode, 1);
  QVERIFY2(wide.err.contains("[lower.threadblocks]"), qPrintable(wide.err));
  QVERIFY2(!wide.err.contains("it fits --dialect"), qPrintable(wide.err));
  // 119 peers fit the H100's 132: both are offered.
  const Run narrow = cstudio({"generate", "direct-alltoall", "--ranks", "120", "--dialect", "rccl",
                              "--gpu", "h100-sxm", "-o", file});
  QCOMPARE(narrow.exitCode, 1);
  QVERIFY2(narrow.err.contains("(it fits --dialect classic or executor)"), qPrintable(narrow.err));
  QVERIFY(!QFile::exists(file));
}

void Test_generatecommand::refusesBeforeLoweringWhatNoGpuKeepsResident()
{
  // 159 peers each way: a B200, the NVIDIA GPU that keeps most of the executor's blocks, keeps
  // 148. No lowering can fit, so generate says so before lowering: the message is the design's
  // ("however the design is lowered"), not the check's of a lowered program, which would name a
  // rank's threadblocks and add the skipped semantic checks.
  const QString file = m_dir.filePath("a2a160.xml");
  const Run run = cstudio({"generate", "direct-alltoall", "--ranks", "160", "-o", file});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.contains("a rank needs at least 159 threadblocks however the design is lowered"),
           qPrintable(run.err));
  QVERIFY2(run.err.contains("even a B200") && run.err.contains("keeps at most 148"),
           qPrintable(run.err));
  QVERIFY2(run.err.contains("[limit.residency]"), qPrintable(run.err));
  QVERIFY2(!run.err.contains("threadblocks (") && !run.err.contains("check."), qPrintable(run.err));
  QVERIFY2(run.err.contains("direct-alltoall-160 does not fit the GPU for executor"),
           qPrintable(run.err));
  QVERIFY2(run.err.contains("all-to-all algorithms for 160 ranks: two-step-alltoall"),
           qPrintable(run.err));
  QVERIFY(!QFile::exists(file));
  // Two instances halve what each may use: 75 peers fit 148 but not 74 per instance.
  const Run halved =
      cstudio({"generate", "direct-alltoall", "--ranks", "76", "--instances", "2", "-o", file});
  QCOMPARE(halved.exitCode, 1);
  QVERIFY2(halved.err.contains("at least 75 threadblocks") &&
               halved.err.contains("74 for each of 2 instances"),
           qPrintable(halved.err));
  // Within the GPU it is lowered, checked and written as before.
  const Run fits = cstudio({"generate", "direct-alltoall", "--ranks", "76", "-o", file});
  QVERIFY2(fits.exitCode == 0, qPrintable(fits.err));
  QVERIFY(QFile::exists(file));
}

void Test_generatecommand::writesValidXml()
{
  QFETCH(QStringList, arguments);
  const QString file = m_dir.filePath(arguments.join('_') + ".xml");
  const Run run = cstudio(QStringList{"generate"} + arguments + QStringList{"-o", file});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QVERIFY(run.out.startsWith("wrote " + file));
  const QString dialect = arguments.contains("rccl") ? "rccl" : "executor";
  const Run validated = cstudio({"validate", "--dialect", dialect, file});
  QVERIFY2(validated.exitCode == 0, qPrintable(validated.out + validated.err));
}

void Test_generatecommand::writesDesignDocument()
{
  const QString file = m_dir.filePath("bruck.json");
  const Run run = cstudio({"generate", "bruck-alltoall", "--ranks", "6", "-o", file});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QFile saved(file);
  QVERIFY(saved.open(QIODevice::ReadOnly));
  const QByteArray text = saved.readAll();
  const DesignReadResult read =
      readDesignDocument(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
  QVERIFY(read.document);
  GeneratorOptions options;
  options.ranks = 6;
  QCOMPARE(read.document->schedule, *generateAlgorithm("bruck-alltoall", options).schedule);
  QVERIFY(checkSchedule(read.document->schedule).diagnostics.empty());
}

void Test_generatecommand::designDocumentOnATopology()
{
  const QString file = m_dir.filePath("hd.csdesign.json");
  Run run = cstudio({"generate", "halving-doubling-allreduce", "--ranks", "8", "--topology",
                     "fully-connected-8", "-o", file});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  QVERIFY(run.out.contains("on fully-connected-8"));
  const QByteArray text = readFile(file);
  const DesignReadResult read =
      readDesignDocument(std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
  QVERIFY(read.document);
  QVERIFY(read.document->topology);
  QCOMPARE(read.document->topology->rankCount(), 8);

  // A ring's GPUs do not forward halving-doubling's distance-4 exchange: refused, nothing written.
  const QString refused = m_dir.filePath("hd-ring.csdesign.json");
  run = cstudio({"generate", "halving-doubling-allreduce", "--ranks", "8", "--topology", "ring-8",
                 "-o", refused});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains("rank 0 → rank 4: no path") && run.err.contains("nothing written"),
           qPrintable(run.err));
  QVERIFY(!QFile::exists(refused));
  // XML has no topology; an unknown preset is named.
  run = cstudio(
      {"generate", "ring-allreduce", "--topology", "ring-4", "-o", m_dir.filePath("r.xml")});
  QCOMPARE(run.exitCode, 2);
  QVERIFY(run.err.contains("applies to design documents"));
  run = cstudio(
      {"generate", "ring-allreduce", "--topology", "nosuch", "-o", m_dir.filePath("r.json")});
  QCOMPARE(run.exitCode, 2);
  QVERIFY(run.err.contains("\"nosuch\""));
}

void Test_generatecommand::galleryExamplesCoverTheCatalogue()
{
#ifndef CSTUDIO_GALLERY_DIR
  QSKIP("this build writes no gallery examples (sanitizer and fuzzing builds)");
#else
  const QDir gallery(CSTUDIO_GALLERY_DIR);
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    const QString key = QString::fromUtf8(info.key.data(), static_cast<qsizetype>(info.key.size()));
    const QStringList files = gallery.entryList({key + "-*.csdesign.json"}, QDir::Files);
    QVERIFY2(files.size() == 1, qPrintable(key + ": " + files.join(", ")));
    const QByteArray text = readFile(gallery.filePath(files.front()));
    const DesignReadResult read = readDesignDocument(
        std::string_view(text.constData(), static_cast<std::size_t>(text.size())));
    QVERIFY2(read.document, qPrintable(files.front()));
    QVERIFY2(read.document->topology, qPrintable(files.front()));
    QCOMPARE(read.document->topology->rankCount(), read.document->schedule.ranks);
    QCOMPARE(read.document->schedule.collective, info.collective);
    Diagnostics fit;
    checkTopologyFit(*read.document->topology, read.document->schedule.ranks,
                     scheduleExchanges(read.document->schedule), fit);
    QVERIFY2(!fit.hasErrors(), qPrintable(files.front()));
  }
  QCOMPARE(gallery.entryList(QDir::Files).size(),
           static_cast<qsizetype>(algorithmCatalog().size()));
#endif
}

QTEST_GUILESS_MAIN(Test_generatecommand)
#include "tst_generatecommand.moc"
