// The design document: write → read gives back the same document, and every kind of bad input
// gives its design.* code with the JSON path in the message.

#include "compile/schedules.h"
#include "support/corpus.h"

#include "io/designdocument.h"

#include <QTest>

using namespace cs;

namespace {

DesignDocument sampleDocument()
{
  DesignDocument d;
  d.schedule = test::scratchAllReduceSchedule(3);
  d.schedule.transfers[1].pins.channel = 2;
  d.schedule.transfers[1].pins.threadblock = 1;
  d.schedule.transfers[2].pins.route = {4, 7};
  d.schedule.root = 0;
  d.notes = "reduce through rank 0's scratch — notes keep UTF-8";
  return d;
}

Topology sampleTopology()
{
  Topology t;
  t.name = "two gpus";
  t.nodes.push_back({0, NodeKind::Gpu, "GPU0", 0, 0, 0});
  t.nodes.push_back({1, NodeKind::Gpu, "GPU1", 1, 100, 0});
  TopologyLink link;
  link.id = 0;
  link.a = 0;
  link.b = 1;
  link.bandwidthGBps = 450;
  link.latencyUs = 0.5;
  t.links.push_back(link);
  return t;
}

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
  const auto at = text.find(from);
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

} // namespace

class Test_designdocument : public QObject
{
  Q_OBJECT

private slots:
  void roundTrip();
  void roundTripWithTopology();
  void errors_data();
  void errors();
};

void Test_designdocument::roundTrip()
{
  const DesignDocument original = sampleDocument();
  const std::string text = writeDesignDocument(original);
  QVERIFY(text.find("\"format\": \"collective-studio-design\"") != std::string::npos);
  QVERIFY(text.find("\"collective\": \"allreduce\"") != std::string::npos);
  QVERIFY(text.find("\"buffer\": \"s\"") != std::string::npos);
  const DesignReadResult read = readDesignDocument(text);
  QVERIFY2(read.document, qPrintable(test::describeDiagnostics(read.diagnostics)));
  QVERIFY(read.diagnostics.empty());
  QVERIFY(*read.document == original);
  QCOMPARE(writeDesignDocument(*read.document), text);
}

void Test_designdocument::roundTripWithTopology()
{
  DesignDocument original = sampleDocument();
  original.topology = sampleTopology();
  const DesignReadResult read = readDesignDocument(writeDesignDocument(original));
  QVERIFY2(read.document, qPrintable(test::describeDiagnostics(read.diagnostics)));
  QVERIFY(read.document->topology);
  QVERIFY(*read.document == original);
}

void Test_designdocument::errors_data()
{
  QTest::addColumn<QString>("from");
  QTest::addColumn<QString>("to");
  QTest::addColumn<QString>("code");
  QTest::addColumn<QString>("path");
  QTest::newRow("newer version") << "\"version\": 1"
                                 << "\"version\": 7"
                                 << "design.version"
                                 << "7";
  QTest::newRow("wrong format") << "collective-studio-design"
                                << "something-else"
                                << "design.format"
                                << "format";
  QTest::newRow("missing field") << "\"count\": 1,"
                                 << ""
                                 << "design.missing-field"
                                 << "transfers[0].count";
  QTest::newRow("wrong type") << "\"rank\": 1"
                              << "\"rank\": \"one\""
                              << "design.wrong-type"
                              << "transfers[1].src.rank";
  QTest::newRow("bad buffer") << "\"buffer\": \"s\""
                              << "\"buffer\": \"x\""
                              << "design.value"
                              << ".buffer";
  QTest::newRow("bad op") << "\"op\": \"reduce\""
                          << "\"op\": \"sum\""
                          << "design.value"
                          << ".op";
  QTest::newRow("bad collective") << "\"allreduce\""
                                  << "\"allsum\""
                                  << "design.value"
                                  << "schedule.collective";
  QTest::newRow("malformed") << "\"ranks\": 3,"
                             << "\"ranks\": 3"
                             << "design.malformed"
                             << "JSON";
  QTest::newRow("empty") << "*"
                         << ""
                         << "design.malformed"
                         << "empty";
  QTest::newRow("not an object") << "*"
                                 << "[1, 2]"
                                 << "design.malformed"
                                 << "object";
}

void Test_designdocument::errors()
{
  QFETCH(QString, from);
  QFETCH(QString, to);
  QFETCH(QString, code);
  QFETCH(QString, path);
  const std::string text = from == "*" ? to.toStdString()
                                       : replaced(writeDesignDocument(sampleDocument()),
                                                  from.toStdString(), to.toStdString());
  const DesignReadResult read = readDesignDocument(text);
  QVERIFY(!read.document);
  QVERIFY2(test::hasCode(read.diagnostics, qPrintable(code), Severity::Error),
           qPrintable(test::describeDiagnostics(read.diagnostics)));
  bool named = false;
  for (const Diagnostic& d : read.diagnostics)
    named = named || QString::fromStdString(d.message).contains(path);
  QVERIFY2(named, qPrintable(test::describeDiagnostics(read.diagnostics)));
}

QTEST_GUILESS_MAIN(Test_designdocument)
#include "tst_designdocument.moc"
