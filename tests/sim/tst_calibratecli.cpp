// `cstudio calibrate --backend cpu` on a small sweep, and its calibration used by `cstudio
// simulate --calibration` from a file and from the library. No timings are asserted: the fit
// exists, residuals are printed, and what it says reaches the simulation.

#include "support/cli.h"
#include "support/files.h"

#include "sim/calibration.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <vector>

#include <nlohmann/json.hpp>

using namespace cs;
using Run = cs::test::CliRun;

namespace {

// Sizes 8× apart, large enough that a loaded machine's scheduling noise (milliseconds) cannot
// make a larger copy look faster than a smaller one: at 1..4 MiB it once did under CI's load,
// and the fit rightly refused a slope below zero.
QStringList smallSweep()
{
  return {"calibrate", "--backend", "cpu", "-t", "ring-4", "--sizes", "8M..64M", "--iters", "3"};
}

double simulatedUs(const QStringList& arguments)
{
  const Run run = cs::test::cstudio(arguments + QStringList{"--json"});
  if (run.exitCode != 0)
    return -1;
  const nlohmann::json result = nlohmann::json::parse(run.out.toStdString(), nullptr, false);
  return result.is_object() ? result.value("time_us", -1.0) : -1;
}

} // namespace

class Test_calibratecli : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase()
  {
    QVERIFY(m_dir.isValid());
    m_library = m_dir.filePath("library.sqlite");
    m_ring = m_dir.filePath("ring4.xml");
    QCOMPARE(
        cs::test::cstudio({"generate", "ring-allreduce", "--ranks", "4", "-o", m_ring}).exitCode,
        0);
  }

  void calibrateWritesFitAndResiduals()
  {
    const QString file = m_dir.filePath("cal.json");
    const Run run = cs::test::cstudio(
        smallSweep() + QStringList{"-o", file, "--save", "lab", "--library", m_library});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY(run.out.contains("nvlink"));
    QVERIFY(run.out.contains("residuals"));
    QVERIFY(run.out.contains("reduce"));
    QVERIFY2(run.err.contains("calibrating: nvlink"), qPrintable(run.err)); // progress
    const CalibrationReadResult read = readCalibrationJson(cs::test::readFile(file).toStdString());
    QVERIFY2(read.calibration, read.error.c_str());
    QCOMPARE(read.calibration->backend, std::string("cpu"));
    QCOMPARE(read.calibration->pairs, 2);
    QVERIFY(read.calibration->link(LinkKind::NvLink));
    QVERIFY(read.calibration->link(LinkKind::NvLink)->betaGBps > 0);
    // 4 sizes × 4 probes: the link and the local copy and reduce alone, the busy host; and the
    // link's latency, measured apart at 4 KiB (the CPU sweep's α).
    QCOMPARE(read.calibration->points.size(), std::size_t{17});
    QCOMPARE(read.calibration->points.front().probe, std::string("nvlink"));
    QCOMPARE(read.calibration->points.front().bytes, std::int64_t{4096});
    QCOMPARE(std::count_if(read.calibration->points.begin(), read.calibration->points.end(),
                           [](const CalibrationPoint& point) { return point.probe == "host"; }),
             4);
    QVERIFY(read.calibration->hostGBps > 0);
    QVERIFY(run.out.contains("host probe: 2 pairs at once"));
    // The cache the copied sends' slots are judged against (sysfs, or 32 MiB where it is silent).
    QVERIFY(read.calibration->hostCacheBytes >= std::int64_t{1} << 20);
    QVERIFY2(run.out.contains("last-level cache: "), qPrintable(run.out));
    const Run listed = cs::test::cstudio({"library", "calibrations", "--library", m_library});
    QCOMPARE(listed.exitCode, 0);
    QVERIFY2(listed.out.contains("lab  cpu for ring-4"), qPrintable(listed.out));
  }

  void simulateUsesTheCalibration()
  {
    // A calibration with known figures: its α and β decide the simulated ring.
    Calibration calibration;
    calibration.backend = "test";
    calibration.links = {{LinkKind::NvLink, 10, 2, 1}};
    const QString slow = m_dir.filePath("slow.json");
    QVERIFY(
        cs::test::writeFile(slow, QByteArray::fromStdString(writeCalibrationJson(calibration))));
    calibration.links[0].betaGBps = 4;
    const QString fast = m_dir.filePath("fast.json");
    QVERIFY(
        cs::test::writeFile(fast, QByteArray::fromStdString(writeCalibrationJson(calibration))));
    const QStringList simulate{"simulate", m_ring, "-t", "ring-4", "-b", "64M"};
    const double slowUs = simulatedUs(simulate + QStringList{"--calibration", slow});
    const double fastUs = simulatedUs(simulate + QStringList{"--calibration", fast});
    QVERIFY(slowUs > 0 && fastUs > 0);
    const double bandwidthTerm = 2.0 * 3 / 4 * (64 << 20) / 2e3; // at β = 2 GB/s
    QVERIFY(std::abs((slowUs - fastUs) - bandwidthTerm / 2) < 0.05 * bandwidthTerm / 2);
    // By name from the library, as stored by the previous test.
    QVERIFY(simulatedUs(simulate + QStringList{"--calibration", "lab", "--library", m_library}) >
            0);
  }

  void hostCacheIsJudgedAtTheSimulatedSize()
  {
    // Halving-doubling copies its sends into 24 connections: at 1 MiB their slots fit a 32 MiB
    // cache and cost nothing more, at 64 MiB (224 MiB of slots) they do not. The same
    // calibration with no cache recorded charges every copy at both sizes.
    const QString hd = m_dir.filePath("hd8.xml");
    QCOMPARE(cs::test::cstudio({"generate", "halving-doubling-allreduce", "--ranks", "8", "-o", hd})
                 .exitCode,
             0);
    Calibration calibration;
    calibration.backend = "cpu";
    calibration.links = {{LinkKind::NvLink, 5, 10, 1}};
    calibration.hostGBps = 15;
    const QString uncached = m_dir.filePath("uncached.json");
    QVERIFY(cs::test::writeFile(uncached,
                                QByteArray::fromStdString(writeCalibrationJson(calibration))));
    calibration.hostCacheBytes = std::int64_t{32} << 20;
    const QString cached = m_dir.filePath("cached.json");
    QVERIFY(
        cs::test::writeFile(cached, QByteArray::fromStdString(writeCalibrationJson(calibration))));
    const auto timeAt = [&](const char* bytes, const QString& file) {
      return simulatedUs(
          {"simulate", hd, "-t", "fully-connected-8", "-b", bytes, "--calibration", file});
    };
    const double small = timeAt("1M", uncached);
    QVERIFY(small > 0);
    QVERIFY2(timeAt("1M", cached) < 0.95 * small, "at 1 MiB the slots fit the cache");
    const double large = timeAt("64M", uncached);
    QVERIFY(large > 0);
    QCOMPARE(timeAt("64M", cached), large);
    // A sweep judges every size on its own.
    const auto sweep = [&](const QString& file) {
      const Run run = cs::test::cstudio({"simulate", hd, "-t", "fully-connected-8", "--sweep",
                                         "1M:64M", "--calibration", file, "--json"});
      const nlohmann::json rows = nlohmann::json::parse(run.out.toStdString(), nullptr, false)
                                      .value("sweep", nlohmann::json());
      std::vector<double> times;
      for (const nlohmann::json& row : rows)
        times.push_back(row.value("time_us", -1.0));
      return times;
    };
    const std::vector<double> withCache = sweep(cached);
    const std::vector<double> without = sweep(uncached);
    QCOMPARE(withCache.size(), std::size_t{7});
    QCOMPARE(without.size(), withCache.size());
    QVERIFY(withCache.front() < 0.95 * without.front());
    QCOMPARE(withCache.back(), without.back());
  }

  void badCalibrationsExitTwo_data()
  {
    QTest::addColumn<QString>("document");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("expected");
    QTest::newRow("malformed") << "{\"links\": ["
                               << ""
                               << "not JSON";
    QTest::newRow("wrong field")
        << R"({"format": "collective-studio-calibration", "version": 1, "backend": "cpu", )"
           R"("links": [{"kind": "nvlink", "alpha_us": 1, "beta_GBps": -2}]})"
        << ""
        << "$.links[0].beta_GBps must be positive";
    QTest::newRow("lacks a kind")
        << R"({"format": "collective-studio-calibration", "version": 1, "backend": "cpu", )"
           R"("links": [{"kind": "pcie", "alpha_us": 1, "beta_GBps": 2}]})"
        << ""
        << "lacks: nvlink (link 0)";
    QTest::newRow("unknown name") << ""
                                  << "nosuch"
                                  << "\"nosuch\" is n"; // neither a file nor a name
  }

  void badCalibrationsExitTwo()
  {
    QFETCH(QString, document);
    QFETCH(QString, name);
    QFETCH(QString, expected);
    QString argument = name;
    if (!document.isEmpty()) {
      argument = m_dir.filePath("bad.json");
      QVERIFY(cs::test::writeFile(argument, document.toUtf8()));
    }
    const Run run = cs::test::cstudio(
        {"simulate", m_ring, "-t", "ring-4", "--calibration", argument, "--library", m_library});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(expected), qPrintable(run.err));
    if (!document.isEmpty())
      QVERIFY2(run.err.contains(argument) || run.err.contains("bad.json"), qPrintable(run.err));
  }

  void degenerateSweepIsAUsageError()
  {
    const Run run =
        cs::test::cstudio({"calibrate", "--backend", "cpu", "-t", "ring-4", "--sizes", "1M..1M"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("MAX at least twice MIN"), qPrintable(run.err));
  }

private:
  QTemporaryDir m_dir;
  QString m_library;
  QString m_ring;
};

QTEST_GUILESS_MAIN(Test_calibratecli)
#include "tst_calibratecli.moc"
