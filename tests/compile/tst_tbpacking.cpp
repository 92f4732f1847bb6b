// Residency packing (engine/compile/tbpacking.cpp): when a rank has more threadblocks than the
// target GPU keeps resident, the lowering pairs a send-only and a receive-only threadblock and
// lets local copies join another. A direct all-to-all of n ranks needs 2(n-1)+1 threadblocks per
// rank unpacked and n-1 packed, so the largest that fits a GPU keeping L blocks resident has
// L+1 ranks; one rank more still gets the precise limit.residency error. Packed programs pass
// the whole checker (deadlocks at one and two FIFO slots, races) and run correctly on the CPU
// executor; programs that fit are not packed at all.

#include "compile/compileutil.h"
#include "support/corpus.h"

#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "compile/lower.h"
#include "exec/executor.h"

#include <QTest>

#include <algorithm>
#include <optional>
#include <string>

using namespace cs;

Q_DECLARE_METATYPE(cs::GpuModelId)
Q_DECLARE_METATYPE(cs::DialectId)

namespace {

Schedule directAllToAll(int ranks)
{
  GeneratorOptions options;
  options.ranks = ranks;
  GenerateResult generated = generateAlgorithm("direct-alltoall", options);
  if (!generated.schedule)
    qFatal("%s", qPrintable(test::describeDiagnostics(generated.diagnostics)));
  return std::move(*generated.schedule);
}

Program lowered(const Schedule& schedule, DialectId id, std::optional<GpuModelId> gpu,
                int instances = 1)
{
  LowerOptions options;
  options.dialect = id;
  options.gpu = gpu;
  options.instances = instances;
  LowerResult result = lowerSchedule(schedule, options);
  if (!result.program || !test::errorsOf(result.diagnostics).empty())
    qFatal("%s", qPrintable(test::describeDiagnostics(result.diagnostics)));
  return std::move(*result.program);
}

/// The threadblocks of the widest rank.
int widest(const Program& program)
{
  std::size_t most = 0;
  for (const Gpu& gpu : program.gpus)
    most = std::max(most, gpu.threadblocks.size());
  return static_cast<int>(most);
}

/// The whole checker for `gpu`, at `messages` messages per connection.
std::vector<Diagnostic> fullCheckErrors(const Program& program, DialectId id, GpuModelId gpu,
                                        int messages)
{
  CheckOptions check;
  check.dialect = id;
  check.gpu = gpu;
  check.fifoSlots = messages;
  return test::errorsOf(checkProgram(program, check));
}

bool hasCode(const std::vector<Diagnostic>& diagnostics, const std::string& code)
{
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [&](const Diagnostic& d) { return d.code == code; });
}

} // namespace

class Test_tbpacking : public QObject
{
  Q_OBJECT

private slots:
  void largestAllToAllFits_data();
  void largestAllToAllFits();
  void packedPairsMirrorEachOther();
  void fittingProgramsAreNotPacked();
  void packsPerInstance();
  void packedProgramRunsOnCpuExecutor();
};

void Test_tbpacking::largestAllToAllFits_data()
{
  QTest::addColumn<GpuModelId>("gpu");
  QTest::addColumn<DialectId>("dialect");
  for (const GpuModel& model : allGpuModels()) {
    if (model.vendor == GpuVendor::Nvidia)
      QTest::addRow("%s-executor", std::string(model.key).c_str())
          << model.id << DialectId::Executor;
  }
  // The classic runtime launches at most 216, RCCL 64 per rank: packing keeps within those too.
  QTest::addRow("v100-classic") << GpuModelId::V100 << DialectId::Classic;
  QTest::addRow("mi300x-rccl") << GpuModelId::Mi300x << DialectId::Rccl;
}

