// Every algorithm of engine/catalogue, lowered, runs verified through the CPU executor and
// through the host emulation of the GPU block program (the CUDA kernel's logic), broadcast and
// reduce also from non-zero roots (the same schedule with its ranks renumbered). Both executors
// must also leave the same bytes in every buffer. For custom collectives, which have no
// postcondition, that element-for-element comparison is the check.

#include "catalogue/catalogue.h"
#include "compile/lower.h"
#include "exec/execprograms.h"
#include "exec/executor.h"
#include "exec/gpu/emulatedexecutor.h"
#include "exec/ncclroundcheck.h"
#include "model/buffergeometry.h"
#include "support/corpus.h"

#include <QTest>

#include <algorithm>
#include <numeric>

using namespace cs;

namespace {

/// `schedule` with rank r renamed (r + shift) mod n: a rooted algorithm from root `shift`.
Schedule rotated(Schedule schedule, int shift)
{
  const int n = schedule.ranks;
  const auto move = [&](int rank) { return (rank + shift) % n; };
  for (Transfer& transfer : schedule.transfers) {
    transfer.src.rank = move(transfer.src.rank);
    transfer.dst.rank = move(transfer.dst.rank);
  }
  std::rotate(schedule.buffers.rbegin(), schedule.buffers.rbegin() + shift,
              schedule.buffers.rend());
  if (schedule.root)
    schedule.root = move(*schedule.root);
  return schedule;
}

QString describe(const ExecResult& result)
{
  return QString::fromStdString(std::string(execStatusName(result.status))) + " " +
         test::describeDiagnostics(result.diagnostics);
}

/// Small options: a few elements per chunk that every rank count's multiplier divides.
ExecOptions smallOptions(const Program& program, CallMode mode)
{
  const int mult = sizeMultiplier(program.collective, program.ngpus);
  const std::int64_t chunkElements =
      mult / std::gcd<std::int64_t>(program.nchunksperloop, mult) * 5;
  ExecOptions options;
  options.dtype = DataType::I32;
  options.bytes = chunkElements * program.nchunksperloop * dataTypeSize(options.dtype);
  options.mode = mode;
  options.timeoutSeconds = 20; // generous: sanitizer builds on a loaded machine
  options.keepBuffers = true;
  return options;
}

/// Runs `program` in every mode it declares on both executors; `verified`: whether each run must
/// verify (else it must end unverified). Both must leave the same bytes everywhere.
void runOnBoth(const Program& program, bool verified)
{
  gpu::EmulatedGpuExecutor emulation;
  const std::unique_ptr<Executor> cpu = makeExecutor("cpu");
  for (const CallMode mode : declaredModes(program)) {
    const ExecOptions options = smallOptions(program, mode);
    const ExecResult onCpu = cpu->run(program, options);
    const ExecResult emulated = emulation.run(program, options);
    const QString what = QString::fromStdString(std::string(callModeName(mode)));
    const ExecStatus expected = verified ? ExecStatus::Verified : ExecStatus::NotVerified;
    QVERIFY2(onCpu.status == expected, qPrintable(what + " cpu: " + describe(onCpu)));
    QVERIFY2(emulated.status == expected, qPrintable(what + " emulation: " + describe(emulated)));
    QCOMPARE(onCpu.wrong, 0);
    QCOMPARE(emulated.checked, onCpu.checked);
    QCOMPARE(emulated.buffers.size(), std::size_t(program.ngpus));
    for (std::size_t r = 0; r < onCpu.buffers.size(); ++r) {
      for (std::size_t m = 0; m < kBufferCount; ++m) {
        const std::vector<std::byte>& expectedBytes = onCpu.buffers[r][m];
        const std::vector<std::byte>& actual = emulated.buffers[r][m];
        QCOMPARE(actual.size(), expectedBytes.size());
        const auto differs = std::mismatch(actual.begin(), actual.end(), expectedBytes.begin());
        QVERIFY2(differs.first == actual.end(),
                 qPrintable(QString("%1: rank %2 %3 buffer differs at byte %4")
                                .arg(what)
                                .arg(r)
                                .arg(QString::fromStdString(
                                    std::string(bufferName(static_cast<Buffer>(m)))))
                                .arg(differs.first - actual.begin())));
      }
    }
  }
}

} // namespace

class TestExecCatalogue : public QObject
{
  Q_OBJECT

private slots:
  void catalogueVerifiesOnBoth_data()
  {
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("root");
    for (const AlgorithmInfo& info : algorithmCatalog()) {
      const QString key = QString::fromStdString(std::string(info.key));
      // The smallest rank count of at least 4 the algorithm exists for (powers of two, nodes).
      int ranks = 4;
      while (info.unsupported({ranks, 1, 0}) && ranks < 16)
        ++ranks;
      const bool rooted =
          info.collective == Collective::Broadcast || info.collective == Collective::Reduce;
      for (const int root : rooted ? std::vector<int>{0, 1, ranks - 1} : std::vector<int>{0}) {
        QTest::newRow(qPrintable(QString("%1 %2 ranks root %3").arg(key).arg(ranks).arg(root)))
            << key << ranks << root;
      }
    }
  }
  void catalogueVerifiesOnBoth()
  {
    QFETCH(QString, key);
    QFETCH(int, ranks);
    QFETCH(int, root);
    const GenerateResult generated = generateAlgorithm(key.toStdString(), {ranks, 1, 0});
    QVERIFY2(generated.schedule.has_value(), qPrintable(key));
    const Schedule schedule = rotated(*generated.schedule, root);
    if (schedule.root)
      QCOMPARE(*schedule.root, root);
    const LowerResult lowered = lowerSchedule(schedule, {});
    QVERIFY2(lowered.program.has_value(),
             qPrintable(test::describeDiagnostics(lowered.diagnostics)));
    runOnBoth(*lowered.program, true);
  }

  void customCollectivesAgreeElementForElement_data()
  {
    QTest::addColumn<int>("which");
    QTest::newRow("exchange with staged sends") << 0;
    QTest::newRow("forward after a dependency") << 1;
  }
  void customCollectivesAgreeElementForElement()
  {
    QFETCH(int, which);
    const Program program = which == 0 ? test::exchange() : test::forwardWithDependency();
    runOnBoth(program, false);
  }
};

QTEST_APPLESS_MAIN(TestExecCatalogue)
#include "tst_execcatalogue.moc"
