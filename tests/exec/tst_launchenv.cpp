// The launcher environment (exec/launch/launchenv.h) and the rendezvous wire format
// (exec/launch/wiremessages.h): every launcher's variables, the flags that override them, every
// error case, and messages that survive a round trip while truncated, oversized or garbage bytes
// are refused with a reason. tst_rendezvous runs the rendezvous itself across processes.

#include "exec/launch/launchenv.h"
#include "exec/launch/runwatcher.h"
#include "exec/launch/wiremessages.h"

#include <QTest>

#include <random>

using namespace cs::launch;

Q_DECLARE_METATYPE(Environment)
Q_DECLARE_METATYPE(LaunchOverrides)

namespace {

const Environment kOpenMpi{{"OMPI_COMM_WORLD_RANK", "3"},
                           {"OMPI_COMM_WORLD_SIZE", "8"},
                           {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}};
const Environment kSlurm{{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "8"}, {"SLURM_LOCALID", "1"}};
const Environment kTorchrun{{"RANK", "3"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "1"}};

Environment merged(Environment a, const Environment& b)
{
  a.insert(b.begin(), b.end());
  return a;
}

Environment with(Environment environment, const std::string& name, const std::string& value)
{
  environment[name] = value;
  return environment;
}

Environment without(Environment environment, const std::string& name)
{
  environment.erase(name);
  return environment;
}

std::vector<std::byte> payloadOf(const std::vector<std::byte>& frame)
{
  return {frame.begin() + 4, frame.end()};
}

} // namespace

class TestLaunchEnv : public QObject
{
  Q_OBJECT

private slots:
  void eachLauncher_data()
  {
    QTest::addColumn<Environment>("environment");
    QTest::addColumn<LaunchOverrides>("overrides");
    QTest::addColumn<int>("rank");
    QTest::addColumn<int>("world");
    QTest::addColumn<int>("localRank");
    QTest::addColumn<QString>("source");
    const LaunchOverrides none;
    QTest::newRow("Open MPI") << kOpenMpi << none << 3 << 8 << 1 << "Open MPI";
    QTest::newRow("Slurm") << kSlurm << none << 3 << 8 << 1 << "Slurm";
    QTest::newRow("torchrun") << kTorchrun << none << 3 << 8 << 1 << "torchrun";
    QTest::newRow("torchrun inside srun, agreeing")
        << merged(kSlurm, kTorchrun) << none << 3 << 8 << 1 << "Slurm and torchrun";
    QTest::newRow("flags only") << Environment{} << LaunchOverrides{2, 4, std::nullopt} << 2 << 4
                                << 2 << "flags";
    QTest::newRow("flags with a local rank")
        << Environment{} << LaunchOverrides{5, 8, 1} << 5 << 8 << 1 << "flags";
    QTest::newRow("a flag overrides one field")
        << kSlurm << LaunchOverrides{std::nullopt, std::nullopt, 0} << 3 << 8 << 0
        << "Slurm and flags";
    QTest::newRow("flags settle a disagreement")
        << merged(kOpenMpi, with(kTorchrun, "RANK", "4")) << LaunchOverrides{4, 8, 1} << 4 << 8 << 1
        << "Open MPI and torchrun and flags";
    QTest::newRow("unrelated variables")
        << with(kTorchrun, "SLURM_JOB_ID", "77") << none << 3 << 8 << 1 << "torchrun";
  }
  void eachLauncher()
  {
    QFETCH(Environment, environment);
    QFETCH(LaunchOverrides, overrides);
    QFETCH(int, rank);
    QFETCH(int, world);
    QFETCH(int, localRank);
    QFETCH(QString, source);
    const LaunchParse parse = parseLaunchPlace(environment, overrides);
    QVERIFY2(parse.error.empty(), parse.error.c_str());
    QVERIFY(parse.place);
    QCOMPARE(parse.place->rank, rank);
    QCOMPARE(parse.place->world, world);
    QCOMPARE(parse.place->localRank, localRank);
    QCOMPARE(QString::fromStdString(parse.place->source), source);
  }

