// Reading Chrome traces back: what writeChromeTrace writes reads back equal (events, run facts,
// link byte counters and utilisation samples), and a file that is not a trace of ours (not JSON,
// truncated, negative or NaN times, unknown instructions, absurd ranks) is refused with a message
// that names the event, never half-loaded. Every input goes through each tokenizer this build
// has (RapidJSON's and nlohmann's, tracetokenizers_p.h): they must give the same trace and the
// same message.

#include "catalogue/ringallreduce.h"
#include "io/chrometrace.h"
#include "io/chrometracereader.h"
#include "io/tracetokenizers_p.h"
#include "model/topologypresets.h"
#include "sim/simulator.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace cs;
using tracejson::Tokenizer;

namespace {

Trace simulatedRing(int ranks, const char* preset)
{
  const Program program = makeRingAllReduce({ranks, 1, Protocol::Simple});
  SimOptions options;
  options.bytes = 1 << 20;
  return simulateProgram(program, *makePresetTopology(preset), options).trace;
}

/// Equal up to the last bit of `end`, which the file keeps as a duration.
bool sameEvent(const TraceEvent& a, const TraceEvent& b)
{
  TraceEvent withEnd = b;
  withEnd.end = a.end;
  return a == withEnd && std::abs(a.end - b.end) <= 1e-9 * std::max(1.0, std::abs(a.end));
}

QString tokenizerName(Tokenizer tokenizer)
{
  return tokenizer == Tokenizer::RapidJson ? "RapidJSON" : "nlohmann";
}

QString messageOf(const TraceReadResult& result)
{
  return result.diagnostics.empty() ? QString()
                                    : QString::fromStdString(result.diagnostics.front().message);
}

} // namespace

class TestTraceReader : public QObject
{
  Q_OBJECT

private slots:
  void aWrittenTraceReadsBackEqual_data()
  {
    QTest::addColumn<int>("ranks");
    QTest::addColumn<QString>("preset");
    QTest::newRow("ring-4 on ring-4") << 4 << "ring-4";
    QTest::newRow("ring-8 through a switch") << 8 << "dgx-h100";
  }

  void aWrittenTraceReadsBackEqual()
  {
    QFETCH(int, ranks);
    QFETCH(QString, preset);
    const Trace written = simulatedRing(ranks, preset.toUtf8().constData());
    QVERIFY(!written.events.empty());
    QVERIFY(!written.links.empty());
    const TraceReadResult read = readChromeTrace(writeChromeTrace(written));
    QVERIFY2(read.trace, qPrintable(messageOf(read)));
    const Trace& back = *read.trace;
    QCOMPARE(back.source, written.source);
    QCOMPARE(back.device, written.device);
    QCOMPARE(back.ranks, written.ranks);
    QCOMPARE(back.bytes, written.bytes);
    QCOMPARE(back.totalUs, written.totalUs);
    QCOMPARE(back.events.size(), written.events.size());
    for (std::size_t i = 0; i < written.events.size(); ++i)
      QVERIFY2(sameEvent(back.events[i], written.events[i]), qPrintable(QString::number(i)));
    QCOMPARE(back.links.size(), written.links.size());
    for (std::size_t i = 0; i < written.links.size(); ++i)
      QVERIFY(back.links[i] == written.links[i]);
  }

  void aStoppedRunReadsBackItsStopAndBlockedPositions_data()
  {
    QTest::addColumn<bool>("withEvents");
    QTest::newRow("events before the stop") << true;
    QTest::newRow("stopped before any event") << false;
  }

