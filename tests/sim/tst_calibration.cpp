// Calibration (engine/sim/calibration.h): the least-squares fit against known α/β, degenerate
// sweeps, the JSON document and its errors, and what applying it does to a simulation.

#include "simtestutil.h"

#include "analysis/calibrationsweep.h"
#include "catalogue/ringallreduce.h"
#include "model/topologypresets.h"
#include "sim/calibration.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <string>

using namespace cs;
using namespace cs::test;

namespace {

/// Points of time = α + bytes/β with multiplicative noise of ±`noise`, from a fixed seed.
SweepSamples syntheticSweep(double alphaUs, double betaGBps, double noise)
{
  QRandomGenerator random(15);
  SweepSamples samples;
  for (std::int64_t bytes = 64 << 10; bytes <= (64 << 20); bytes *= 2)
    for (int repeat = 0; repeat < 3; ++repeat) {
      const double exact = alphaUs + static_cast<double>(bytes) / (betaGBps * 1e3);
      samples.emplace_back(bytes, exact * (1 + noise * (2 * random.generateDouble() - 1)));
    }
  return samples;
}

Calibration twoKinds(double beta)
{
  Calibration calibration;
  calibration.backend = "test";
  calibration.links = {{LinkKind::NvLink, 4, beta, 1}, {LinkKind::Pcie, 10, beta / 2, 2}};
  calibration.copyGBps = 20;
  calibration.reduceGBps = 10;
  calibration.points = {{"nvlink", 1 << 20, 20.5, 20.1}};
  return calibration;
}

double ringTime(const Calibration& calibration, std::int64_t bytes)
{
  Topology topology = *makePresetTopology("ring-8", {});
  SimOptions options;
  options.bytes = bytes;
  const Program program = makeRingAllReduce({8, 1, Protocol::Simple});
  if (applyCalibration(calibration, topology, options, program.proto))
    return -1;
  const SimResult result = simulateProgram(program, topology, options);
  return result.ok ? result.timeUs : -1;
}

/// A backend whose every probe takes exactly α + bytes/β, except the latency size, which takes
/// `latencyUs` (a run a loaded machine delayed, or not).
class LinearBackend : public Executor
{
public:
  LinearBackend(std::string name, double latencyUs)
      : m_name(std::move(name)), m_latencyUs(latencyUs)
  {
  }
  static constexpr double kAlphaUs = 5;
  static constexpr double kBetaGBps = 20;
  static constexpr std::int64_t kLatencyBytes = 4 << 10;

  std::string_view name() const override { return m_name; }
  ExecResult run(const Program& /*program*/, const ExecOptions& options) override
  {
    ExecResult result;
    result.status = ExecStatus::NotVerified;
    const double us = options.bytes == kLatencyBytes
                          ? m_latencyUs
                          : kAlphaUs + static_cast<double>(options.bytes) / (kBetaGBps * 1e3);
    result.iterationUs.assign(static_cast<std::size_t>(options.iterations), us);
    return result;
  }

private:
  std::string m_name;
  double m_latencyUs;
};

CalibrationSweepOptions linearSweep()
{
  CalibrationSweepOptions options;
  options.minBytes = std::int64_t{8} << 20;
  options.maxBytes = std::int64_t{32} << 20;
  options.latencyBytes = LinearBackend::kLatencyBytes;
  options.iterations = 1;
  options.warmup = 0;
  options.hostCacheBytes = std::int64_t{24} << 20;
  return options;
}

} // namespace

class TestCalibration : public QObject
{
  Q_OBJECT

private slots:
  void fitRecoversKnownAlphaBeta()
  {
    std::string error;
    const std::optional<AlphaBeta> exact = fitAlphaBeta(syntheticSweep(12, 8, 0), error);
    QVERIFY2(exact, error.c_str());
    QVERIFY(std::abs(exact->alphaUs - 12) < 1e-6);
    QVERIFY(std::abs(exact->betaGBps - 8) < 1e-9);
    QVERIFY(exact->rmsResidualUs < 1e-6);
    const std::optional<AlphaBeta> noisy = fitAlphaBeta(syntheticSweep(12, 8, 0.02), error);
    QVERIFY2(noisy, error.c_str());
    QVERIFY(std::abs(noisy->betaGBps - 8) < 0.08); // within 1 %
    QVERIFY(std::abs(noisy->alphaUs - 12) < 1);    // the fit weighs relative residuals
    QVERIFY(noisy->rmsResidualUs > 0);
    QVERIFY(noisy->maxRelativeResidual < 0.03); // the noise, plus what the fit is off by
  }

