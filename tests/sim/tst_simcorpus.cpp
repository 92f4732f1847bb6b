// Every corpus algorithm simulates, and the Chrome trace of a run is valid and complete.

#include "simtestutil.h"
#include "support/corpus.h"

#include "catalogue/ringallreduce.h"
#include "io/chrometrace.h"
#include "io/mscclxmlreader.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <nlohmann/json.hpp>

#include <QFileInfo>
#include <QTest>

#include <map>
#include <set>

using namespace cs;

class TestSimCorpus : public QObject
{
  Q_OBJECT

private slots:
  void corpusSimulates_data()
  {
    QTest::addColumn<QString>("path");
    CS_REQUIRE_CORPUS();
    for (const QString& path : test::corpusFiles())
      QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
  }

  void corpusSimulates()
  {
    QFETCH(QString, path);
    const ReadResult read = readMscclXmlFile(path.toStdString());
    QVERIFY(read.program);
    const Program& program = *read.program;
    const Topology topology =
        *makePresetTopology("fully-connected-" + std::to_string(program.ngpus));
    SimOptions options;
    // Several slices per chunk for every protocol, and a size every chunk count divides.
    options.bytes = std::int64_t{program.nchunksperloop} * 96 * 1024;
    options.fifoSlots = 2;
    const SimResult result = simulateProgram(program, topology, options);
    QVERIFY2(result.ok, qPrintable(test::describeDiagnostics(result.diagnostics)));
    QVERIFY(result.timeUs > 0);
    // Every step ran once per slice.
    QCOMPARE(static_cast<int>(result.trace.events.size()), program.stepCount() * result.slices);
    // Bytes conservation: what left the senders arrived (one link per hop on this topology).
    std::int64_t sent = 0;
    for (const TraceEvent& event : result.trace.events) {
      if (opTraits(event.op).sends)
        sent += event.bytes;
    }
    std::int64_t carried = 0;
    for (const LinkUsage& usage : result.trace.links)
      carried += usage.bytesAtoB + usage.bytesBtoA;
    QCOMPARE(carried, sent);
  }

  void chromeTraceIsComplete()
  {
    SimOptions options;
    options.protocol = ProtocolParams{1.0, 1.0, 256 << 10, {}, {}};
    const Topology topology = *makePresetTopology("dgx-h100");
    const Program onEight = makeRingAllReduce({8, 1, Protocol::Simple});
    options.bytes = 6 << 20; // 768 KiB chunks: three 256 KiB slices
    const SimResult result = simulateProgram(onEight, topology, options);
    QVERIFY(result.ok);
    QCOMPARE(result.slices, 3);
    const std::string text = writeChromeTrace(result.trace, &topology);
    const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
    QVERIFY(!root.is_discarded());
    QVERIFY(root.at("traceEvents").is_array());

    int complete = 0;
    int counters = 0;
    std::map<long, std::pair<const nlohmann::json*, const nlohmann::json*>> flows;
    std::set<int> namedRanks;
    for (const nlohmann::json& event : root.at("traceEvents")) {
      const std::string phase = event.at("ph");
      if (phase == "X") {
        ++complete;
        QVERIFY(event.at("dur").get<double>() >= 0);
        QVERIFY(event.at("pid").get<int>() < 8);
      } else if (phase == "s") {
        flows[event.at("id").get<long>()].first = &event;
      } else if (phase == "f") {
        flows[event.at("id").get<long>()].second = &event;
      } else if (phase == "C") {
        ++counters;
        QCOMPARE(event.at("pid").get<int>(), 8);
        const double value = event.at("args").at("utilisation");
        QVERIFY(value >= 0 && value <= 1);
      } else if (phase == "M" && event.at("name") == "process_name") {
        namedRanks.insert(event.at("pid").get<int>());
      }
    }
    QCOMPARE(complete, static_cast<int>(result.trace.events.size()));
    // One message per send-type step: 2(N-1) per rank and slice.
    QCOMPARE(static_cast<int>(flows.size()), 8 * 14 * 3);
    for (const auto& [id, ends] : flows) {
      QVERIFY(ends.first && ends.second);
      // The arrow goes to the peer and never back in time.
      QCOMPARE(ends.second->at("pid").get<int>(), (ends.first->at("pid").get<int>() + 1) % 8);
      QVERIFY(ends.second->at("ts").get<double>() >= ends.first->at("ts").get<double>());
    }
    QVERIFY(counters > 0);
    QCOMPARE(namedRanks, std::set<int>({0, 1, 2, 3, 4, 5, 6, 7, 8}));
    QCOMPARE(root.at("otherData").at("bytes").get<std::int64_t>(), std::int64_t(6 << 20));
  }
};

QTEST_GUILESS_MAIN(TestSimCorpus)
#include "tst_simcorpus.moc"