  void aStoppedRunReadsBackItsStopAndBlockedPositions()
  {
    QFETCH(bool, withEvents);
    Trace written = simulatedRing(4, "ring-4");
    if (!withEvents)
      written.events.clear();
    written.connectionSlots = 1;
    written.mode = CallMode::OutOfPlace;
    written.stoppedUs = written.totalUs + 1000.5;
    written.blocked.push_back({0, 0, 1, 0, BlockedOn::Room, 1, 0, -1, -1});
    written.blocked.push_back({2, 1, 3, 2, BlockedOn::Message, 1, 1, -1, -1});
    written.blocked.push_back({3, 0, 2, 1, BlockedOn::Flag, -1, 0, 1, 4});
    const TraceReadResult read = readChromeTrace(writeChromeTrace(written));
    QVERIFY2(read.trace, qPrintable(messageOf(read)));
    QCOMPARE(read.trace->connectionSlots, std::optional<int>(1));
    QCOMPARE(read.trace->mode, std::optional<CallMode>(CallMode::OutOfPlace));
    QCOMPARE(read.trace->stoppedUs, written.stoppedUs);
    QCOMPARE(read.trace->blocked.size(), written.blocked.size());
    for (std::size_t i = 0; i < written.blocked.size(); ++i)
      QVERIFY2(read.trace->blocked[i] == written.blocked[i], qPrintable(QString::number(i)));
    QCOMPARE(read.trace->events.size(), written.events.size());

    // A run that ended has neither.
    const TraceReadResult ended = readChromeTrace(writeChromeTrace(simulatedRing(4, "ring-4")));
    QVERIFY(ended.trace);
    QVERIFY(!ended.trace->stoppedUs);
    QVERIFY(ended.trace->blocked.empty());
    QVERIFY(!ended.trace->mode); // simulated: no call recorded
  }