  void noLauncher()
  {
    const LaunchParse parse = parseLaunchPlace({{"PATH", "/usr/bin"}}, {});
    QVERIFY(!parse.place);
    QVERIFY(parse.error.empty());
  }

  void errors_data()
  {
    QTest::addColumn<Environment>("environment");
    QTest::addColumn<LaunchOverrides>("overrides");
    QTest::addColumn<QString>("expected");
    const LaunchOverrides none;
    QTest::newRow("missing world") << without(kOpenMpi, "OMPI_COMM_WORLD_SIZE") << none
                                   << "Open MPI sets some of its variables but not "
                                      "OMPI_COMM_WORLD_SIZE";
    QTest::newRow("missing local id")
        << without(kSlurm, "SLURM_LOCALID") << none << "not SLURM_LOCALID";
    QTest::newRow("missing rank") << without(kTorchrun, "RANK") << none << "not RANK";
    QTest::newRow("not a number") << with(kTorchrun, "WORLD_SIZE", "eight") << none
                                  << "WORLD_SIZE is 'eight', not a whole";
    QTest::newRow("negative") << with(kSlurm, "SLURM_PROCID", "-1") << none
                              << "SLURM_PROCID is '-1'";
    QTest::newRow("suffix") << with(kSlurm, "SLURM_NTASKS", "8x") << none << "SLURM_NTASKS is '8x'";
    QTest::newRow("empty") << with(kTorchrun, "LOCAL_RANK", "") << none << "LOCAL_RANK is ''";
    QTest::newRow("overflow") << with(kTorchrun, "RANK", "99999999999999999999") << none
                              << "RANK is '99999999999999999999', not a whole number";
    QTest::newRow("rank not below world") << with(kOpenMpi, "OMPI_COMM_WORLD_RANK", "8") << none
                                          << "rank 8 is not below the world size 8 (from Open MPI)";
    QTest::newRow("zero world") << Environment{{"RANK", "0"},
                                               {"WORLD_SIZE", "0"},
                                               {"LOCAL_RANK", "0"}}
                                << none << "the world size is 0";
    QTest::newRow("local rank not below world")
        << with(kTorchrun, "LOCAL_RANK", "9") << none << "local rank 9 is not below";
    QTest::newRow("launchers disagree")
        << merged(kSlurm, with(kTorchrun, "WORLD_SIZE", "16")) << none
        << "Slurm says rank 3 of 8, local rank 1 but torchrun says rank 3 of 16, local rank 1";
    QTest::newRow("flag rank too big") << kSlurm << LaunchOverrides{8, std::nullopt, std::nullopt}
                                       << "rank 8 is not below the world size 8 (from Slurm and "
                                          "flags)";
    QTest::newRow("rank flag alone")
        << Environment{} << LaunchOverrides{1, std::nullopt, std::nullopt}
        << "--rank and --world must both be given";
  }
  void errors()
  {
    QFETCH(Environment, environment);
    QFETCH(LaunchOverrides, overrides);
    QFETCH(QString, expected);
    const LaunchParse parse = parseLaunchPlace(environment, overrides);
    QVERIFY(!parse.place);
    QVERIFY2(QString::fromStdString(parse.error).contains(expected), parse.error.c_str());
  }

  void worldAgainstProgram()
  {
    const LaunchPlace place{1, 4, 1, "torchrun"};
    QVERIFY(checkWorldMatchesProgram(place, 4).empty());
    QCOMPARE(QString::fromStdString(checkWorldMatchesProgram(place, 8)),
             QString("the launcher started 4 processes (world size, from torchrun) but the "
                     "program has 8 ranks: start one process per rank"));
  }