void Test_tbpacking::largestAllToAllFits()
{
  QFETCH(GpuModelId, gpu);
  QFETCH(DialectId, dialect);
  const int limit = std::min(residentThreadblocks(gpuModel(gpu), dialect),
                             cs::dialect(dialect).maxThreadblocksPerRank);
  const int ranks = limit + 1; // n-1 packed threadblocks per rank
  const Program packed = lowered(directAllToAll(ranks), dialect, gpu);
  QCOMPARE(widest(packed), limit);
  for (const int messages : {1, 2}) {
    const auto found = fullCheckErrors(packed, dialect, gpu, messages);
    QVERIFY2(found.empty(), qPrintable(test::describeDiagnostics(found)));
  }

  // One rank more cannot fit: a threadblock has one peer per direction. The residency check
  // says so, or the lowering itself where the runtime launches fewer blocks than the GPU keeps.
  LowerOptions options;
  options.dialect = dialect;
  options.gpu = gpu;
  const LowerResult over = lowerSchedule(directAllToAll(ranks + 1), options);
  QVERIFY(over.program);
  QCOMPARE(widest(*over.program), limit + 1);
  CheckOptions check;
  check.dialect = dialect;
  check.gpu = gpu;
  if (limit == cs::dialect(dialect).maxThreadblocksPerRank)
    QVERIFY(hasCode(over.diagnostics, "lower.threadblocks"));
  else
    QVERIFY(hasCode(checkResidencyOnly(*over.program, check), "limit.residency"));
}

void Test_tbpacking::packedPairsMirrorEachOther()
{
  // 81 ranks on a V100 (80 SMs): every threadblock pairs the send to r+k with the receive from
  // r-k and sends first, so every rank's send is out before anyone waits.
  const int n = 81;
  const Program packed = lowered(directAllToAll(n), DialectId::Executor, GpuModelId::V100);
  int pairs = 0;
  for (const Gpu& gpu : packed.gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks) {
      if (tb.send < 0 || tb.recv < 0)
        continue;
      ++pairs;
      QCOMPARE(((tb.send - gpu.id) % n + n) % n, ((gpu.id - tb.recv) % n + n) % n);
      const auto firstOf = [&](OpType type) {
        return std::find_if(tb.steps.begin(), tb.steps.end(),
                            [type](const Step& s) { return s.type == type; }) -
               tb.steps.begin();
      };
      QVERIFY(firstOf(OpType::Send) < firstOf(OpType::Recv));
    }
  }
  QCOMPARE(pairs, n * (n - 1));
}

void Test_tbpacking::fittingProgramsAreNotPacked()
{
  // 64 ranks need 127 threadblocks: an H100 SXM (132) keeps them all, a V100 (80) does not.
  const Schedule schedule = directAllToAll(64);
  const Program h100 = lowered(schedule, DialectId::Executor, GpuModelId::H100Sxm);
  QCOMPARE(widest(h100), 2 * 63 + 1);
  QVERIFY(h100 == lowered(schedule, DialectId::Executor, std::nullopt));
  const Program v100 = lowered(schedule, DialectId::Executor, GpuModelId::V100);
  QCOMPARE(widest(v100), 80); // packed only as far as the GPU needs
  const auto found = fullCheckErrors(v100, DialectId::Executor, GpuModelId::V100, 1);
  QVERIFY2(found.empty(), qPrintable(test::describeDiagnostics(found)));
}

void Test_tbpacking::packsPerInstance()
{
  // Two instances of 24 ranks need 2 x 47 threadblocks; a V100 keeps 80, 40 per instance.
  const Program packed = lowered(directAllToAll(24), DialectId::Executor, GpuModelId::V100, 2);
  QCOMPARE(widest(packed), 80);
  const auto found = fullCheckErrors(packed, DialectId::Executor, GpuModelId::V100, 1);
  QVERIFY2(found.empty(), qPrintable(test::describeDiagnostics(found)));
}

void Test_tbpacking::packedProgramRunsOnCpuExecutor()
{
  const int n = 41; // 81 threadblocks unpacked, 80 packed on a V100
  const Program packed = lowered(directAllToAll(n), DialectId::Executor, GpuModelId::V100);
  QCOMPARE(widest(packed), 80);
  ExecOptions options;
  options.bytes = std::int64_t{n} * 64 * 4;
  options.timeoutSeconds = 60;
  options.connectionSlots = 1;
  const ExecResult result = makeExecutor("cpu")->run(packed, options);
  QCOMPARE(execStatusName(result.status), std::string_view("verified"));
  QCOMPARE(result.wrong, 0);
  QVERIFY(result.checked > 0);
}

QTEST_GUILESS_MAIN(Test_tbpacking)
#include "tst_tbpacking.moc"