  void badInputIsRefusedWithWhereAndWhat_data()
  {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("expected");
    const QByteArray head = R"({"traceEvents": [)";
    QTest::newRow("not JSON") << QByteArray("<algo>") << "trace.malformed"
                              << "not JSON";
    QTest::newRow("truncated") << QByteArray(R"({"traceEvents": [{"ph": "X", "pid": 0,)")
                               << "trace.malformed"
                               << "truncated";
    QTest::newRow("no events list") << QByteArray(R"({"events": []})") << "trace.malformed"
                                    << "traceEvents";
    QTest::newRow("events not a list")
        << QByteArray(R"({"traceEvents": {"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1,
                       "dur": 1, "args": {"step": 0}}})")
        << "trace.malformed"
        << "traceEvents";
    QTest::newRow("an error after a good event")
        << head + R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": 1,
                     "args": {"step": 0}}, 7, {"ph": "X", "name": "r", "pid": 0, "tid": 0,
                     "ts": 1, "dur": -1, "args": {"step": 1}}]})"
        << "trace.invalid"
        << "traceEvents[2]: \"dur\" is -1";
    QTest::newRow("no step events") << head + R"({"ph": "M", "pid": 0, "name": "x"}]})"
                                    << "trace.empty"
                                    << "no step events";
    QTest::newRow("negative time")
        << head + R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": -4, "dur": 1,
                     "args": {"step": 0}}]})"
        << "trace.invalid"
        << "traceEvents[0]: \"ts\" is -4";
    QTest::newRow("NaN duration as a string")
        << head + R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": "NaN",
                     "args": {"step": 0}}]})"
        << "trace.invalid"
        << "\"dur\"";
    QTest::newRow("unknown instruction")
        << head + R"({"ph": "M", "name": "x"}, {"ph": "X", "name": "jump", "pid": 0, "tid": 0,
                     "ts": 1, "dur": 1, "args": {"step": 0}}]})"
        << "trace.invalid"
        << "traceEvents[1]: its name is not an instruction";
    QTest::newRow("absurd rank")
        << head + R"({"ph": "X", "name": "r", "pid": 99999999, "tid": 0, "ts": 1, "dur": 1,
                     "args": {"step": 0}}]})"
        << "trace.invalid"
        << "\"pid\" is 99999999";
    QTest::newRow("missing step")
        << head + R"({"ph": "X", "name": "r", "pid": 0, "tid": 0, "ts": 1, "dur": 1}]})"
        << "trace.invalid"
        << "no \"step\"";
    QTest::newRow("link path not a list")
        << head + R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": 1,
                     "args": {"step": 0, "links": 3}}]})"
        << "trace.invalid"
        << "\"links\"";
    QTest::newRow("link path too long")
        << head + R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": 1,
                     "args": {"step": 0, "links": [)" +
               QByteArray("0,").repeated(64) + R"(0]}}]})"
        << "trace.invalid"
        << "at most 64 link ids";
    QTest::newRow("link id not an integer")
        << head + R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": 1,
                     "args": {"step": 0, "links": [1, "GPU0"]}}]})"
        << "trace.invalid"
        << "\"links\" holds \"GPU0\"";
    QTest::newRow("fractional rank")
        << head + R"({"ph": "X", "name": "s", "pid": 1.5, "tid": 0, "ts": 1, "dur": 1,
                     "args": {"step": 0}}]})"
        << "trace.invalid"
        << "\"pid\" is 1.5";
    QTest::newRow("a rank past 64 bits")
        << head + R"({"ph": "X", "name": "s", "pid": 18446744073709551615, "tid": 0, "ts": 1,
                     "dur": 1, "args": {"step": 0}}]})"
        << "trace.invalid"
        << "\"pid\" is 1.8446744073709552e+19";
    QTest::newRow("nested without end")
        << QByteArray(R"({"traceEvents": )") + QByteArray("[").repeated(100000) << "trace.malformed"
        << "nested more than 64 deep";
    QTest::newRow("text after the trace")
        << head + R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": 1,
                     "args": {"step": 0}}]} {})"
        << "trace.malformed"
        << "not JSON at byte";
    QTest::newRow("a time past the largest double")
        << head + R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1e400, "dur": 1,
                     "args": {"step": 0}}]})"
        << "trace.malformed"
        << "not JSON at byte";
    QTest::newRow("not UTF-8") << head + "{\"ph\": \"X\", \"name\": \"\xff\xfe\"}]}"
                               << "trace.malformed"
                               << "not JSON at byte";
  }

  void badInputIsRefusedWithWhereAndWhat()
  {
    QFETCH(QByteArray, json);
    QFETCH(QString, code);
    QFETCH(QString, expected);
    for (const Tokenizer tokenizer : tracejson::availableTokenizers()) {
      const TraceReadResult read = tracejson::readChromeTraceWith(
          tokenizer, std::string_view(json.constData(), json.size()), "t.json");
      const QString where = tokenizerName(tokenizer) + ": " + messageOf(read);
      QVERIFY2(!read.trace, qPrintable(where));
      QCOMPARE(read.diagnostics.size(), std::size_t(1));
      QCOMPARE(QString::fromStdString(read.diagnostics.front().code), code);
      QVERIFY2(messageOf(read).startsWith("t.json: "), qPrintable(where));
      QVERIFY2(messageOf(read).contains(expected), qPrintable(where));
    }
  }

  void everyTokenizerReadsTheSameTrace()
  {
    // Simulated (link paths, utilisation samples) and stopped (blocked positions) runs, and the
    // older bare list: each tokenizer must give exactly the trace the first one gives.
    Trace stopped = simulatedRing(4, "ring-4");
    stopped.stoppedUs = 3.5;
    stopped.connectionSlots = 1;
    stopped.blocked.push_back({2, 0, 1, 0, BlockedOn::Room, 3, 0, -1, -1});
    const std::vector<std::string> texts = {
        writeChromeTrace(simulatedRing(8, "dgx-h100")), writeChromeTrace(stopped),
        R"([{"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 0.1, "dur": 4e-3,
            "args": {"step": 0, "peer": 1, "bytes": 1e3, "extra": {"a": [1, {"b": null}]}}},
           {"ph": "C", "name": "link 2 x", "ts": 7, "args": {"utilisation": 0.25}}])",
        // Numbers at the edges of what JSON allows: a zero with a large exponent (undefined
        // behaviour in RapidJSON 1.1.0's own conversion), an underflow, integers past 64 bits.
        R"([{"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 0E47, "dur": 1e-400,
            "args": {"step": 0, "peer": 1, "bytes": 4096.0, "x": [12345678901234567890,
            -9223372036854775809, -0, 1e308, 123456789012345678901234567890]}}])"};
    for (const std::string& text : texts) {
      const TraceReadResult first =
          tracejson::readChromeTraceWith(tracejson::availableTokenizers().front(), text, "t");
      QVERIFY2(first.trace, qPrintable(messageOf(first)));
      for (const Tokenizer tokenizer : tracejson::availableTokenizers()) {
        const TraceReadResult read = tracejson::readChromeTraceWith(tokenizer, text, "t");
        QVERIFY2(read.trace, qPrintable(tokenizerName(tokenizer) + ": " + messageOf(read)));
        QVERIFY2(*read.trace == *first.trace, qPrintable(tokenizerName(tokenizer)));
      }
    }
  }

  void eventsInAnyOrderAndForeignMetadataAreAccepted()
  {
    const QByteArray json = R"({"traceEvents": [
      {"ph": "X", "name": "r", "pid": 1, "tid": 0, "ts": 5, "dur": 2, "args": {"step": 0, "recv_peer": 0}},
      {"ph": "i", "name": "marker of another tool", "ts": 3},
      {"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": 4, "args": {"step": 0, "peer": 1, "bytes": 64}}
    ]})";
    const TraceReadResult read = readChromeTrace(std::string_view(json.constData(), json.size()));
    QVERIFY2(read.trace, qPrintable(messageOf(read)));
    QCOMPARE(read.trace->events.size(), std::size_t(2));
    QCOMPARE(read.trace->ranks, 2);
    QCOMPARE(read.trace->totalUs, 7.0);
    QCOMPARE(read.trace->events[1].op, OpType::Send);
    QCOMPARE(read.trace->events[1].bytes, std::int64_t(64));
    QCOMPARE(read.trace->events[0].recvPeer, 0);
  }

  void theOlderBareListFormatReadsToo()
  {
    // Chrome's JSON Array Format: the events without the enclosing object. Objects that only look
    // like events elsewhere in a trace (here in otherData) are not read as events.
    const QByteArray bare = R"([
      {"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": 1, "dur": 4, "args": {"step": 0, "peer": 1}},
      {"ph": "X", "name": "r", "pid": 1, "tid": 0, "ts": 5, "dur": 2, "args": {"step": 0}}
    ])";
    const TraceReadResult read = readChromeTrace(std::string_view(bare.constData(), bare.size()));
    QVERIFY2(read.trace, qPrintable(messageOf(read)));
    QCOMPARE(read.trace->events.size(), std::size_t(2));
    const QByteArray nested = R"({"otherData": {"x": [{"ph": "X", "name": "s", "pid": 0, "tid": 0,
      "ts": 1, "dur": 4, "args": {"step": 0}}]}, "traceEvents": [{"ph": "X", "name": "r",
      "pid": 1, "tid": 0, "ts": 5, "dur": 2, "args": {"step": 0}}]})";
    const TraceReadResult one =
        readChromeTrace(std::string_view(nested.constData(), nested.size()));
    QVERIFY2(one.trace, qPrintable(messageOf(one)));
    QCOMPARE(one.trace->events.size(), std::size_t(1));
    QCOMPARE(one.trace->events.front().op, OpType::Recv);
  }

  void aFileReadsLikeItsText()
  {
    // The file is streamed, never held whole; it must read exactly as the same text does.
    const Trace written = simulatedRing(8, "dgx-h100");
    const std::string text = writeChromeTrace(written);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(text.data(), qint64(text.size())), qint64(text.size()));
    file.close();
    const TraceReadResult fromFile = readChromeTraceFile(path.toStdString());
    const TraceReadResult fromText = readChromeTrace(text);
    QVERIFY2(fromFile.trace && fromText.trace, qPrintable(messageOf(fromFile)));
    QVERIFY(*fromFile.trace == *fromText.trace);
    QCOMPARE(fromFile.trace->events.size(), written.events.size());

    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text.data(), qint64(text.size() / 2)); // cut off mid-run
    file.close();
    const TraceReadResult cut = readChromeTraceFile(path.toStdString());
    QVERIFY(!cut.trace);
    QCOMPARE(QString::fromStdString(cut.diagnostics.at(0).code), QString("trace.malformed"));
    QVERIFY2(messageOf(cut).startsWith(path), qPrintable(messageOf(cut)));
  }

  void aFileReadInHalvesReadsAsOnePass_data()
  {
    QTest::addColumn<QByteArray>("edit"); // what is done to the written trace's middle
    QTest::newRow("as written") << QByteArray();
    QTest::newRow("the cut inside a string") << QByteArray("string");
    QTest::newRow("an error after the cut") << QByteArray("late error");
    QTest::newRow("an error before the cut") << QByteArray("early error");
    QTest::newRow("truncated") << QByteArray("truncated");
  }

  void aFileReadInHalvesReadsAsOnePass()
  {
    // Two threads read a large file from either side of an event boundary near its middle
    // (rapidjsonhalves.cpp); whatever the bytes, the result is one pass's or none (then the
    // reader reads it in one pass).
    if (tracejson::availableTokenizers().front() != Tokenizer::RapidJson)
      QSKIP("built without RapidJSON: files are read in one pass");
    QFETCH(QByteArray, edit);
    std::string text = writeChromeTrace(simulatedRing(8, "dgx-h100"));
    const std::size_t middle = text.size() / 2;
    const std::size_t cut = text.find("},{", middle);
    QVERIFY(cut != std::string::npos);
    const std::size_t element = text.rfind("},{", middle) + 2; // an event starts here
    if (edit == "string") {
      // A name of "},{" long enough to hold the new middle, where the cut is looked for.
      std::string name;
      for (int k = 0; k < 1000; ++k)
        name += "},{";
      text.insert(element, R"({"ph": "M", "name": ")" + name + R"("},)");
      const std::size_t found = text.find("},{", text.size() / 2);
      QVERIFY(found > element && found < element + name.size());
    }
    const std::string bad = R"({"ph": "X", "name": "s", "pid": 0, "tid": 0, "ts": -1},)";
    if (edit == "late error")
      text.insert(text.find("},{", (text.size() + bad.size()) / 2 + 64) + 2, bad);
    if (edit == "early error")
      text.insert(text.find(R"("traceEvents":[)") + 15, R"({"ph": "X", "name": "s"},)");
    if (edit == "truncated")
      text.resize(text.size() - 20);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(text.data(), qint64(text.size())), qint64(text.size()));
    file.close();
    const TraceReadResult onePass =
        tracejson::readChromeTraceWith(Tokenizer::RapidJson, text, path.toStdString());
    const std::optional<TraceReadResult> halves =
        tracejson::readFileInHalves(path.toStdString(), 1);
    if (edit.isEmpty() || edit == "string")
      QVERIFY2(halves && halves->trace, "a good file is read in halves");
    if (edit == "late error") // found by the second thread: read again in one pass
      QVERIFY(!halves);
    if (!halves)
      return;
    QCOMPARE(bool(halves->trace), bool(onePass.trace));
    if (onePass.trace)
      QVERIFY(*halves->trace == *onePass.trace);
    QCOMPARE(messageOf(*halves), messageOf(onePass));
    QCOMPARE(readChromeTraceFile(path.toStdString()).diagnostics.size(),
             onePass.diagnostics.size());
  }

  void aMissingFileSaysSo()
  {
    const TraceReadResult read = readChromeTraceFile("/nonexistent/run.json");
    QVERIFY(!read.trace);
    QCOMPARE(QString::fromStdString(read.diagnostics.at(0).code), QString("trace.unreadable"));
  }
};

QTEST_GUILESS_MAIN(TestTraceReader)
#include "tst_tracereader.moc"
