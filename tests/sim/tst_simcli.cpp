// cstudio topology and cstudio simulate as a user or a CI pipeline runs them: the preset list,
// JSON / DOT output that reads back, imports, the simulated ring all-reduce against its closed
// form, design documents as input and the exit codes of bad input.

#include "support/cli.h"

#include "io/topologyjson.h"
#include "model/topologypresets.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace cs;

using cs::test::cstudio;
using cs::test::readFile;
using cs::test::writeFile;
using Run = cs::test::CliRun;

namespace {

QString dataFile(const char* name)
{
  return QStringLiteral(CSTUDIO_TEST_DATA_DIR "/sim/data/") + QLatin1String(name);
}

/// Parses `text` as JSON; a discarded value (is_discarded()) when it is not JSON.
nlohmann::json parse(const QString& text)
{
  return nlohmann::json::parse(text.toStdString(), nullptr, false);
}

/// Simulator switches that make the alpha-beta closed form exact: protocol efficiency 1, no
/// protocol latency, one slice per chunk (no pipelining effect).
QStringList pureModel()
{
  return {"--efficiency", "1", "--proto-latency", "0", "--slice", "0"};
}

} // namespace

class Test_simcli : public QObject
{
  Q_OBJECT

private slots:
  void listNamesEveryPreset();
  void showJsonReadsBack();
  void dotNamesEveryNode();
  void import_data();
  void import();
  void ringAllReduceMatchesClosedForm();
  void designDocument();
  void designDocumentEmbeddedTopology();
  void exitCodes_data();
  void exitCodes();

private:
  /// Generates the ring all-reduce on `ranks` as `name` (.xml or .json) in the temporary dir.
  QString generateRing(int ranks, const QString& name);

  QTemporaryDir m_dir;
};

QString Test_simcli::generateRing(int ranks, const QString& name)
{
  const QString path = m_dir.filePath(name);
  const Run run =
      cstudio({"generate", "ring-allreduce", "--ranks", QString::number(ranks), "-o", path});
  if (run.exitCode != 0)
    qWarning("%s", qPrintable(run.err));
  return path;
}

void Test_simcli::listNamesEveryPreset()
{
  const Run run = cstudio({"topology", "--list"});
  QCOMPARE(run.exitCode, 0);
  const std::vector<PresetInfo> presets = topologyPresets();
  QVERIFY(presets.size() >= 8); // the five machines and ring-N, fully-connected-N, torus-RxC
  for (const PresetInfo& preset : presets)
    QVERIFY2(run.out.contains(QString::fromStdString(preset.name)), preset.name.c_str());
}

void Test_simcli::showJsonReadsBack()
{
  const Run run = cstudio({"topology", "show", "dgx-h100", "--json"});
  QCOMPARE(run.exitCode, 0);
  const TopologyReadResult read = readTopologyJson(run.out.toStdString());
  QVERIFY(read.topology);
  QCOMPARE(read.topology->rankCount(), 8);
  QCOMPARE(*read.topology, *makePresetTopology("dgx-h100"));
}

