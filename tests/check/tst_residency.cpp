// Residency (issue 18, item 2): the runtimes launch all threadblocks of a rank as one kernel and
// the blocks spin-wait on each other (msccl-format.md §4.5), so a rank with more threadblocks
// than the GPU keeps resident hangs. limit.residency judges that per GPU model; --gpu chooses the
// model on the command line and a design document may carry one.

#include "support/cli.h"

#include "catalogue/catalogue.h"
#include "check/checker.h"
#include "io/designdocument.h"
#include "model/gpumodel.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace cs;

Q_DECLARE_METATYPE(cs::GpuModelId)
Q_DECLARE_METATYPE(cs::DialectId)

namespace {

/// One rank (of one) with `tbs` empty threadblocks: nothing else for the other passes to judge
/// that could hide or mimic a residency finding.
Program rankWithThreadblocks(int tbs)
{
  Program program;
  program.ngpus = 1;
  Gpu gpu;
  for (int k = 0; k < tbs; ++k) {
    ThreadBlock tb;
    tb.id = k;
    gpu.threadblocks.push_back(tb);
  }
  program.gpus.push_back(gpu);
  return program;
}

std::vector<Diagnostic> residencyFindings(int tbs, DialectId dialect, std::optional<GpuModelId> gpu)
{
  CheckOptions options;
  options.dialect = dialect;
  options.gpu = gpu;
  options.semantic = false;
  std::vector<Diagnostic> found;
  for (const Diagnostic& d : checkProgram(rankWithThreadblocks(tbs), options)) {
    if (d.code.starts_with("limit.residency"))
      found.push_back(d);
  }
  return found;
}

const Diagnostic* errorOf(const std::vector<Diagnostic>& found)
{
  const auto it = std::find_if(found.begin(), found.end(), [](const Diagnostic& d) {
    return d.severity == Severity::Error && d.code == "limit.residency";
  });
  return it == found.end() ? nullptr : &*it;
}

QString sandboxPath(const QTemporaryDir& dir, const char* name)
{
  return dir.filePath(QString::fromLatin1(name));
}

} // namespace

class Test_residency : public QObject
{
  Q_OBJECT

private slots:
  void limitPerModel_data();
  void limitPerModel();
  void noGpuChosen();
  void spellings();
  void designDocumentKeepsTheGpu();
  void cliChoosesTheGpu();
};

void Test_residency::limitPerModel_data()
{
  QTest::addColumn<GpuModelId>("model");
  QTest::addColumn<DialectId>("dialect");
  QTest::addColumn<int>("units");
  // SM/CU counts from the vendors' data sheets, written out here rather than read from the
  // table under test; one block per unit is what the kernels' launch bounds promise.
  const struct {
    GpuModelId model;
    int units;
  } nvidia[] = {{GpuModelId::V100, 80},     {GpuModelId::A100, 108}, {GpuModelId::H100Pcie, 114},
                {GpuModelId::H100Sxm, 132}, {GpuModelId::H200, 132}, {GpuModelId::B200, 148}};
  for (const auto& row : nvidia) {
    for (const DialectId d : {DialectId::Executor, DialectId::Classic}) {
      QTest::addRow("%s %s", gpuModel(row.model).key.data(), dialect(d).key.data())
          << row.model << d << row.units;
    }
  }
  QTest::addRow("mi250x rccl") << GpuModelId::Mi250x << DialectId::Rccl << 110;
  QTest::addRow("mi300x rccl") << GpuModelId::Mi300x << DialectId::Rccl << 304;
  QCOMPARE(static_cast<int>(allGpuModels().size()), 8);
}

void Test_residency::limitPerModel()
{
  QFETCH(GpuModelId, model);
  QFETCH(DialectId, dialect);
  QFETCH(int, units);
  QCOMPARE(residentThreadblocks(gpuModel(model), dialect), units);

  QVERIFY(!errorOf(residencyFindings(units, dialect, model)));
  const std::vector<Diagnostic> over = residencyFindings(units + 1, dialect, model);
  const Diagnostic* error = errorOf(over);
  QVERIFY(error);
  const std::string message = error->message;
  QVERIFY2(message.find(std::to_string(units + 1) + " threadblocks") != std::string::npos,
           message.c_str());
  QVERIFY2(message.find(std::string(gpuModel(model).title)) != std::string::npos, message.c_str());
  QVERIFY2(message.find("at most " + std::to_string(units) + " threadblocks per rank fit") !=
               std::string::npos,
           message.c_str());
  QVERIFY2(message.find("hang") != std::string::npos, message.c_str());
}

