#pragma once

// The executor test matrix over the corpus (issue 4, item 7), shared by the CPU executor's test
// and the GPU executor's (emulated and on a GPU): three sizes (one element per chunk; several
// slices of a chunk whose element count is no power of two, the last slice shorter; a medium size
// with the protocol's own slices) × two (type, reduction) pairs × every call mode the file
// declares. The verdict must be the one MANIFEST.md records for the file:
// - "post PASS": 0 wrong elements;
// - "post FAIL" (allreduce_a100_pcie_hierarchical_*, pipeline_a100_ring_*): #wrong > 0 with the
//   sum; with max, double-counted contributions are invisible, so only "ran to the end";
// - custom collectives ("post n/a"): no verification, and the run must not hang. This includes
//   alltonext_forward_*, whose in-place use races on rank 1 (write/write on i[0] by tbs 0 and 1
//   without ordering): what it computes depends on scheduling, so nothing about data is asserted.

#include "exec/executor.h"
#include "support/corpus.h"

#include <QTest>

#include <functional>
#include <numeric>

namespace cs::test {

/// Whether this build runs under sanitizers (CSTUDIO_SANITIZE; set by tests/CMakeLists.txt).
#ifdef CSTUDIO_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

struct CorpusTypeOp {
  DataType type;
  ReduceOp op;
  const char* name;
};
inline constexpr CorpusTypeOp kCorpusPairs[] = {{DataType::I32, ReduceOp::Sum, "i32-sum"},
                                                {DataType::F32, ReduceOp::Max, "f32-max"}};

struct CorpusSize {
  const char* name;
  std::int64_t chunkElements; ///< before rounding for the rank shares
  std::int64_t sliceElements; ///< 0: the protocol's slice
};
inline constexpr CorpusSize kCorpusSizes[] = {
    {"tiny", 1, 0}, {"sliced", 150, 64}, {"medium", 1536, 0}};

/// Rows "path", "expected" for every corpus file (skips without the corpus).
inline void addCorpusRows()
{
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("expected");
  const auto manifest = readManifest();
  for (const QString& path : corpusFiles()) {
    const QString name = path.section('/', -1);
    QVERIFY2(manifest.contains(name), qPrintable(name + " is not in MANIFEST.md"));
    QTest::newRow(qPrintable(name)) << path << manifest[name].value("expected");
  }
}

/// Runs `path` through the matrix on `executor`; `adjust` may change each run's options.
inline void checkCorpusFile(Executor& executor, const QString& path, const QString& expected,
                            const std::function<void(ExecOptions&)>& adjust = {})
{
  const Program program = loadProgram(path);
  const bool pass = expected.startsWith("post PASS");
  const bool fail = expected.contains("post FAIL");
  const bool custom = expected.contains("post n/a");
  QVERIFY2(pass || fail || custom, qPrintable("unknown verdict: " + expected));
  const int mult = sizeMultiplier(program.collective, program.ngpus);
  // Chunk element counts must make count × mult split evenly (msccl-format.md §4.1).
  const std::int64_t step = mult / std::gcd<std::int64_t>(program.nchunksperloop, mult);
  for (const CorpusSize& size : kCorpusSizes) {
    const std::int64_t chunkElements = (size.chunkElements + step - 1) / step * step;
    for (const CorpusTypeOp& pair : kCorpusPairs) {
      for (const CallMode mode : declaredModes(program)) {
        ExecOptions options;
        options.dtype = pair.type;
        options.op = pair.op;
        options.mode = mode;
        options.bytes = chunkElements * program.nchunksperloop * dataTypeSize(pair.type);
        if (size.sliceElements > 0)
          options.sliceBytes = size.sliceElements * dataTypeSize(pair.type);
        // A sanitized build runs the host emulation's hundreds of threads ten times slower on
        // two cores: the watchdog's "no progress" window must not mistake that for a hang.
        options.timeoutSeconds = kSanitized ? 60 : 10;
        if (adjust)
          adjust(options);
        const ExecResult result = executor.run(program, options);
        const QString what =
            QString("%1, %2, %3, %4 bytes: %5 (%6 wrong; %7)")
                .arg(size.name, pair.name, QString::fromStdString(std::string(callModeName(mode))))
                .arg(options.bytes)
                .arg(QString::fromStdString(std::string(execStatusName(result.status))))
                .arg(result.wrong)
                .arg(result.diagnostics.empty()
                         ? QString()
                         : QString::fromStdString(result.diagnostics.front().message));
        QCOMPARE(result.chunkElements, chunkElements);
        if (size.sliceElements > 0)
          QVERIFY2(result.slices == 3, qPrintable(what));
        if (pass) {
          QVERIFY2(result.status == ExecStatus::Verified, qPrintable(what));
          QVERIFY2(result.checked > 0, qPrintable(what));
        } else if (custom) {
          QVERIFY2(result.status == ExecStatus::NotVerified, qPrintable(what));
        } else if (pair.op == ReduceOp::Sum) {
          QVERIFY2(result.status == ExecStatus::Wrong && result.wrong > 0, qPrintable(what));
        } else {
          QVERIFY2(result.status == ExecStatus::Wrong || result.status == ExecStatus::Verified,
                   qPrintable(what));
        }
      }
    }
  }
}

} // namespace cs::test