void Test_simcli::dotNamesEveryNode()
{
  for (const char* name : {"dgx-h100", "pcie-8gpu", "ring-4"}) {
    const Run run = cstudio({"topology", "show", name, "--dot"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith("graph") || run.out.startsWith("digraph"), name);
    QVERIFY(run.out.trimmed().endsWith('}'));
    const std::optional<Topology> topology = makePresetTopology(name);
    QVERIFY(topology);
    for (const TopologyNode& node : topology->nodes)
      QVERIFY2(run.out.contains(QString::fromStdString(node.name)), node.name.c_str());
  }
}

void Test_simcli::import_data()
{
  QTest::addColumn<QString>("file");
  QTest::addColumn<int>("gpus");
  // The counts are those of the sample files: <gpu> elements, GPU rows of the matrix.
  QTest::newRow("nccl-a100") << dataFile("nccl-topo-a100-nvswitch.xml") << 4;
  QTest::newRow("nccl-v100") << dataFile("nccl-topo-v100-direct.xml") << 3;
  QTest::newRow("smi-dgx1") << dataFile("nvidia-smi-dgx1.txt") << 8;
  QTest::newRow("smi-h100") << dataFile("nvidia-smi-h100-nvswitch.txt") << 8;
}

void Test_simcli::import()
{
  QFETCH(QString, file);
  QFETCH(int, gpus);
  const QString out = m_dir.filePath(QFileInfo(file).baseName() + ".json");
  const Run run = cstudio({"topology", "import", file, "-o", out});
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const TopologyReadResult read = readTopologyJson(readFile(out).toStdString());
  QVERIFY(read.topology);
  QCOMPARE(read.topology->rankCount(), gpus);
}

// Ring all-reduce on ring-N in one slice: every rank starts at once and forwards each piece as it
// arrives, so with α shorter than a piece's time on the wire every link is busy from the start
// and the last piece adds one α: time = 2(N-1)·S/(Nβ) + α (docs/simulator.md). nccl-tests'
// definitions then give algbw = S/time and busbw = algbw·2(N-1)/N.
void Test_simcli::ringAllReduceMatchesClosedForm()
{
  const int n = 4;
  const QString xml = generateRing(n, "ring.xml");
  const double bytes = 4 << 20;
  const double alphaUs = 3;
  const double betaGBps = 50;
  const Run run = cstudio(QStringList{"simulate", xml, "--topology", "ring-4", "--bytes", "4M",
                                      "--bandwidth", "50", "--latency", "3", "--json"} +
                          pureModel());
  QVERIFY2(run.exitCode == 0, qPrintable(run.err));
  const nlohmann::json result = parse(run.out);
  QVERIFY(!result.is_discarded());
  const double expected = 2 * (n - 1) * bytes / (n * betaGBps * 1e3) + alphaUs;
  const double time = result.at("time_us").get<double>();
  QVERIFY2(std::abs(time - expected) <= 0.01 * expected,
           qPrintable(QString("%1 us, closed form %2 us").arg(time).arg(expected)));
  QCOMPARE(result.at("bytes").get<double>(), bytes);
  const double algbw = result.at("algbw_GBps").get<double>();
  QVERIFY(std::abs(algbw - bytes / (time * 1e3)) <= 1e-9 * algbw);
  QVERIFY(std::abs(result.at("busbw_GBps").get<double>() - algbw * 2 * (n - 1) / n) <=
          1e-9 * algbw);
  QVERIFY(result.at("diagnostics").empty());
}

// A design document simulates like the XML it lowers to.
void Test_simcli::designDocument()
{
  const QString xml = generateRing(4, "ring4.xml");
  const QString json = generateRing(4, "ring4.json");
  const QStringList common =
      QStringList{"--topology", "ring-4", "--bytes", "1M", "--json"} + pureModel();
  const Run fromXml = cstudio(QStringList{"simulate", xml} + common);
  const Run fromJson = cstudio(QStringList{"simulate", json} + common);
  QVERIFY2(fromXml.exitCode == 0, qPrintable(fromXml.err));
  QVERIFY2(fromJson.exitCode == 0, qPrintable(fromJson.err));
  QCOMPARE(parse(fromJson.out).at("time_us").get<double>(),
           parse(fromXml.out).at("time_us").get<double>());

  // --proto and --instances reach the lowering, and through it the simulation: LL halves the
  // link bandwidth by default (a lower efficiency, a longer time), and a second instance splits
  // every chunk over twice the messages (another time again).
  const auto simulate = [&](const QStringList& lowering) {
    const Run run =
        cstudio(QStringList{"simulate", json, "--topology", "ring-4", "--bytes", "1M", "--json"} +
                lowering);
    return run.exitCode == 0 ? parse(run.out) : nlohmann::json();
  };
  const nlohmann::json simple = simulate({"--proto", "Simple"});
  const nlohmann::json ll = simulate({"--proto", "LL"});
  const nlohmann::json llTwice = simulate({"--proto", "LL", "--instances", "2"});
  QVERIFY(simple.is_object() && ll.is_object() && llTwice.is_object());
  QCOMPARE(ll.at("protocol").at("name").get<std::string>(), std::string("LL"));
  QCOMPARE(simple.at("protocol").at("name").get<std::string>(), std::string("Simple"));
  QVERIFY(ll.at("protocol").at("efficiency").get<double>() <
          simple.at("protocol").at("efficiency").get<double>());
  const double simpleUs = simple.at("time_us").get<double>();
  const double llUs = ll.at("time_us").get<double>();
  const double llTwiceUs = llTwice.at("time_us").get<double>();
  QVERIFY2(llUs > simpleUs, qPrintable(QString("LL %1 us, Simple %2 us").arg(llUs).arg(simpleUs)));
  QVERIFY2(std::abs(llTwiceUs - llUs) > 1e-6 * llUs,
           qPrintable(QString("LL: %1 us with 1 instance, %2 with 2").arg(llUs).arg(llTwiceUs)));
}

// Without --topology, the topology the document embeds is used; --topology overrides it.
void Test_simcli::designDocumentEmbeddedTopology()
{
  const QString plain = generateRing(4, "embed.json");
  nlohmann::json document = nlohmann::json::parse(readFile(plain).toStdString());
  const Run shown =
      cstudio({"topology", "show", "ring-4", "--json", "--bandwidth", "25", "--latency", "1"});
  QCOMPARE(shown.exitCode, 0);
  document["topology"] = parse(shown.out);
  QVERIFY(writeFile(plain, QByteArray::fromStdString(document.dump(2))));

  const Run embedded =
      cstudio(QStringList{"simulate", plain, "--bytes", "1M", "--json"} + pureModel());
  QVERIFY2(embedded.exitCode == 0, qPrintable(embedded.err));
  const double expected = 2 * 3 * (1 << 20) / (4 * 25 * 1e3) + 1; // as in the test above
  const double time = parse(embedded.out).at("time_us").get<double>();
  QVERIFY2(std::abs(time - expected) <= 0.01 * expected, qPrintable(QString::number(time)));

  const Run overridden =
      cstudio(QStringList{"simulate", plain, "--topology", "ring-4", "--bytes", "16M", "--json"} +
              pureModel());
  QCOMPARE(overridden.exitCode, 0);
  const double defaults = 2 * 3 * (16 << 20) / (4 * 100 * 1e3) + 2;
  QVERIFY(std::abs(parse(overridden.out).at("time_us").get<double>() - defaults) <=
          0.01 * defaults);

  // A document with no topology and no --topology is a usage error.
  const QString bare = generateRing(4, "bare.json");
  QCOMPARE(cstudio({"simulate", bare, "--bytes", "1M"}).exitCode, 2);
}

void Test_simcli::exitCodes_data()
{
  QTest::addColumn<QStringList>("arguments");
  QTest::addColumn<int>("exitCode");
  QTest::newRow("unknown topology")
      << QStringList{"simulate", "@ring", "--topology", "nope-7"} << 2;
  QTest::newRow("unreadable xml") << QStringList{"simulate", "/nonexistent/x.xml", "--topology",
                                                 "ring-4"}
                                  << 2;
  QTest::newRow("unreadable design")
      << QStringList{"simulate", "/nonexistent/x.json", "--topology", "ring-4"} << 2;
  QTest::newRow("bad size") << QStringList{"simulate", "@ring",   "--topology",
                                           "ring-4",   "--bytes", "12Q"}
                            << 2;
  QTest::newRow("bad sweep") << QStringList{"simulate", "@ring",   "--topology",
                                            "ring-4",   "--sweep", "1M"}
                             << 2;
  QTest::newRow("unknown preset shown") << QStringList{"topology", "show", "nope-7"} << 2;
  QTest::newRow("import unreadable")
      << QStringList{"topology", "import", "/nonexistent/topo.txt", "-o", "/dev/null"} << 2;
}

void Test_simcli::exitCodes()
{
  QFETCH(QStringList, arguments);
  QFETCH(int, exitCode);
  const QString ring = generateRing(4, "codes.xml");
  arguments.replaceInStrings("@ring", ring);
  const Run run = cstudio(arguments);
  QVERIFY2(run.exitCode == exitCode, qPrintable(run.err + run.out));
  QVERIFY(!run.err.isEmpty()); // says why
}

QTEST_GUILESS_MAIN(Test_simcli)
#include "tst_simcli.moc"
