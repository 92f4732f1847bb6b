// The algorithm checked against its topology (check/topologyfit.h, issue 17's gap): a transfer
// between ranks with no route is an error at that transfer, a rank on no GPU and a route through
// a link without bandwidth are errors, GPUs left idle a warning; the Analysis lists them at their
// transfers, and without a topology it says none was checked. `cstudio validate --topology` runs
// the same check on XML.

#include "analysis/analysis.h"
#include "catalogue/catalogue.h"
#include "check/topologyfit.h"
#include "model/topologypresets.h"

#include "support/cli.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace cs;

namespace {

Schedule ring(int ranks)
{
  return generateAlgorithm("ring-allreduce", {.ranks = ranks}).schedule.value_or(Schedule{});
}

/// ring-4 with only the GPU0-GPU1 link left: GPUs 2 and 3 are drawn but unconnected.
Topology onlyTheFirstLinkOfRing4()
{
  Topology topology = *makePresetTopology("ring-4");
  topology.links.resize(1);
  return topology;
}

std::vector<Diagnostic> fit(const Topology& topology, const Schedule& schedule)
{
  Diagnostics found;
  checkTopologyFit(topology, schedule.ranks, scheduleExchanges(schedule), found);
  return found.take();
}

std::set<std::pair<int, int>> pairsWith(const std::vector<Diagnostic>& found,
                                        const Schedule& schedule, const char* code)
{
  std::set<std::pair<int, int>> pairs;
  for (const Diagnostic& d : found) {
    if (d.code == code)
      pairs.insert({schedule.transfer(d.location.transfer)->src.rank,
                    schedule.transfer(d.location.transfer)->dst.rank});
  }
  return pairs;
}

} // namespace

class TestTopologyFit : public QObject
{
  Q_OBJECT

private slots:
  void aTransferWithoutRouteIsAnErrorAtIt()
  {
    const Schedule schedule = ring(4);
    const std::vector<Diagnostic> found = fit(onlyTheFirstLinkOfRing4(), schedule);
    // Ring 0→1→2→3→0: only 0→1 has a path.
    QCOMPARE(pairsWith(found, schedule, "topology.no-route"),
             (std::set<std::pair<int, int>>{{1, 2}, {2, 3}, {3, 0}}));
    std::size_t remote = 0;
    for (const Transfer& transfer : schedule.transfers)
      remote += transfer.isLocal() || transfer.src.rank == 0 ? 0 : 1;
    QCOMPARE(found.size(), remote); // one error per transfer that cannot happen
    const auto at23 = std::find_if(found.begin(), found.end(), [&](const Diagnostic& d) {
      return schedule.transfer(d.location.transfer)->src.rank == 2;
    });
    QVERIFY(at23 != found.end());
    QVERIFY2(QString::fromStdString(at23->message)
                 .startsWith(QString::fromUtf8("rank 2 \u2192 rank 3: no path in the topology")),
             at23->message.c_str());
    QCOMPARE(at23->severity, Severity::Error);
  }

  void theWholeRingFitsTheWholeRing()
  {
    QVERIFY(fit(*makePresetTopology("ring-4"), ring(4)).empty());
    QVERIFY(fit(*makePresetTopology("dgx-h100"), ring(8)).empty());
  }

  void ranksWithoutGpusAndIdleGpus()
  {
    const std::vector<Diagnostic> tooSmall = fit(*makePresetTopology("ring-2"), ring(4));
    std::set<int> unmapped;
    for (const Diagnostic& d : tooSmall) {
      if (d.code == "topology.rank-unmapped")
        unmapped.insert(d.location.rank);
    }
    QCOMPARE(unmapped, (std::set<int>{2, 3}));
    const std::vector<Diagnostic> tooBig = fit(*makePresetTopology("dgx-h100"), ring(4));
    QCOMPARE(tooBig.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(tooBig[0].code), "topology.idle-gpus");
    QCOMPARE(tooBig[0].severity, Severity::Warning);
    QVERIFY2(tooBig[0].message.find("ranks 4-7") != std::string::npos, tooBig[0].message.c_str());
  }

  void aLinkWithoutBandwidthStopsTheRoute()
  {
    Topology topology = *makePresetTopology("ring-4");
    topology.links[2].bandwidthGBps = 0; // GPU2 - GPU3
    const Schedule schedule = ring(4);
    const std::vector<Diagnostic> found = fit(topology, schedule);
    QCOMPARE(pairsWith(found, schedule, "topology.zero-bandwidth"),
             (std::set<std::pair<int, int>>{{2, 3}}));
    QVERIFY(found.front().message.find("link 2 (GPU2 \u2013 GPU3)") != std::string::npos);
  }

