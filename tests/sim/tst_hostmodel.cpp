// The CPU executor's model in the simulator (issue 15): the fused reduction costed at
// SimOptions::fusedReduceGBps, the shared host of SimOptions::hostGBps counted in copy passes,
// the executor's copied sends and skipped copies (SimOptions::executor), the calibration fields
// that set them,
// and the one slice definition the simulator and the executors share.

#include "simtestutil.h"

#include "catalogue/catalogue.h"
#include "compile/lower.h"
#include "exec/executor.h"
#include "exec/plan/executorcosts.h"
#include "model/fifodepth.h"
#include "model/topologypresets.h"
#include "sim/calibration.h"
#include "sim/simulator.h"

#include <QTest>

#include <algorithm>
#include <optional>

using namespace cs;
using namespace cs::test;

namespace {

constexpr std::int64_t kBytes = std::int64_t{16} << 20;

SimOptions plainOptions()
{
  SimOptions options;
  options.bytes = kBytes;
  options.protocol = defaultProtocolParams(Protocol::Simple);
  options.protocol->setUniformLatency(0);
  return options;
}

/// rank 0 → rank 1 → rank 2 with a fused receive-reduce-send on rank 1, one chunk.
Program reducingChain()
{
  Program program = emptyProgram(3, 1);
  addStep(addThreadblock(program, 0, 1, -1), OpType::Send, 0);
  addStep(addThreadblock(program, 1, 2, 0), OpType::RecvReduceSend, 0);
  addStep(addThreadblock(program, 2, -1, 1), OpType::Recv, 0);
  return program;
}

/// `ranks` ranks, each one local cpy (or re) of the whole chunk, all at once.
Program concurrentCopies(int ranks, OpType type = OpType::Copy)
{
  Program program = emptyProgram(8, 1);
  for (int r = 0; r < ranks; ++r)
    addStep(addThreadblock(program, r, -1, -1), type, 0);
  return program;
}

/// rank 0 sends the chunk to rank 1.
Program oneTransfer()
{
  Program program = emptyProgram(2, 1);
  addStep(addThreadblock(program, 0, 1, -1), OpType::Send, 0);
  addStep(addThreadblock(program, 1, -1, 0), OpType::Recv, 0);
  return program;
}

Program catalogueProgram(const char* key, int ranks)
{
  const GenerateResult generated = generateAlgorithm(key, {ranks, 1, 0});
  return *lowerSchedule(*generated.schedule, {}).program;
}

double timeOf(const Program& program, const SimOptions& options)
{
  const SimResult result =
      simulateProgram(program, *makePresetTopology("ring-8", {100, 0}), options);
  return result.ok ? result.timeUs : -1;
}

} // namespace

class TestHostModel : public QObject
{
  Q_OBJECT

private slots:
  void fusedReductionCostsItsBandwidth()
  {
    const Program program = reducingChain();
    const double free = timeOf(program, plainOptions());
    QVERIFY(free > 0);
    for (const double reduceGBps : {1.0, 10.0}) {
      SimOptions options = plainOptions();
      options.fusedReduceGBps = reduceGBps;
      const double costed = timeOf(program, options);
      // Rank 1 reduces every byte before it forwards it: at least S/R more, in series.
      const double reduceUs = static_cast<double>(kBytes) / (reduceGBps * 1e3);
      QVERIFY2(costed >= free + reduceUs * (1 - 1e-9),
               qPrintable(QString("%1 vs %2 + %3").arg(costed).arg(free).arg(reduceUs)));
    }
  }

  void plainReceivesIgnoreTheFusedReduction()
  {
    const Program program = oneTransfer();
    SimOptions options = plainOptions();
    const double free = timeOf(program, options);
    options.fusedReduceGBps = 1;
    QCOMPARE(timeOf(program, options), free);
  }

  void sharedHostTimeSharesConcurrentCopies()
  {
    SimOptions options = plainOptions();
    options.localGBps = 10;
    const double alone = timeOf(concurrentCopies(1), options);
    QVERIFY(alone > 0);
    // Without a host model the eight copies run side by side.
    QCOMPARE(timeOf(concurrentCopies(8), options), alone);
    options.hostGBps = 10; // the host moves what one copy can: eight share it
    QCOMPARE(timeOf(concurrentCopies(1), options), alone);
    QVERIFY(qFuzzyCompare(timeOf(concurrentCopies(8), options), 8 * alone));
    options.hostGBps = 40;
    QVERIFY(qFuzzyCompare(timeOf(concurrentCopies(8), options), 2 * alone));
  }