  void heldAlphaFitsOnlyBeta()
  {
    // A sweep of large sizes cannot see a 12 µs α under its noise; measured apart, α is held and
    // β still comes out right. A wrong held α shows in the residuals instead of moving β much.
    std::string error;
    const SweepSamples large = {{64 << 20, 12 + 64.0 * 1.048576 / 8 * 1e3},
                                {128 << 20, 12 + 128.0 * 1.048576 / 8 * 1e3}};
    const std::optional<AlphaBeta> held = fitAlphaBeta(large, error, 12.0);
    QVERIFY2(held, error.c_str());
    QCOMPARE(held->alphaUs, 12.0);
    QVERIFY(std::abs(held->betaGBps - 8) < 1e-9);
    const std::optional<AlphaBeta> one = fitAlphaBeta({large.front()}, error, 12.0);
    QVERIFY2(one, error.c_str()); // one size is enough with α known
    QVERIFY(std::abs(one->betaGBps - 8) < 1e-9);
    const std::optional<AlphaBeta> off = fitAlphaBeta(large, error, 500.0);
    QVERIFY2(off, error.c_str());
    QVERIFY(std::abs(off->betaGBps - 8) < 0.5);
    QVERIFY(off->maxRelativeResidual > 0.01);
    QVERIFY(!fitAlphaBeta({}, error, 12.0));
    QVERIFY(error.find("no positive size") != std::string::npos);
  }

  void degenerateSweepsAreErrors()
  {
    std::string error;
    QVERIFY(!fitAlphaBeta({{1 << 20, 100}, {1 << 20, 110}}, error));
    QVERIFY(error.find("two different positive sizes") != std::string::npos);
    error.clear();
    QVERIFY(!fitAlphaBeta({{0, 5}, {0, 6}, {1024, 7}}, error));
    QVERIFY(error.find("two different") != std::string::npos);
    error.clear();
    QVERIFY(!fitAlphaBeta({{1024, 0}, {2048, 7}}, error));
    QVERIFY(error.find("1024 bytes") != std::string::npos);
    error.clear();
    QVERIFY(!fitAlphaBeta({{1024, 9}, {2048, 5}}, error)); // faster when bigger: no β
    QVERIFY(error.find("does not grow") != std::string::npos);
    QVERIFY(!fitAlphaBeta({}, error));
  }

  void jsonRoundTrip()
  {
    const Calibration calibration = twoKinds(50);
    const CalibrationReadResult read = readCalibrationJson(writeCalibrationJson(calibration));
    QVERIFY2(read.calibration, read.error.c_str());
    QCOMPARE(read.calibration->links, calibration.links);
    QCOMPARE(read.calibration->reduceGBps, 10.0);
    QCOMPARE(read.calibration->points.size(), std::size_t{1});
    QCOMPARE(read.calibration->points[0].measuredUs, 20.5);
  }

  void badDocumentsNameWhatAndWhere_data()
  {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const QString head = R"({"format": "collective-studio-calibration", "version": 1, )"
                         R"("backend": "cpu", )";
    QTest::newRow("not json") << "{links"
                              << "not JSON";
    QTest::newRow("other format") << R"({"format": "x", "version": 1, "links": []})"
                                  << "$.format";
    QTest::newRow("future version") << R"({"format": "collective-studio-calibration", )"
                                       R"("version": 9, "backend": "cpu", "links": []})"
                                    << "$.version 9";
    QTest::newRow("no links") << head + R"("links": []})"
                              << "no link kind";
    QTest::newRow("bad kind") << head + R"("links": [{"kind": "wire", "alpha_us": 1, )"
                                        R"("beta_GBps": 2}]})"
                              << "$.links[0].kind \"wire\"";
    QTest::newRow("zero beta") << head + R"("links": [{"kind": "pcie", "alpha_us": 1, )"
                                         R"("beta_GBps": 0}]})"
                               << "$.links[0].beta_GBps must be positive";
    QTest::newRow("text alpha") << head + R"("links": [{"kind": "pcie", "alpha_us": "1", )"
                                          R"("beta_GBps": 3}]})"
                                << "$.links[0].alpha_us must be a number";
    QTest::newRow("missing beta") << head + R"("links": [{"kind": "pcie", "alpha_us": 1}]})"
                                  << "$.links[0].beta_GBps is missing";
    const QString links = R"("links": [{"kind": "pcie", "alpha_us": 1, "beta_GBps": 3}], )";
    QTest::newRow("huge cache") << head + links + R"("host_cache_bytes": 1e300})"
                                << "$.host_cache_bytes 1e+300 is not a cache size";
    QTest::newRow("negative cache") << head + links + R"("host_cache_bytes": -1})"
                                    << "$.host_cache_bytes must be zero or more";
  }