  void aLinkWithoutBandwidthIsWhereTheProblemIs()
  {
    Topology topology = *makePresetTopology("ring-4");
    topology.links[2].bandwidthGBps = 0;
    const int zeroLink = topology.links[2].id;
    const Schedule schedule = ring(4);
    int atTheLink = 0;
    for (const Diagnostic& d : fit(topology, schedule)) {
      if (d.code != "topology.zero-bandwidth")
        continue;
      ++atTheLink;
      QCOMPARE(d.location.link, zeroLink);
      QVERIFY(d.location.transfer >= 0); // the transfer keeps its badge
      QVERIFY2(describe(d.location).find("link " + std::to_string(zeroLink)) != std::string::npos,
               describe(d.location).c_str());
      // The transfer that needs the link follows as a related place, without the link.
      QCOMPARE(d.related.size(), std::size_t(1));
      QCOMPARE(d.related.front().transfer, d.location.transfer);
      QCOMPARE(d.related.front().link, -1);
    }
    QVERIFY(atTheLink > 0);
    // Problems about a route that does not exist have no link to point at.
    for (const Diagnostic& d : fit(onlyTheFirstLinkOfRing4(), schedule))
      QCOMPARE(d.location.link, -1);
  }

  void theAnalysisPutsThemAtTheirTransfers()
  {
    const Schedule schedule = ring(4);
    Analysis analysis = analyseSchedule(schedule, {});
    QCOMPARE(analysis.errors, 0);
    const Topology topology = onlyTheFirstLinkOfRing4();
    addTopologyProblems(analysis, &topology, false);
    QVERIFY(analysis.errors > 0);
    const Problem& first = analysis.problems.front();
    QCOMPARE(QString::fromStdString(first.diagnostic.code), "topology.no-route");
    QVERIFY(first.transferId >= 0);
    QVERIFY(analysis.problemsByTransfer.contains(first.transferId));

    Analysis without = analyseSchedule(schedule, {});
    addTopologyProblems(without, nullptr, false);
    QCOMPARE(without.errors, 0);
    QCOMPARE(QString::fromStdString(without.problems.back().diagnostic.code), "topology.none");
    QCOMPARE(without.problems.back().diagnostic.severity, Severity::Info);
  }

  void validateTakesATopology()
  {
    QTemporaryDir dir;
    const QString xml = dir.filePath("ring4.xml");
    QCOMPARE(cs::test::cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", xml}).exitCode,
             0);
    QCOMPARE(cs::test::cstudio({"validate", xml, "--topology", "ring-4"}).exitCode, 0);
    const cs::test::CliRun small = cs::test::cstudio({"validate", xml, "--topology", "ring-2"});
    QCOMPARE(small.exitCode, 1);
    QVERIFY2(small.out.contains("rank 2 is on no GPU of topology \"ring-2\""),
             qPrintable(small.out));
    const cs::test::CliRun missing =
        cs::test::cstudio({"validate", xml, "--topology", dir.filePath("absent.json")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("absent.json"), qPrintable(missing.err));
  }

  void validateJsonNamesTheLink()
  {
    // A design document whose topology has a link without bandwidth: the JSON diagnostic says
    // which link (null for diagnostics about no link).
    QTemporaryDir dir;
    const QString design = dir.filePath("ring4.json");
    QCOMPARE(
        cs::test::cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", design}).exitCode,
        0);
    const cs::test::CliRun shown = cs::test::cstudio({"topology", "show", "ring-4", "--json"});
    QCOMPARE(shown.exitCode, 0);
    QJsonObject topology = QJsonDocument::fromJson(shown.out.toUtf8()).object();
    QJsonArray links = topology["links"].toArray();
    QVERIFY(links.size() > 2);
    QJsonObject zero = links[2].toObject();
    zero["bandwidth_GBps"] = 0;
    links[2] = zero;
    topology["links"] = links;
    QFile file(design);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject document = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    document["topology"] = topology;
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(document).toJson());
    file.close();

    const cs::test::CliRun run = cs::test::cstudio({"validate", "--json", design});
    QCOMPARE(run.exitCode, 2); // the document cannot be read: its topology is invalid
    const QJsonArray diagnostics =
        QJsonDocument::fromJson(run.out.toUtf8()).object()["diagnostics"].toArray();
    int withTheLink = 0;
    for (const QJsonValue& diagnostic : diagnostics) {
      const QJsonObject location = diagnostic.toObject(); // the place's fields are the object's
      QVERIFY2(location.contains("link"), qPrintable(run.out));
      if (location["link"].toInt(-1) == zero["id"].toInt())
        ++withTheLink;
    }
    QVERIFY2(withTheLink > 0, qPrintable(run.out));
  }
};

QTEST_GUILESS_MAIN(TestTopologyFit)
#include "tst_topologyfit.moc"