  void masterEndpoint_data()
  {
    QTest::addColumn<Environment>("environment");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("error");
    QTest::newRow("both") << Environment{{"MASTER_ADDR", "node7"}, {"MASTER_PORT", "29500"}}
                          << "node7" << 29500 << "";
    QTest::newRow("no address") << Environment{{"MASTER_PORT", "29500"}} << "" << 0
                                << "MASTER_ADDR and MASTER_PORT must be set";
    QTest::newRow("no port") << Environment{{"MASTER_ADDR", "node7"}} << "" << 0
                             << "MASTER_ADDR and MASTER_PORT must be set";
    QTest::newRow("port zero") << Environment{{"MASTER_ADDR", "a"}, {"MASTER_PORT", "0"}} << "" << 0
                               << "MASTER_PORT is '0', not a port number";
    QTest::newRow("port too big") << Environment{{"MASTER_ADDR", "a"}, {"MASTER_PORT", "65536"}}
                                  << "" << 0 << "MASTER_PORT is '65536'";
  }
  void masterEndpoint()
  {
    QFETCH(Environment, environment);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, error);
    const MasterParse parse = parseMasterEndpoint(environment);
    QVERIFY2(QString::fromStdString(parse.error).contains(error), parse.error.c_str());
    QCOMPARE(parse.endpoint.has_value(), error.isEmpty());
    if (parse.endpoint) {
      QCOMPARE(QString::fromStdString(parse.endpoint->host), host);
      QCOMPARE(parse.endpoint->port, port);
    }
  }

  void messagesRoundTrip()
  {
    Message report;
    report.kind = MessageKind::Report;
    report.report = {5, "wrong", 12, 4096, 17.25, "rank 5 o[3] element 2: expected 6, got 0"};
    std::string error;
    const std::vector<std::byte> payload = payloadOf(encodeMessage(report));
    const std::optional<Message> back = decodePayload(payload.data(), payload.size(), &error);
    QVERIFY2(back, error.c_str());
    QCOMPARE(back->report.rank, 5);
    QCOMPARE(back->report.status, std::string("wrong"));
    QCOMPARE(back->report.wrong, 12);
    QCOMPARE(back->report.checked, 4096);
    QCOMPARE(back->report.meanUs, 17.25);
    QCOMPARE(back->report.detail, report.report.detail);

    Message hello;
    hello.kind = MessageKind::Hello;
    hello.hello = {kRendezvousProtocol, 3, 4, 0x0123456789abcdefull, "no GPU"};
    const std::vector<std::byte> helloPayload = payloadOf(encodeMessage(hello));
    const std::optional<Message> helloBack =
        decodePayload(helloPayload.data(), helloPayload.size(), &error);
    QVERIFY(helloBack);
    QCOMPARE(helloBack->hello.program, 0x0123456789abcdefull);
    QCOMPARE(helloBack->hello.world, 4);
    QCOMPARE(helloBack->hello.cannotStart, std::string("no GPU"));

    Message lost;
    lost.kind = MessageKind::Lost;
    lost.lostRank = 6;
    const std::vector<std::byte> lostPayload = payloadOf(encodeMessage(lost));
    const std::optional<Message> lostBack =
        decodePayload(lostPayload.data(), lostPayload.size(), &error);
    QVERIFY2(lostBack, error.c_str());
    QCOMPARE(lostBack->kind, MessageKind::Lost);
    QCOMPARE(lostBack->lostRank, 6);
  }

  void lostRankIsChecked()
  {
    // A Lost from rank 0 names a rank the receiver checks against its world size.
    Message lost;
    lost.kind = MessageKind::Lost;
    lost.lostRank = 2;
    QCOMPARE(lostRankText(lost, 4), std::string("rank 2 disconnected during the run"));
    for (const int bad : {0, 4, -1}) {
      lost.lostRank = bad;
      QCOMPARE(lostRankText(lost, 4), "rank 0 announced that rank " + std::to_string(bad) +
                                          " went away, but this run has ranks 1 to 3");
    }
  }

  void framesSplitAnywhere()
  {
    Message id;
    id.kind = MessageKind::Id;
    for (int i = 0; i < 128; ++i)
      id.id.push_back(static_cast<std::byte>(i * 7));
    std::vector<std::byte> stream = encodeMessage(id);
    Message done;
    done.kind = MessageKind::Done;
    const std::vector<std::byte> second = encodeMessage(done);
    stream.insert(stream.end(), second.begin(), second.end());
    // Byte by byte: a frame is complete only when its last byte is in.
    FrameReader reader;
    int frames = 0;
    for (const std::byte b : stream) {
      QVERIFY(reader.append(&b, 1));
      while (std::optional<std::vector<std::byte>> payload = reader.next()) {
        std::string error;
        const std::optional<Message> message =
            decodePayload(payload->data(), payload->size(), &error);
        QVERIFY2(message, error.c_str());
        QCOMPARE(message->kind, frames == 0 ? MessageKind::Id : MessageKind::Done);
        if (frames == 0)
          QCOMPARE(message->id, id.id);
        ++frames;
      }
    }
    QCOMPARE(frames, 2);
  }

  void refusesBadFrames_data()
  {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("huge length") << QByteArray("\xff\xff\xff\xff\x01", 5)
                                 << "a frame announces 4294967295 bytes";
    QTest::newRow("zero length") << QByteArray("\0\0\0\0", 4) << "a frame announces 0 bytes";
  }
  void refusesBadFrames()
  {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    FrameReader reader;
    QVERIFY(!reader.append(reinterpret_cast<const std::byte*>(bytes.data()),
                           static_cast<std::size_t>(bytes.size())));
    QVERIFY(!reader.next());
    QVERIFY2(QString::fromStdString(reader.error()).contains(expected), reader.error().c_str());
  }

  void refusesBadPayloads_data()
  {
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown kind") << QByteArray("\x09", 1) << "unknown message kind 9";
    QTest::newRow("short hello") << QByteArray("\x01\x01\0\0\0\x02", 6)
                                 << "the message ends inside its rank";
    QTest::newRow("id too long") << QByteArray("\x02\x01\x04\0\0", 5)
                                 << "id is 1025 bytes, more than 1024";
    QTest::newRow("id shorter than said")
        << QByteArray("\x02\x05\0\0\0ab", 7) << "the message ends inside its id";
    QTest::newRow("trailing bytes") << QByteArray("\x04zz", 3) << "2 unexpected bytes";
    QTest::newRow("short lost rank")
        << QByteArray("\x06\x03\0", 3) << "the message ends inside its lost rank";
    QTest::newRow("lost rank and more")
        << QByteArray("\x06\x03\0\0\0\x01", 6) << "1 unexpected bytes";
    QTest::newRow("reason too long")
        << QByteArray("\x05\xff\xff\xff\x7f", 5) << "reason is 2147483647 bytes, more than 4096";
  }
  void refusesBadPayloads()
  {
    QFETCH(QByteArray, payload);
    QFETCH(QString, expected);
    std::string error;
    QVERIFY(!decodePayload(reinterpret_cast<const std::byte*>(payload.data()),
                           static_cast<std::size_t>(payload.size()), &error));
    QVERIFY2(QString::fromStdString(error).contains(expected), error.c_str());
  }

  void randomBytesNeverCrash()
  {
    // Garbage of every length decodes to a message or to an error, never past the buffer (the
    // sanitizer builds check the reads); counted so that both outcomes are seen.
    std::mt19937 random(21);
    int decoded = 0;
    int refused = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      std::vector<std::byte> bytes(random() % 40);
      for (std::byte& b : bytes)
        b = static_cast<std::byte>(trial % 3 == 0 ? random() % 6 : random() % 256);
      std::string error;
      if (decodePayload(bytes.data(), bytes.size(), &error))
        ++decoded;
      else
        ++refused;
      QVERIFY(decoded + refused == trial + 1);
    }
    QVERIFY(decoded > 0);
    QVERIFY(refused > 0);
  }

  void fingerprintSeesOneByte()
  {
    QVERIFY(programFingerprint("<algo ngpus=\"4\"/>") != programFingerprint("<algo ngpus=\"8\"/>"));
    QCOMPARE(programFingerprint("same"), programFingerprint("same"));
  }
};

QTEST_GUILESS_MAIN(TestLaunchEnv)
#include "tst_launchenv.moc"