  void badDocumentsNameWhatAndWhere()
  {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const CalibrationReadResult read = readCalibrationJson(text.toStdString());
    QVERIFY(!read.calibration);
    QVERIFY2(read.error.find(expected.toStdString()) != std::string::npos, read.error.c_str());
  }

  void applyingChangesTheSimulation()
  {
    // A big ring is bandwidth-bound: doubling β halves its time (less the α part).
    const std::int64_t bytes = 256 << 20;
    const double slow = ringTime(twoKinds(10), bytes);
    const double fast = ringTime(twoKinds(20), bytes);
    QVERIFY(slow > 0 && fast > 0);
    const double bandwidthTerm = 2.0 * 7 / 8 * static_cast<double>(bytes) / 10e3;
    QVERIFY(std::abs((slow - fast) - bandwidthTerm / 2) < 0.05 * bandwidthTerm / 2);
    // The calibrated α replaces the link latency: at a tiny size the time follows it.
    Calibration slowLinks = twoKinds(10);
    slowLinks.links[0].alphaUs = 400;
    QVERIFY(ringTime(slowLinks, 1024) > 14 * 400);
  }

  void applyingSetsLinksAndLocalBandwidth()
  {
    Topology topology = *makePresetTopology("2x-dgx-h100", {});
    SimOptions options;
    Calibration calibration = twoKinds(30);
    const std::optional<std::string> error =
        applyCalibration(calibration, topology, options, Protocol::Simple);
    // 2x-dgx-h100's NICs reach the network switch over network links the calibration lacks.
    QVERIFY(error);
    QVERIFY2(error->find("network (link ") != std::string::npos, error->c_str());
    QVERIFY2(error->find("has nvlink, pcie") != std::string::npos, error->c_str());
    QVERIFY2(error->find("(link ") != std::string::npos, error->c_str());
    QCOMPARE(topology, *makePresetTopology("2x-dgx-h100", {})); // unchanged
    calibration.links.push_back({LinkKind::Network, 6, 12, 1});
    QVERIFY(!applyCalibration(calibration, topology, options, Protocol::Simple));
    for (const TopologyLink& link : topology.links)
      if (link.kind == LinkKind::Pcie) {
        QCOMPARE(link.bandwidthGBps, 15.0);
        QCOMPARE(link.latencyUs, 5.0); // α 10 over a 2-hop route
      }
    QCOMPARE(options.localGBps, 20.0);
    QCOMPARE(*options.localReduceGBps, 10.0);
    QCOMPARE(options.protocol->hopLatencyUs(HopClass::Pcie), 0.0);
  }

  void probePrograms()
  {
    const Program hop = oneHopProbe(3);
    QCOMPARE(hop.ngpus, 6);
    QCOMPARE(hop.gpus[4].threadblocks[0].send, 5);
    QCOMPARE(hop.gpus[5].threadblocks[0].recv, 4);
    const Program reduce = localProbe(4, OpType::Reduce);
    QCOMPARE(reduce.gpus[3].threadblocks[0].steps[0].type, OpType::Reduce);
  }

  void cpuSweepLiesBeyondTheCache()
  {
    // A GPU's sweep stays where its latency shows; the CPU executor's starts at the first power of
    // two that no longer fits the host's last-level cache, capped so that a huge cache cannot ask
    // for gigabytes.
    const CalibrationSweepOptions gpu = defaultSweepOptions("cuda");
    QCOMPARE(gpu.minBytes, std::int64_t{256} << 10);
    QCOMPARE(gpu.maxBytes, std::int64_t{16} << 20);
    QCOMPARE(gpu.latencyBytes, std::int64_t{0}); // α and β fitted together
    constexpr std::int64_t kMiB = std::int64_t{1} << 20;
    const std::pair<std::int64_t, std::int64_t> cacheAndStart[] = {
        {1 * kMiB, 4 * kMiB},   {8 * kMiB, 8 * kMiB},   {30 * kMiB, 32 * kMiB},
        {32 * kMiB, 32 * kMiB}, {33 * kMiB, 64 * kMiB}, {1024 * kMiB, 64 * kMiB},
        {0, 4 * kMiB}};
    for (const auto& [cache, start] : cacheAndStart) {
      const CalibrationSweepOptions cpu = defaultSweepOptions("cpu", cache);
      QCOMPARE(cpu.minBytes, start);
      QCOMPARE(cpu.maxBytes, 4 * start); // three sizes, to see a poor fit in the residuals
      QCOMPARE(cpu.latencyBytes, std::int64_t{4} << 10);
    }
  }