void Test_residency::noGpuChosen()
{
  // Above the largest known NVIDIA GPU (B200, 148 SMs): an error whatever the GPU.
  const std::vector<Diagnostic> above = residencyFindings(1023, DialectId::Executor, std::nullopt);
  const Diagnostic* error = errorOf(above); // points into `above`
  QVERIFY(error);
  QVERIFY2(error->message.find("no GPU was chosen") != std::string::npos, error->message.c_str());
  QVERIFY2(error->message.find("B200") != std::string::npos, error->message.c_str());
  QVERIFY(!errorOf(residencyFindings(148, DialectId::Executor, std::nullopt)));
  QVERIFY(errorOf(residencyFindings(149, DialectId::Executor, std::nullopt)));

  // Between the smallest (V100, 80) and the largest: an info naming where it would hang.
  const std::vector<Diagnostic> between = residencyFindings(100, DialectId::Executor, {});
  QCOMPARE(between.size(), std::size_t{1});
  QCOMPARE(between.front().severity, Severity::Info);
  QCOMPARE(between.front().code, std::string("limit.residency-gpu"));
  QVERIFY2(between.front().message.find("V100 (80)") != std::string::npos,
           between.front().message.c_str());
  QVERIFY2(between.front().message.find("--gpu") != std::string::npos,
           between.front().message.c_str());
  // Within every known model: nothing to say.
  QVERIFY(residencyFindings(80, DialectId::Executor, {}).empty());
  // RCCL runs on AMD: the largest known is MI300X (304 CUs).
  QVERIFY(!errorOf(residencyFindings(304, DialectId::Rccl, {})));
  QVERIFY(errorOf(residencyFindings(305, DialectId::Rccl, {})));
}

void Test_residency::spellings()
{
  QCOMPARE(parseGpuModel("H100"), std::optional(GpuModelId::H100Sxm));
  QCOMPARE(parseGpuModel("h100-sxm"), std::optional(GpuModelId::H100Sxm));
  QCOMPARE(parseGpuModel("H100 PCIe"), std::optional(GpuModelId::H100Pcie));
  QCOMPARE(parseGpuModel("A100"), std::optional(GpuModelId::A100));
  QCOMPARE(parseGpuModel("MI300X"), std::optional(GpuModelId::Mi300x));
  QCOMPARE(parseGpuModel("mi250x"), std::optional(GpuModelId::Mi250x));
  QVERIFY(!parseGpuModel("H1000"));
  QVERIFY(!parseGpuModel(""));
  for (const GpuModel& model : allGpuModels())
    QCOMPARE(parseGpuModel(model.key), std::optional(model.id));
}

void Test_residency::designDocumentKeepsTheGpu()
{
  GeneratorOptions generator;
  generator.ranks = 4;
  const GenerateResult generated = generateAlgorithm("ring-allreduce", generator);
  QVERIFY(generated.schedule);
  DesignDocument document;
  document.schedule = *generated.schedule;
  for (const GpuModel& model : allGpuModels()) {
    document.gpu = model.id;
    const DesignReadResult read = readDesignDocument(writeDesignDocument(document));
    QVERIFY(read.document);
    QCOMPARE(read.document->gpu, std::optional(model.id));
    QVERIFY(*read.document == document);
  }
  // Documents written before the field existed load as "none chosen".
  document.gpu.reset();
  const std::string withoutGpu = writeDesignDocument(document);
  QVERIFY(withoutGpu.find("\"gpu\"") == std::string::npos);
  const DesignReadResult old = readDesignDocument(withoutGpu);
  QVERIFY(old.document);
  QVERIFY(!old.document->gpu);
  // An unknown model is refused with the known ones named.
  document.gpu = GpuModelId::A100;
  std::string unknown = writeDesignDocument(document);
  unknown.replace(unknown.find("\"a100\""), 6, "\"z900\"");
  const DesignReadResult refused = readDesignDocument(unknown);
  QVERIFY(!refused.document);
  QVERIFY(
      std::any_of(refused.diagnostics.begin(), refused.diagnostics.end(), [](const Diagnostic& d) {
        return d.code == "design.value" && d.message.find("z900") != std::string::npos &&
               d.message.find("mi300x") != std::string::npos;
      }));
}