  void hostCountsCopyPasses()
  {
    // A re twice as fast as a copy is half a copy pass of the host: eight at once on a host that
    // moves one copy's worth take four copies' time, not eight (each alone still takes bytes/20).
    SimOptions options = plainOptions();
    options.localGBps = 10;
    options.localReduceGBps = 20;
    options.hostGBps = 10;
    const double copy = timeOf(concurrentCopies(1), options);
    QVERIFY(copy > 0);
    QVERIFY(qFuzzyCompare(timeOf(concurrentCopies(1, OpType::Reduce), options), copy / 2));
    QVERIFY(qFuzzyCompare(timeOf(concurrentCopies(8, OpType::Reduce), options), 4 * copy));
  }

  void copiedSendsCostTheSenderACopy()
  {
    const Program program = oneTransfer();
    SimOptions options = plainOptions();
    options.localGBps = 10;
    const double plain = timeOf(program, options); // 100 GB/s, no latency
    QVERIFY(plain > 0);
    options.executor.sendCopies = {{0, 0, 0, 1.0}};
    QCOMPARE(timeOf(program, options), plain); // without a host model nothing copies
    options.hostGBps = 1000;                   // a host that limits nothing here
    // Each piece is copied, then sent, by the same threadblock: the copies add up in series.
    const double copyUs = static_cast<double>(kBytes) / (10 * 1e3);
    QVERIFY(qFuzzyCompare(timeOf(program, options), plain + copyUs));
    options.executor.sendCopies.front().passes = 0.5;
    QVERIFY(qFuzzyCompare(timeOf(program, options), plain + copyUs / 2));
    options.executor.sendCopies.front().rank = 1; // rank 1 sends nothing: no cost
    QCOMPARE(timeOf(program, options), plain);
  }

  void cpuSendCopiesAreTheExecutorsCopies()
  {
    // Halving-doubling sends chunks that another threadblock of the rank reduces into, or that
    // the same threadblock receives into later: the executor copies every s into its connection,
    // and its rrcs, whose result another threadblock overwrites, writes that result twice.
    const Program hd = catalogueProgram("halving-doubling-allreduce", 8);
    const std::vector<SendCopy> copies = plan::cpuExecutorCosts(hd, {}).sendCopies;
    int sends = 0;
    for (const Gpu& gpu : hd.gpus)
      for (const ThreadBlock& tb : gpu.threadblocks)
        sends +=
            static_cast<int>(std::count_if(tb.steps.begin(), tb.steps.end(),
                                           [](const Step& s) { return s.type == OpType::Send; }));
    QVERIFY(sends > 0);
    int copiedSends = 0;
    for (const SendCopy& copy : copies) {
      const OpType type = hd.gpus[copy.rank].threadblocks[copy.tb].steps[copy.step].type;
      QCOMPARE(copy.passes, type == OpType::Send ? 1.0 : 0.5);
      QVERIFY(type == OpType::Send || type == OpType::RecvReduceCopySend);
      copiedSends += type == OpType::Send ? 1 : 0;
    }
    QCOMPARE(copiedSends, sends);
    // The ring all-reduce forwards in place and reduces straight into its connection (rrs); only
    // its first send copies, as the all-gather half receives into that chunk later.
    const std::vector<SendCopy> ring =
        plan::cpuExecutorCosts(catalogueProgram("ring-allreduce", 8), {}).sendCopies;
    QCOMPARE(ring.size(), std::size_t{8});
    for (const SendCopy& copy : ring)
      QVERIFY(copy.tb == 0 && copy.step == 0 && copy.passes == 1.0);
    // Only a calibration of the CPU executor's shared host asks for them.
    Calibration cpu;
    cpu.hostGBps = 16;
    QCOMPARE(plan::calibratedExecutorCosts(&cpu, hd, kBytes).sendCopies.size(), copies.size());
    cpu.hostGBps = 0;
    QVERIFY(plan::calibratedExecutorCosts(&cpu, hd, kBytes).sendCopies.empty());
    QVERIFY(plan::calibratedExecutorCosts(nullptr, hd, kBytes).sendCopies.empty());
  }