  void sweepHoldsTheMeasuredLatencyUnlessItWasDelayed()
  {
    const Topology ring = *makePresetTopology("ring-4", {});
    // A prompt latency run: α is that run, β fitted above it, and the CPU's cache recorded.
    LinearBackend prompt("cpu", LinearBackend::kAlphaUs);
    const CalibrationSweepResult held = runCalibrationSweep(prompt, ring, linearSweep());
    QVERIFY2(held.calibration, held.error.c_str());
    const LinkCalibration* link = held.calibration->link(LinkKind::NvLink);
    QVERIFY(link);
    QCOMPARE(link->alphaUs, LinearBackend::kAlphaUs);
    QVERIFY(std::abs(link->betaGBps - LinearBackend::kBetaGBps) < 0.01);
    QCOMPARE(held.calibration->points.front().measuredUs, LinearBackend::kAlphaUs);
    QCOMPARE(held.calibration->hostCacheBytes, std::int64_t{24} << 20);
    // A latency run slower than the sweep's own sizes leaves no positive β with α held: the
    // sweep fits both over its sizes, and the delayed point stays in the residuals, far off.
    LinearBackend delayed("cpu", 1e6);
    const CalibrationSweepResult both = runCalibrationSweep(delayed, ring, linearSweep());
    QVERIFY2(both.calibration, both.error.c_str());
    link = both.calibration->link(LinkKind::NvLink);
    QVERIFY(std::abs(link->alphaUs - LinearBackend::kAlphaUs) < 0.01);
    QVERIFY(std::abs(link->betaGBps - LinearBackend::kBetaGBps) < 0.01);
    const CalibrationPoint& latency = both.calibration->points.front();
    QCOMPARE(latency.bytes, LinearBackend::kLatencyBytes);
    QCOMPARE(latency.measuredUs, 1e6);
    QVERIFY(latency.fittedUs < 10);
    // A GPU backend shares no host: no cache is recorded.
    LinearBackend gpu("cuda", LinearBackend::kAlphaUs);
    const CalibrationSweepResult device = runCalibrationSweep(gpu, ring, linearSweep());
    QVERIFY2(device.calibration, device.error.c_str());
    QCOMPARE(device.calibration->hostCacheBytes, std::int64_t{0});
    QCOMPARE(device.calibration->hostGBps, 0.0);
  }

  void lastLevelCacheIsTheLargestDataCacheSysfsNames()
  {
    // The layout of /sys/devices/system/cpu/cpu0/cache: an instruction cache never counts, and a
    // level whose files are missing or unreadable is passed over.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto level = [&](int index, const char* type, const char* size) {
      const QString path = dir.path() + QStringLiteral("/index%1").arg(index);
      QVERIFY(QDir().mkpath(path));
      QFile typeFile(path + "/type");
      QVERIFY(typeFile.open(QIODevice::WriteOnly));
      typeFile.write(QByteArray(type) + "\n");
      if (size) {
        QFile sizeFile(path + "/size");
        QVERIFY(sizeFile.open(QIODevice::WriteOnly));
        sizeFile.write(QByteArray(size) + "\n");
      }
    };
    const std::string root = dir.path().toStdString();
    const std::int64_t fallback = 7;
    QCOMPARE(lastLevelCacheBytes(fallback, root), fallback); // no level at all
    level(0, "Data", "48K");
    level(1, "Instruction", "65536K");
    level(2, "Unified", "2048K");
    level(4, "Unified", nullptr); // index3 absent, index4 without a size: both skipped
    QCOMPARE(lastLevelCacheBytes(fallback, root), std::int64_t{2} << 20);
    level(5, "Unified", "32768K");
    QCOMPARE(lastLevelCacheBytes(fallback, root), std::int64_t{32} << 20);
    level(6, "Unified", "lots");
    QCOMPARE(lastLevelCacheBytes(fallback, root), std::int64_t{32} << 20);
  }
};

QTEST_GUILESS_MAIN(TestCalibration)
#include "tst_calibration.moc"