void Test_residency::cliChoosesTheGpu()
{
  QTemporaryDir dir;
  QVERIFY(dir.isValid());
  // Direct all-to-all on 67 ranks: 2 x 66 + 1 = 133 threadblocks per rank for the executor,
  // one more than an H100 SXM's 132 SMs and within a B200's 148. For an H100 the lowering packs
  // sends with receives until the rank fits; on 82 ranks even fully packed a V100 (80 SMs) gets
  // 81.
  const QString xml = sandboxPath(dir, "a2a.xml");
  const QStringList generate = {"generate", "direct-alltoall", "--ranks", "67", "-o", xml};
  test::CliRun run = test::cstudio(generate + QStringList{"--gpu", "H100"});
  QCOMPARE(run.exitCode, 0);
  // Packed only as far as needed: 132 per rank, 67 x 132 in all.
  QVERIFY2(run.out.contains("8844 threadblocks"), qPrintable(run.out));
  QCOMPARE(test::cstudio({"validate", xml, "--gpu", "h100-sxm"}).exitCode, 0);
  const QString wide = sandboxPath(dir, "a2a-82.xml");
  run =
      test::cstudio({"generate", "direct-alltoall", "--ranks", "82", "--gpu", "V100", "-o", wide});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.err.contains("limit.residency") && run.err.contains("V100") &&
               run.err.contains("81 threadblocks"),
           qPrintable(run.err));
  QVERIFY(!QFileInfo::exists(wide));
  run = test::cstudio(generate + QStringList{"--gpu", "b200"});
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.out.contains("wrote") && QFileInfo::exists(xml), qPrintable(run.out));

  run = test::cstudio({"validate", xml, "--gpu", "h100-sxm"});
  QCOMPARE(run.exitCode, 1);
  QVERIFY2(run.out.contains("rank 0 has 133 threadblocks"), qPrintable(run.out));
  QVERIFY(test::cstudio({"validate", xml, "--gpu", "B200"}).exitCode == 0);
  run = test::cstudio({"validate", xml});
  QCOMPARE(run.exitCode, 0);
  QVERIFY2(run.out.contains("limit.residency-gpu"), qPrintable(run.out));
  run = test::cstudio({"info", xml, "--gpu", "H100"});
  QVERIFY2(run.out.contains("runtimes (on H100 SXM)") &&
               run.out.contains("executor: does not load"),
           qPrintable(run.out));
  run = test::cstudio({"validate", xml, "--gpu", "H1000"});
  QCOMPARE(run.exitCode, 2);
  QVERIFY2(run.err.contains("h100-sxm"), qPrintable(run.err));

  // A design document keeps the GPU it was generated for; --gpu overrides it.
  const QString design = sandboxPath(dir, "a2a.json");
  QCOMPARE(
      test::cstudio({"generate", "direct-alltoall", "--ranks", "82", "--gpu", "V100", "-o", design})
          .exitCode,
      0);
  QVERIFY(test::readFile(design).contains("\"gpu\": \"v100\""));
  QCOMPARE(test::cstudio({"validate", design}).exitCode, 1);
  QCOMPARE(test::cstudio({"validate", design, "--gpu", "b200"}).exitCode, 0);
  const QString exported = sandboxPath(dir, "out.xml");
  QCOMPARE(test::cstudio({"export", design, "-o", exported}).exitCode, 1);
  QVERIFY(!QFileInfo::exists(exported));
  QCOMPARE(test::cstudio({"export", design, "-o", exported, "--gpu", "b200"}).exitCode, 0);
}

QTEST_GUILESS_MAIN(Test_residency)
#include "tst_residency.moc"