  void copiedSendsIntoCachedSlotsCostNothing()
  {
    // At 64 MiB the binomial broadcast copies one send, into one connection: its slots (2 × a
    // 2 MiB slice) fit half a 32 MiB cache (the other half streams the data beside them), and the
    // receiver reads the copy back from it. Halving-doubling copies into three connections per
    // rank, many times that: its copies go through memory and cost their pass.
    ExecOptions options;
    options.bytes = std::int64_t{64} << 20;
    const Program broadcast = catalogueProgram("binomial-broadcast", 8);
    const Program hd = catalogueProgram("halving-doubling-allreduce", 8);
    const std::int64_t broadcastSlots = plan::copiedSlotBytes(broadcast, options);
    QCOMPARE(broadcastSlots,
             connectionSlots(Protocol::Simple) * runtimeSliceBytes(Protocol::Simple));
    const std::vector<SendCopy> copies = plan::cpuExecutorCosts(broadcast, options).sendCopies;
    QCOMPARE(copies.size(), std::size_t{1});
    QVERIFY(plan::cpuExecutorCosts(broadcast, options, 2 * broadcastSlots).sendCopies.empty());
    QCOMPARE(plan::cpuExecutorCosts(broadcast, options, 2 * broadcastSlots - 1).sendCopies.size(),
             copies.size());
    QVERIFY(plan::copiedSlotBytes(hd, options) > std::int64_t{64} << 20);
    // The skipped copies do not depend on the cache.
    QCOMPARE(plan::cpuExecutorCosts(broadcast, options, 2 * broadcastSlots).skippedCopies.size(),
             plan::cpuExecutorCosts(broadcast, options).skippedCopies.size());
    // A calibration carries the cache it was measured with: with the development host's 32 MiB,
    // of the 8-rank catalogue only the two binomial trees copy into few enough connections.
    Calibration cpu;
    cpu.hostGBps = 16;
    cpu.hostCacheBytes = std::int64_t{32} << 20;
    QVERIFY(plan::calibratedExecutorCosts(&cpu, broadcast, options.bytes).sendCopies.empty());
    QVERIFY(
        plan::calibratedExecutorCosts(&cpu, catalogueProgram("binomial-reduce", 8), options.bytes)
            .sendCopies.empty());
    for (const char* key :
         {"ring-allreduce", "halving-doubling-allreduce", "torus2d-allreduce", "bruck-alltoall"}) {
      const Program program = catalogueProgram(key, 8);
      const std::size_t uncached = plan::cpuExecutorCosts(program, options).sendCopies.size();
      QVERIFY2(uncached > 0, key);
      QCOMPARE(plan::calibratedExecutorCosts(&cpu, program, options.bytes).sendCopies.size(),
               uncached);
    }
    cpu.hostCacheBytes = 0; // not measured: every copied send costs its pass
    QCOMPARE(plan::calibratedExecutorCosts(&cpu, broadcast, options.bytes).sendCopies.size(),
             copies.size());
    // No copied send, no slots to count.
    QCOMPARE(plan::copiedSlotBytes(catalogueProgram("chain-broadcast", 8), options),
             std::int64_t{0});
  }

  void skippedCopiesTakeNoTime()
  {
    // Four ranks copy at once on a shared host; the executor skips rank 2's copy, which then
    // neither takes time nor a share of the host: the others still take four copies' time at
    // first, then share the host three ways.
    SimOptions options = plainOptions();
    options.localGBps = 10;
    const Program copies = concurrentCopies(4);
    const double alone = timeOf(concurrentCopies(1), options);
    QVERIFY(alone > 0);
    options.executor.skippedCopies = {{0, 0, 0}};
    QVERIFY(qFuzzyCompare(timeOf(copies, options), alone)); // the other three still copy
    options.executor.skippedCopies = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
    QCOMPARE(timeOf(copies, options), 0.0);
    options.hostGBps = 10; // one copy's worth: four copies take four times as long
    options.executor.skippedCopies.clear();
    QVERIFY(qFuzzyCompare(timeOf(copies, options), 4 * alone));
    options.executor.skippedCopies = {{2, 0, 0}, {5, 0, 0}, {1, 0, 7}}; // the last two: no step
    QVERIFY(qFuzzyCompare(timeOf(copies, options), 3 * alone));
  }

  void cpuSkippedCopiesAreTheInPlaceOnes()
  {
    // The ring all-gather copies each rank's input into its own chunk of the output: in place
    // (the executor's default call mode) the input is that chunk, and the executor skips the
    // copy; out of place it copies. Every cpy the plan skips is one the program has.
    const Program allgather = catalogueProgram("ring-allgather", 8);
    ExecOptions inPlace;
    inPlace.mode = CallMode::InPlace;
    const std::vector<StepSite> skipped = plan::cpuExecutorCosts(allgather, inPlace).skippedCopies;
    QCOMPARE(skipped.size(), std::size_t{8});
    for (const StepSite& site : skipped) {
      const ThreadBlock& tb = allgather.gpus[site.rank].threadblocks[site.tb];
      QCOMPARE(tb.steps[site.step].type, OpType::Copy);
    }
    ExecOptions outOfPlace;
    outOfPlace.mode = CallMode::OutOfPlace;
    QVERIFY(plan::cpuExecutorCosts(allgather, outOfPlace).skippedCopies.empty());
  }

  void sharedHostLimitsTransfers()
  {
    const Program program = oneTransfer();
    SimOptions options = plainOptions();
    const double linkBound = timeOf(program, options); // 100 GB/s links without latency
    options.hostGBps = 25;
    QVERIFY(qFuzzyCompare(timeOf(program, options), 4 * linkBound));
  }

  void badHostFiguresAreRefused()
  {
    SimOptions options = plainOptions();
    options.hostGBps = 0;
    const SimResult result =
        simulateProgram(concurrentCopies(1), *makePresetTopology("ring-8", {}), options);
    QVERIFY(!result.ok);
    QCOMPARE(QString::fromStdString(result.diagnostics.front().code), "sim.bad-parameters");
  }

  void calibrationCarriesTheHostModel()
  {
    Calibration calibration;
    calibration.backend = "cpu";
    calibration.links = {{LinkKind::NvLink, 0, 4, 1}};
    calibration.hostGBps = 16;
    calibration.fusedReduceGBps = 8;
    calibration.hostCacheBytes = std::int64_t{32} << 20;
    const CalibrationReadResult read = readCalibrationJson(writeCalibrationJson(calibration));
    QVERIFY2(read.calibration, read.error.c_str());
    QCOMPARE(read.calibration->hostGBps, 16.0);
    QCOMPARE(read.calibration->fusedReduceGBps, 8.0);
    QCOMPARE(read.calibration->hostCacheBytes, std::int64_t{32} << 20);
    Topology topology = *makePresetTopology("ring-8", {});
    SimOptions options;
    QVERIFY(!applyCalibration(*read.calibration, topology, options, Protocol::Simple));
    QCOMPARE(options.hostGBps.value_or(0), 16.0);
    QCOMPARE(options.fusedReduceGBps.value_or(0), 8.0);
    // A GPU calibration (no shared host, free fused reduction) leaves both unset.
    calibration.hostGBps = 0;
    calibration.fusedReduceGBps = 0;
    SimOptions gpu;
    QVERIFY(!applyCalibration(calibration, topology, gpu, Protocol::Simple));
    QVERIFY(!gpu.hostGBps && !gpu.fusedReduceGBps);
  }

  void oneSliceDefinition()
  {
    for (const Protocol protocol : {Protocol::Simple, Protocol::LL, Protocol::LL128}) {
      QCOMPARE(defaultSliceBytes(protocol), runtimeSliceBytes(protocol));
      QCOMPARE(defaultProtocolParams(protocol).sliceBytes, runtimeSliceBytes(protocol));
    }
    QCOMPARE(runtimeSliceBytes(Protocol::Simple), kMscclChunkSteps * kSimpleStepBytes);
  }
};

QTEST_GUILESS_MAIN(TestHostModel)
#include "tst_hostmodel.moc"
