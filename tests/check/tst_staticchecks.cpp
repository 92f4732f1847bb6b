// The static passes (structure, limits, selection, matching, dependencies): every code on a
// program that differs from a correct one by one edit, per dialect where the rule depends on the
// runtime, plus the corpus expectations of MANIFEST.md.

#include "catalogue/ringallreduce.h"
#include "check/passes_p.h"
#include "model/dialect.h"
#include "support/corpus.h"
#include "support/mutate.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTest>
#include <QTextStream>

#include <algorithm>
#include <climits>
#include <functional>
#include <map>
#include <random>
#include <tuple>

using namespace cs;

namespace {

/// One edit on a Program (a QTest column needs a metatype).
struct Edit {
  std::function<void(Program&)> apply;
};

enum class Base { Ring, Deps, Star, BigBuffers };

using test::makeStep;

Step nopStep(int depid, int deps)
{
  return makeStep(OpType::Nop, Buffer::Input, -1, Buffer::Output, -1, 0, depid, deps);
}

/// The in-place ring all-reduce on 4 ranks with an explicit maxBytes, so that every runtime
/// generation accepts it. Per rank one tb (id 0, chan 0): s, rrs, rrs, rrcs, rcs, rcs, r.
Program ring()
{
  Program program = makeRingAllReduce({.ranks = 4, .channels = 1});
  program.maxBytes = std::int64_t{1} << 30;
  return program;
}

/// Two ranks exchanging two chunks, reduced by a third threadblock that waits with a nop and
/// dependencies. Per rank r (peer p = 1 - r):
///   tb 0 (send p): s i[0]; s i[1] hasdep
///   tb 1 (recv p): r s[0] hasdep; r s[1] hasdep
///   tb 2 (local):  nop (wait tb 0 step 1); re s[0] -> i[0] (wait tb 1 step 0);
///                  re s[1] -> i[1] (wait tb 1 step 1)
Program deps()
{
  Program program;
  program.name = "deps_allreduce_2r";
  program.proto = Protocol::Simple;
  program.nchannels = 1;
  program.nchunksperloop = 2;
  program.ngpus = 2;
  program.collective = Collective::AllReduce;
  program.collSpelling = "allreduce";
  program.inplace = true;
  program.outofplace = false;
  program.minBytes = 0;
  program.maxBytes = std::int64_t{1} << 30;
  for (int rank = 0; rank < 2; ++rank) {
    const int peer = 1 - rank;
    Gpu gpu;
    gpu.id = rank;
    gpu.inputChunks = 2;
    gpu.scratchChunks = 2;
    ThreadBlock sender{.id = 0, .send = peer, .recv = -1, .chan = 0, .steps = {}, .line = 0};
    sender.steps = {makeStep(OpType::Send, Buffer::Input, 0, Buffer::Scratch, 0),
                    makeStep(OpType::Send, Buffer::Input, 1, Buffer::Scratch, 1, 1, -1, -1, true)};
    ThreadBlock receiver{.id = 1, .send = -1, .recv = peer, .chan = 0, .steps = {}, .line = 0};
    receiver.steps = {
        makeStep(OpType::Recv, Buffer::Input, 0, Buffer::Scratch, 0, 1, -1, -1, true),
        makeStep(OpType::Recv, Buffer::Input, 1, Buffer::Scratch, 1, 1, -1, -1, true)};
    ThreadBlock local{.id = 2, .send = -1, .recv = -1, .chan = 0, .steps = {}, .line = 0};
    local.steps = {nopStep(0, 1),
                   makeStep(OpType::Reduce, Buffer::Scratch, 0, Buffer::Input, 0, 1, 1, 0),
                   makeStep(OpType::Reduce, Buffer::Scratch, 1, Buffer::Input, 1, 1, 1, 1)};
    gpu.threadblocks = {sender, receiver, local};
    program.gpus.push_back(gpu);
  }
  test::renumberSteps(program);
  return program;
}

/// A broadcast from rank 0 to 33 others, one threadblock per peer: 32 send peers on channel 0
/// and the last one (rank 33) on channel 1, the most the runtimes allow per channel.
Program star()
{
  constexpr int kRanks = 34;
  Program program;
  program.name = "star_broadcast";
  program.nchannels = 2;
  program.nchunksperloop = 1;
  program.ngpus = kRanks;
  program.collective = Collective::Broadcast;
  program.collSpelling = "broadcast";
  program.inplace = false;
  program.outofplace = true;
  program.minBytes = 0;
  program.maxBytes = std::int64_t{1} << 30;
  Gpu root;
  root.id = 0;
  root.inputChunks = 1;
  for (int peer = 1; peer < kRanks; ++peer) {
    ThreadBlock tb{.id = peer - 1,
                   .send = peer,
                   .recv = -1,
                   .chan = peer == kRanks - 1 ? 1 : 0,
                   .steps = {},
                   .line = 0};
    tb.steps = {makeStep(OpType::Send, Buffer::Input, 0, Buffer::Output, 0)};
    root.threadblocks.push_back(tb);
  }
  program.gpus.push_back(root);
  for (int rank = 1; rank < kRanks; ++rank) {
    Gpu gpu;
    gpu.id = rank;
    gpu.outputChunks = 1;
    ThreadBlock tb{
        .id = 0, .send = -1, .recv = 0, .chan = rank == kRanks - 1 ? 1 : 0, .steps = {}, .line = 0};
    tb.steps = {makeStep(OpType::Recv, Buffer::Input, 0, Buffer::Output, 0)};
    gpu.threadblocks.push_back(tb);
    program.gpus.push_back(gpu);
  }
  test::renumberSteps(program);
  return program;
}

/// The ring with 40000 chunks per loop, so that offsets beyond int16 stay inside the buffer.
Program bigBuffers()
{
  Program program = ring();
  program.nchunksperloop = 40000;
  for (Gpu& gpu : program.gpus)
    gpu.inputChunks = 40000;
  return program;
}

Program makeBase(Base base)
{
  switch (base) {
  case Base::Ring:
    return ring();
  case Base::Deps:
    return deps();
  case Base::Star:
    return star();
  case Base::BigBuffers:
    return bigBuffers();
  }
  return {};
}

std::vector<Diagnostic> runStatic(const Program& program, DialectId id)
{
  const Dialect& target = dialect(id);
  Diagnostics out;
  passes::checkStructure(program, target, out);
  passes::checkLimits(program, target, out);
  passes::checkSelection(program, target, out);
  passes::checkMatching(program, out);
  passes::checkDependencies(program, out);
  return out.take();
}

std::vector<const Diagnostic*> withCode(const std::vector<Diagnostic>& diagnostics,
                                        std::string_view code)
{
  std::vector<const Diagnostic*> found;
  for (const Diagnostic& d : diagnostics) {
    if (d.code == code)
      found.push_back(&d);
  }
  return found;
}

QStringList errorCodes(const std::vector<Diagnostic>& diagnostics)
{
  QStringList codes;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity != Severity::Error)
      continue;
    QString code = QString::fromStdString(d.code);
    if (d.code == "format.missing-attribute")
      code += ':' + QString::fromStdString(d.location.attribute);
    if (!codes.contains(code))
      codes << code;
  }
  codes.sort();
  return codes;
}

ThreadBlock localTb(int id)
{
  ThreadBlock tb{.id = id, .send = -1, .recv = -1, .chan = 0, .steps = {}, .line = 0};
  tb.steps = {makeStep(OpType::Copy, Buffer::Input, 0, Buffer::Input, 1)};
  return tb;
}

void appendCopies(Program& program, int rank, int tbId, int count)
{
  for (int i = 0; i < count; ++i)
    test::insertStep(program, rank, tbId, -1,
                     makeStep(OpType::Copy, Buffer::Input, 0, Buffer::Input, 1));
}

void addLocalTbs(Program& program, int rank, int count)
{
  std::vector<ThreadBlock>& tbs = program.gpus[static_cast<std::size_t>(rank)].threadblocks;
  const int first = static_cast<int>(tbs.size());
  for (int i = 0; i < count; ++i)
    tbs.push_back(localTb(first + i));
}

/// The raw MANIFEST.md line of a corpus file (the runtime-compatibility cell may itself contain
/// a '|', which the table reader splits).
QString manifestLine(const QString& fileName)
{
  QFile file(test::corpusPath("MANIFEST.md"));
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
    return {};
  QTextStream stream(&file);
  const QString prefix = "| " + fileName + " |";
  while (!stream.atEnd()) {
    const QString line = stream.readLine();
    if (line.startsWith(prefix))
      return line;
  }
  return {};
}

} // namespace

Q_DECLARE_METATYPE(Edit)
Q_DECLARE_METATYPE(Base)
Q_DECLARE_METATYPE(cs::DialectId)
Q_DECLARE_METATYPE(cs::Severity)

class Test_staticchecks : public QObject
{
  Q_OBJECT

private slots:
  void basesAreClean_data();
  void basesAreClean();
  void brokenVariant_data();
  void brokenVariant();
  void missingAttributeMessage();
  void crossRankCycle();
  void truncation();
  void robustness();
  void corpusDetectedDialect_data();
  void corpusDetectedDialect();
  void corpusManifest_data();
  void corpusManifest();
};

void Test_staticchecks::basesAreClean_data()
{
  QTest::addColumn<Base>("base");
  QTest::addColumn<DialectId>("dialectId");
  const std::pair<const char*, Base> bases[] = {{"ring", Base::Ring},
                                                {"deps", Base::Deps},
                                                {"star", Base::Star},
                                                {"big-buffers", Base::BigBuffers}};
  for (const auto& [name, base] : bases) {
    for (const DialectId id : allDialects()) {
      const std::string key(dialect(id).key);
      QTest::newRow(qPrintable(QString("%1 %2").arg(name, key.c_str()))) << base << id;
    }
  }
}

void Test_staticchecks::basesAreClean()
{
  QFETCH(Base, base);
  QFETCH(DialectId, dialectId);
  const std::vector<Diagnostic> diagnostics = runStatic(makeBase(base), dialectId);
  QVERIFY2(diagnostics.empty(), qPrintable(test::describeDiagnostics(diagnostics)));
}

void Test_staticchecks::brokenVariant_data()
{
  QTest::addColumn<Base>("base");
  QTest::addColumn<DialectId>("dialectId");
  QTest::addColumn<Edit>("edit");
  QTest::addColumn<QString>("code");
  QTest::addColumn<bool>("present");
  QTest::addColumn<Severity>("severity");
  QTest::addColumn<int>("rank");
  QTest::addColumn<int>("tb");
  QTest::addColumn<int>("step");
  QTest::addColumn<QString>("attribute");

  using test::stepAt;
  using test::threadblockAt;
  const DialectId classic = DialectId::Classic;
  const DialectId executor = DialectId::Executor;
  const DialectId rccl = DialectId::Rccl;
  const Severity error = Severity::Error;
  const Severity warning = Severity::Warning;
  const Severity info = Severity::Info;

  // A row expecting `code` with this severity at exactly (rank, tb, step) and attribute.
  auto expect = [](const char* name, Base base, DialectId id, std::function<void(Program&)> edit,
                   const char* code, Severity severity, int rank, int tb, int step,
                   const char* attribute = "") {
    QTest::newRow(name) << base << id << Edit{std::move(edit)} << QString(code) << true << severity
                        << rank << tb << step << QString(attribute);
  };
  // A row expecting that `code` does not appear at all (the rule belongs to other runtimes).
  auto absent = [](const char* name, Base base, DialectId id, std::function<void(Program&)> edit,
                   const char* code) {
    QTest::newRow(name) << base << id << Edit{std::move(edit)} << QString(code) << false
                        << Severity::Error << -1 << -1 << -1 << QString();
  };

  // ---- structure
  expect(
      "structure.ngpus count", Base::Ring, executor, [](Program& p) { p.ngpus = 5; },
      "structure.ngpus", error, -1, -1, -1, "ngpus");
  expect(
      "structure.ngpus duplicate id", Base::Ring, executor, [](Program& p) { p.gpus[3].id = 2; },
      "structure.ngpus", error, 2, -1, -1, "id");
  expect(
      "structure.ngpus id out of range", Base::Ring, executor, [](Program& p) { p.gpus[3].id = 9; },
      "structure.ngpus", error, 9, -1, -1, "id");
  expect(
      "structure.tb-ids missing", Base::Deps, executor,
      [](Program& p) { threadblockAt(p, 0, 2).id = 3; }, "structure.tb-ids", error, 0, -1, -1);
  expect(
      "structure.tb-ids duplicate", Base::Deps, executor,
      [](Program& p) { threadblockAt(p, 1, 2).id = 1; }, "structure.tb-ids", error, 1, 1, -1, "id");
  expect(
      "structure.tb-ids negative", Base::Deps, executor,
      [](Program& p) { threadblockAt(p, 1, 2).id = -2; }, "structure.tb-ids", error, 1, -2, -1,
      "id");
  expect(
      "structure.peer own rank", Base::Ring, executor,
      [](Program& p) { threadblockAt(p, 0, 0).send = 0; }, "structure.peer", error, 0, 0, -1,
      "send");
  expect(
      "structure.peer out of range", Base::Ring, executor,
      [](Program& p) { threadblockAt(p, 2, 0).recv = 7; }, "structure.peer", error, 2, 0, -1,
      "recv");
  expect(
      "structure.peer below -1", Base::Ring, executor,
      [](Program& p) { threadblockAt(p, 1, 0).send = -2; }, "structure.peer", error, 1, 0, -1,
      "send");
  expect(
      "structure.channel too large", Base::Ring, executor,
      [](Program& p) { threadblockAt(p, 0, 0).chan = 1; }, "structure.channel", error, 0, 0, -1,
      "chan");
  expect(
      "structure.channel negative", Base::Ring, executor,
      [](Program& p) { threadblockAt(p, 3, 0).chan = -1; }, "structure.channel", error, 3, 0, -1,
      "chan");
  expect(
      "structure.duplicate-connection send", Base::Deps, executor,
      [](Program& p) {
        ThreadBlock extra{.id = 3, .send = 1, .recv = -1, .chan = 0, .steps = {}, .line = 0};
        extra.steps = {makeStep(OpType::Send, Buffer::Input, 0, Buffer::Scratch, 0)};
        p.gpus[0].threadblocks.push_back(extra);
      },
      "structure.duplicate-connection", error, 0, 3, -1, "send");
  expect(
      "structure.duplicate-connection recv", Base::Deps, executor,
      [](Program& p) { threadblockAt(p, 1, 2).recv = 0; }, "structure.duplicate-connection", error,
      1, 2, -1, "recv");
  expect(
      "structure.step-position", Base::Ring, executor, [](Program& p) { stepAt(p, 0, 0, 2).s = 5; },
      "structure.step-position", warning, 0, 0, 2, "s");
  expect(
      "structure.step-position swapped", Base::Ring, executor,
      [](Program& p) {
        std::swap(threadblockAt(p, 1, 0).steps[3], threadblockAt(p, 1, 0).steps[4]);
      },
      "structure.step-position", warning, 1, 0, 3, "s");
  expect(
      "structure.no-peer send", Base::Deps, executor,
      [](Program& p) { stepAt(p, 0, 1, 0).type = OpType::Send; }, "structure.no-peer", error, 0, 1,
      0, "type");
  expect(
      "structure.no-peer recv", Base::Deps, executor,
      [](Program& p) { stepAt(p, 1, 0, 0).type = OpType::RecvReduceSend; }, "structure.no-peer",
      error, 1, 0, 0, "type");
  expect(
      "structure.count 0", Base::Ring, executor, [](Program& p) { stepAt(p, 0, 0, 0).cnt = 0; },
      "structure.count", warning, 0, 0, 0, "cnt");
  expect(
      "structure.count 72", Base::Ring, executor, [](Program& p) { stepAt(p, 2, 0, 4).cnt = 72; },
      "structure.count", error, 2, 0, 4, "cnt");
  expect(
      "structure.count nop", Base::Deps, executor, [](Program& p) { stepAt(p, 0, 2, 0).cnt = -1; },
      "structure.count", error, 0, 2, 0, "cnt");
  expect(
      "structure.offset shifted past the end", Base::Ring, executor,
      [](Program& p) {
        stepAt(p, 0, 0, 0).srcOff = 3;
        stepAt(p, 0, 0, 0).cnt = 2;
      },
      "structure.offset", error, 0, 0, 0, "srcoff");
  expect(
      "structure.offset out of range", Base::Ring, executor,
      [](Program& p) { stepAt(p, 1, 0, 6).dstOff = 4; }, "structure.offset", error, 1, 0, 6,
      "dstoff");
  expect(
      "structure.offset negative", Base::Deps, executor,
      [](Program& p) { stepAt(p, 0, 2, 1).srcOff = -1; }, "structure.offset", error, 0, 2, 1,
      "srcoff");
  expect(
      "structure.offset unused buffer", Base::Deps, executor,
      [](Program& p) { stepAt(p, 1, 1, 1).dstBuf = Buffer::Output; }, "structure.offset", error, 1,
      1, 1, "dstoff");
  absent(
      "structure.offset ignores unused operand", Base::Ring, executor,
      [](Program& p) { stepAt(p, 0, 0, 6).srcOff = 99; }, "structure.offset");
  expect(
      "structure.buffer-capacity", Base::Ring, executor,
      [](Program& p) { p.gpus[0].inputChunks = 5; }, "structure.buffer-capacity", warning, 0, -1,
      -1, "i_chunks");
  expect(
      "structure.nchunksperloop zero", Base::Ring, executor,
      [](Program& p) { p.nchunksperloop = 0; }, "structure.nchunksperloop", error, -1, -1, -1,
      "nchunksperloop");
  expect(
      "structure.nchunksperloop not divisible", Base::Ring, executor,
      [](Program& p) {
        p.collective = Collective::AllToAll;
        p.collSpelling = "alltoall";
        p.nchunksperloop = 6;
      },
      "structure.nchunksperloop", error, -1, -1, -1, "nchunksperloop");
  expect(
      "structure.nchannels", Base::Ring, executor, [](Program& p) { p.nchannels = 0; },
      "structure.nchannels", error, -1, -1, -1, "nchannels");
  expect(
      "structure.reduce-fusion", Base::Deps, executor,
      [](Program& p) {
        test::insertStep(p, 0, 2, 2,
                         makeStep(OpType::Reduce, Buffer::Scratch, 0, Buffer::Input, 0, 2));
      },
      "structure.reduce-fusion", warning, 0, 2, 2, "cnt");

  // ---- limits, per dialect
  expect(
      "limit.steps-per-tb executor", Base::Ring, executor,
      [](Program& p) { appendCopies(p, 0, 0, 58); }, "limit.steps-per-tb", error, 0, 0, 64);
  expect(
      "limit.steps-per-tb rccl", Base::Ring, rccl, [](Program& p) { appendCopies(p, 0, 0, 58); },
      "limit.steps-per-tb", error, 0, 0, 64);
  absent(
      "limit.steps-per-tb classic 65", Base::Ring, classic,
      [](Program& p) { appendCopies(p, 0, 0, 58); }, "limit.steps-per-tb");
  expect(
      "limit.steps-per-tb classic 257", Base::Ring, classic,
      [](Program& p) { appendCopies(p, 3, 0, 250); }, "limit.steps-per-tb", error, 3, 0, 256);
  expect(
      "limit.tbs-per-rank rccl", Base::Ring, rccl, [](Program& p) { addLocalTbs(p, 1, 64); },
      "limit.tbs-per-rank", error, 1, -1, -1);
  absent(
      "limit.tbs-per-rank executor 65", Base::Ring, executor,
      [](Program& p) { addLocalTbs(p, 1, 64); }, "limit.tbs-per-rank");
  expect(
      "limit.tbs-per-rank classic", Base::Ring, classic, [](Program& p) { addLocalTbs(p, 0, 216); },
      "limit.tbs-per-rank", error, 0, -1, -1);
  expect(
      "limit.tbs-per-rank executor", Base::Ring, executor,
      [](Program& p) { addLocalTbs(p, 0, 1024); }, "limit.tbs-per-rank", error, 0, -1, -1);
  expect(
      "limit.channels executor", Base::Ring, executor, [](Program& p) { p.nchannels = 33; },
      "limit.channels", error, -1, -1, -1, "nchannels");
  expect(
      "limit.channels classic", Base::Ring, classic, [](Program& p) { p.nchannels = 33; },
      "limit.channels", error, -1, -1, -1, "nchannels");
  absent(
      "limit.channels rccl 33", Base::Ring, rccl, [](Program& p) { p.nchannels = 33; },
      "limit.channels");
  expect(
      "limit.channels rccl 129", Base::Ring, rccl, [](Program& p) { p.nchannels = 129; },
      "limit.channels", error, -1, -1, -1, "nchannels");
  for (const DialectId id : allDialects()) {
    const std::string name = "limit.peers-per-channel " + std::string(dialect(id).key);
    expect(
        name.c_str(), Base::Star, id,
        [](Program& p) {
          threadblockAt(p, 0, 32).chan = 0;
          threadblockAt(p, 33, 0).chan = 0;
        },
        "limit.peers-per-channel", error, 0, -1, -1);
    const std::string offset = "limit.offset " + std::string(dialect(id).key);
    expect(
        offset.c_str(), Base::BigBuffers, id, [](Program& p) { stepAt(p, 0, 0, 0).srcOff = 33000; },
        "limit.offset", error, 0, 0, 0, "srcoff");
    const std::string attributes = "limit.attributes " + std::string(dialect(id).key);
    expect(
        attributes.c_str(), Base::Ring, id,
        [](Program& p) {
          for (int i = 0; i < 7; ++i)
            p.extraAttributes.push_back({"extra" + std::to_string(i), "1"});
        },
        "limit.attributes", error, -1, -1, -1);
  }
  absent(
      "limit.offset not structure", Base::BigBuffers, executor,
      [](Program& p) { stepAt(p, 0, 0, 0).srcOff = 33000; }, "structure.offset");
  absent(
      "limit.attributes 16 are fine", Base::Ring, executor,
      [](Program& p) {
        for (int i = 0; i < 6; ++i)
          p.extraAttributes.push_back({"extra" + std::to_string(i), "1"});
      },
      "limit.attributes");
  expect(
      "limit.chunks-per-loop classic", Base::Ring, classic,
      [](Program& p) { p.gpus[2].outputChunks = 2; }, "limit.chunks-per-loop", error, 2, -1, -1,
      "o_chunks");
  absent(
      "limit.chunks-per-loop executor", Base::Ring, executor,
      [](Program& p) { p.gpus[2].outputChunks = 2; }, "limit.chunks-per-loop");
  expect(
      "limit.name-length classic", Base::Ring, classic,
      [](Program& p) { p.name = std::string(64, 'n'); }, "limit.name-length", warning, -1, -1, -1,
      "name");
  absent(
      "limit.name-length executor", Base::Ring, executor,
      [](Program& p) { p.name = std::string(64, 'n'); }, "limit.name-length");

  // ---- selection, per dialect
  expect(
      "format.missing-attribute minBytes executor", Base::Ring, executor,
      [](Program& p) { p.minBytes.reset(); }, "format.missing-attribute", error, -1, -1, -1,
      "minBytes");
  expect(
      "format.missing-attribute maxBytes rccl", Base::Ring, rccl,
      [](Program& p) { p.maxBytes.reset(); }, "format.missing-attribute", error, -1, -1, -1,
      "maxBytes");
  expect(
      "format.missing-attribute outofplace executor", Base::Ring, executor,
      [](Program& p) { p.outofplace.reset(); }, "format.missing-attribute", error, -1, -1, -1,
      "outofplace");
  absent(
      "format.missing-attribute outofplace classic", Base::Ring, classic,
      [](Program& p) {
        p.outofplace.reset();
        p.minBytes.reset();
      },
      "format.missing-attribute");
  expect(
      "format.missing-attribute name classic", Base::Ring, classic,
      [](Program& p) { p.name.clear(); }, "format.missing-attribute", error, -1, -1, -1, "name");
  absent(
      "format.missing-attribute name executor", Base::Ring, executor,
      [](Program& p) { p.name.clear(); }, "format.missing-attribute");
  expect(
      "select.coll reduce_scatter executor", Base::Ring, executor,
      [](Program& p) {
        p.collective = Collective::ReduceScatter;
        p.collSpelling = "reduce_scatter";
      },
      "select.coll", error, -1, -1, -1, "coll");
  expect(
      "select.coll custom rccl", Base::Ring, rccl,
      [](Program& p) {
        p.collective = Collective::Custom;
        p.collSpelling = "custom";
      },
      "select.coll", error, -1, -1, -1, "coll");
  expect(
      "select.coll reducescatter classic", Base::Ring, classic,
      [](Program& p) {
        p.collective = Collective::ReduceScatter;
        p.collSpelling = "reducescatter";
      },
      "select.coll", error, -1, -1, -1, "coll");
  expect(
      "select.coll gather classic", Base::Ring, classic,
      [](Program& p) {
        p.collective = Collective::Gather;
        p.collSpelling = "gather";
      },
      "select.coll", error, -1, -1, -1, "coll");
  absent(
      "select.coll reduce_scatter classic", Base::Ring, classic,
      [](Program& p) {
        p.collective = Collective::ReduceScatter;
        p.collSpelling = "reduce_scatter";
      },
      "select.coll");
  expect(
      "select.never classic maxBytes 0", Base::Ring, classic, [](Program& p) { p.maxBytes = 0; },
      "select.never", error, -1, -1, -1, "maxBytes");
  absent(
      "select.never executor maxBytes 0", Base::Ring, executor, [](Program& p) { p.maxBytes = 0; },
      "select.never");
  expect(
      "select.never executor no mode", Base::Ring, executor, [](Program& p) { p.inplace = false; },
      "select.never", error, -1, -1, -1, "inplace");
  absent(
      "select.never classic no mode", Base::Ring, classic, [](Program& p) { p.inplace = false; },
      "select.never");
  expect(
      "select.never executor min above max", Base::Ring, executor,
      [](Program& p) {
        p.minBytes = 4096;
        p.maxBytes = 1024;
      },
      "select.never", error, -1, -1, -1, "minBytes");
  expect(
      "select.never classic exclusive bound", Base::Ring, classic,
      [](Program& p) {
        p.minBytes = 64;
        p.maxBytes = 64;
      },
      "select.never", error, -1, -1, -1, "minBytes");
  absent(
      "select.never executor inclusive bound", Base::Ring, executor,
      [](Program& p) {
        p.minBytes = 64;
        p.maxBytes = 64;
      },
      "select.never");
  expect(
      "select.size-range executor", Base::Ring, executor,
      [](Program& p) {
        p.minBytes = 1;
        p.maxBytes = 3;
      },
      "select.size-range", error, -1, -1, -1, "minBytes");
  expect(
      "select.size-range classic", Base::Ring, classic,
      [](Program& p) {
        p.minBytes = 5;
        p.maxBytes = 8;
      },
      "select.size-range", error, -1, -1, -1, "minBytes");
  absent(
      "select.size-range executor inclusive", Base::Ring, executor,
      [](Program& p) {
        p.minBytes = 5;
        p.maxBytes = 8;
      },
      "select.size-range");
  expect(
      "select.default-max-bytes classic", Base::Ring, classic,
      [](Program& p) { p.maxBytes.reset(); }, "select.default-max-bytes", warning, -1, -1, -1,
      "maxBytes");
  expect(
      "select.inplace-only classic", Base::Ring, classic, [](Program& p) { p.outofplace = true; },
      "select.inplace-only", info, -1, -1, -1, "outofplace");
  absent(
      "select.inplace-only executor", Base::Ring, executor, [](Program& p) { p.outofplace = true; },
      "select.inplace-only");

  // ---- matching
  expect(
      "match.missing-recv", Base::Ring, executor, [](Program& p) { test::eraseStep(p, 1, 0, 6); },
      "match.missing-recv", error, 0, 0, 5);
  expect(
      "match.missing-send", Base::Ring, executor, [](Program& p) { test::eraseStep(p, 0, 0, 0); },
      "match.missing-send", error, 1, 0, 6);
  expect(
      "match.count-mismatch", Base::Ring, executor, [](Program& p) { stepAt(p, 0, 0, 0).cnt = 2; },
      "match.count-mismatch", error, 0, 0, 0, "cnt");
  expect(
      "match.no-receiver", Base::Deps, executor,
      [](Program& p) {
        threadblockAt(p, 1, 1).recv = -1;
        threadblockAt(p, 1, 1).steps.clear();
      },
      "match.no-receiver", error, 0, 0, 0);
  expect(
      "match.no-sender", Base::Deps, executor,
      [](Program& p) {
        threadblockAt(p, 1, 0).chan = 1;
        p.nchannels = 2;
      },
      "match.no-sender", error, 0, 1, 0);

  // ---- dependencies
  expect(
      "dep.target-missing tb", Base::Deps, executor,
      [](Program& p) { stepAt(p, 0, 2, 1).depid = 5; }, "dep.target-missing", error, 0, 2, 1,
      "depid");
  expect(
      "dep.target-missing step", Base::Deps, executor,
      [](Program& p) { stepAt(p, 1, 2, 2).deps = 2; }, "dep.target-missing", error, 1, 2, 2,
      "depid");
  expect(
      "dep.target-missing deps -1", Base::Deps, executor,
      [](Program& p) { stepAt(p, 1, 2, 0).deps = -1; }, "dep.target-missing", error, 1, 2, 0,
      "depid");
  expect(
      "dep.unpublished", Base::Deps, executor,
      [](Program& p) { stepAt(p, 0, 1, 1).hasdep = false; }, "dep.unpublished", error, 0, 2, 2,
      "deps");
  expect(
      "dep.late-publish", Base::Deps, executor,
      [](Program& p) { stepAt(p, 0, 1, 0).hasdep = false; }, "dep.late-publish", warning, 0, 2, 1,
      "deps");
  expect(
      "dep.unused-hasdep", Base::Deps, executor,
      [](Program& p) { stepAt(p, 1, 0, 0).hasdep = true; }, "dep.unused-hasdep", info, 1, 0, 0,
      "hasdep");
  expect(
      "dep.nop-without-dependency", Base::Deps, executor,
      [](Program& p) {
        stepAt(p, 0, 2, 0).depid = -1;
        stepAt(p, 0, 2, 0).deps = -1;
      },
      "dep.nop-without-dependency", error, 0, 2, 0, "depid");
  expect(
      "dep.nop-chain-end", Base::Deps, executor,
      [](Program& p) {
        stepAt(p, 1, 2, 1).depid = -1;
        stepAt(p, 1, 2, 1).deps = -1;
      },
      "dep.nop-chain-end", error, 1, 2, 1, "depid");
  expect(
      "dep.nop-chain-end at the end", Base::Deps, executor,
      [](Program& p) { test::insertStep(p, 0, 2, -1, nopStep(0, 1)); }, "dep.nop-chain-end",
      warning, 0, 2, 3, "depid");
  expect(
      "dep.self earlier step", Base::Deps, executor,
      [](Program& p) {
        stepAt(p, 0, 1, 1).depid = 1;
        stepAt(p, 0, 1, 1).deps = 0;
      },
      "dep.self", warning, 0, 1, 1, "depid");
  absent(
      "dep.self is no error", Base::Deps, executor,
      [](Program& p) {
        stepAt(p, 0, 1, 1).depid = 1;
        stepAt(p, 0, 1, 1).deps = 0;
      },
      "dep.cycle");
  expect(
      "dep.self later step is a cycle", Base::Deps, executor,
      [](Program& p) {
        stepAt(p, 0, 1, 0).depid = 1;
        stepAt(p, 0, 1, 0).deps = 1;
      },
      "dep.cycle", error, 0, 1, 0, "deps");
  expect(
      "dep.self unpublished", Base::Deps, executor,
      [](Program& p) {
        stepAt(p, 1, 0, 1).depid = 0;
        stepAt(p, 1, 0, 1).deps = 0;
      },
      "dep.unpublished", error, 1, 0, 1, "deps");
  expect(
      "dep.cycle across two ranks", Base::Deps, executor,
      [](Program& p) {
        for (const int rank : {0, 1}) {
          stepAt(p, rank, 0, 0).depid = 1;
          stepAt(p, rank, 0, 0).deps = 0;
        }
      },
      "dep.cycle", error, 0, 0, 0, "depid");
  expect(
      "dep.cycle within a rank", Base::Deps, executor,
      [](Program& p) {
        // tb 1's first receive waits for tb 2's reduction, which waits for that receive.
        stepAt(p, 1, 1, 0).depid = 2;
        stepAt(p, 1, 1, 0).deps = 1;
        stepAt(p, 1, 2, 1).hasdep = true;
      },
      "dep.cycle", error, 1, 1, 0, "depid");
}

void Test_staticchecks::brokenVariant()
{
  QFETCH(Base, base);
  QFETCH(DialectId, dialectId);
  QFETCH(Edit, edit);
  QFETCH(QString, code);
  QFETCH(bool, present);
  QFETCH(Severity, severity);
  QFETCH(int, rank);
  QFETCH(int, tb);
  QFETCH(int, step);
  QFETCH(QString, attribute);

  Program program = makeBase(base);
  const std::vector<Diagnostic> before = runStatic(program, dialectId);
  QVERIFY2(before.empty(), qPrintable(test::describeDiagnostics(before)));
  edit.apply(program);
  const std::vector<Diagnostic> after = runStatic(program, dialectId);
  const std::vector<const Diagnostic*> found = withCode(after, code.toStdString());
  const QString all = test::describeDiagnostics(after);
  if (!present) {
    QVERIFY2(found.empty(), qPrintable(all));
    return;
  }
  QVERIFY2(!found.empty(), qPrintable(all));
  const bool located = std::any_of(found.begin(), found.end(), [&](const Diagnostic* d) {
    return d->severity == severity && d->location.rank == rank && d->location.tb == tb &&
           d->location.step == step &&
           (attribute.isEmpty() || d->location.attribute == attribute.toStdString()) &&
           !d->message.empty();
  });
  QVERIFY2(located, qPrintable(QString("expected %1 (%2) at rank %3 tb %4 step %5 [%6]; got:\n%7")
                                   .arg(code, QString::fromLatin1(severityName(severity).data()))
                                   .arg(rank)
                                   .arg(tb)
                                   .arg(step)
                                   .arg(attribute, all)));
}

void Test_staticchecks::missingAttributeMessage()
{
  Program program = ring();
  program.minBytes.reset();
  const std::vector<Diagnostic> diagnostics = runStatic(program, DialectId::Executor);
  QCOMPARE(diagnostics.size(), std::size_t{1});
  const QString message = QString::fromStdString(diagnostics.front().message);
  QVERIFY2(message.startsWith("missing required algo attribute minBytes"), qPrintable(message));
  QVERIFY2(message.contains("MSCCL_ALGO_DIR"), qPrintable(message));
  QCOMPARE(diagnostics.front().location.element, std::string("algo"));
}

void Test_staticchecks::crossRankCycle()
{
  Program program = deps();
  for (const int rank : {0, 1}) {
    test::stepAt(program, rank, 0, 0).depid = 1;
    test::stepAt(program, rank, 0, 0).deps = 0;
  }
  const std::vector<Diagnostic> diagnostics = runStatic(program, DialectId::Executor);
  const std::vector<const Diagnostic*> cycles = withCode(diagnostics, "dep.cycle");
  QCOMPARE(cycles.size(), std::size_t{1});
  const Diagnostic& cycle = *cycles.front();
  // rank 0 tb 0 sends to rank 1 tb 1, which rank 1 tb 0 waits on; it sends to rank 0 tb 1, which
  // rank 0 tb 0 waits on.
  const QString message = QString::fromStdString(cycle.message);
  QVERIFY2(message.contains("across 2 ranks"), qPrintable(message));
  QVERIFY2(message.contains("rank 0 tb 0 step 0 (s) -(message)-> rank 1 tb 1 step 0 (r) "
                            "-(dependency)-> rank 1 tb 0 step 0 (s) -(message)-> rank 0 tb 1 "
                            "step 0 (r) -(dependency)-> back to rank 0 tb 0 step 0 (s)"),
           qPrintable(message));
  const std::vector<std::tuple<int, int, int>> chain = {{0, 0, 0}, {1, 1, 0}, {1, 0, 0}, {0, 1, 0}};
  QCOMPARE(cycle.related.size(), chain.size());
  for (std::size_t i = 0; i < chain.size(); ++i) {
    const Location& at = cycle.related[i];
    QCOMPARE(std::make_tuple(at.rank, at.tb, at.step), chain[i]);
  }
  // Only the cycle is wrong: every dependency exists and is published.
  QCOMPARE(test::describeDiagnostics(diagnostics), test::describeDiagnostics({*cycles.front()}));
}

void Test_staticchecks::truncation()
{
  Program program = makeRingAllReduce({.ranks = 8, .channels = 1});
  for (Gpu& gpu : program.gpus) {
    for (ThreadBlock& tb : gpu.threadblocks) {
      for (Step& step : tb.steps)
        step.s += 1;
    }
  }
  Diagnostics out;
  passes::checkStructure(program, dialect(DialectId::Executor), out);
  const std::vector<Diagnostic> diagnostics = out.take();
  QCOMPARE(withCode(diagnostics, "structure.step-position").size(), std::size_t{20});
  const std::vector<const Diagnostic*> truncated = withCode(diagnostics, "check.truncated");
  QCOMPARE(truncated.size(), std::size_t{1});
  QCOMPARE(truncated.front()->severity, Severity::Info);
  // 8 ranks × 15 steps, 20 shown.
  QVERIFY2(QString::fromStdString(truncated.front()->message)
               .startsWith("100 more structure.step-position diagnostics suppressed"),
           qPrintable(QString::fromStdString(truncated.front()->message)));
}

void Test_staticchecks::robustness()
{
  // The fuzzer feeds the checker whatever the reader makes of random bytes: ids, peers, offsets
  // and counts may be anything and vectors may be empty. Nothing may crash, hang or throw.
  static constexpr int kExtremes[] = {INT_MIN, -32769, -2, -1, 0,     1,     2,      3,
                                      63,      64,     71, 72, 32767, 32768, INT_MAX};
  std::mt19937 random(20240601);
  auto pick = [&random]() {
    const auto i = std::uniform_int_distribution<std::size_t>(0, std::size(kExtremes) - 1)(random);
    return kExtremes[i];
  };
  auto chance = [&random](int percent) {
    return std::uniform_int_distribution<int>(0, 99)(random) < percent;
  };

  std::vector<Program> programs;
  programs.push_back(Program{});
  Program noTbs = ring();
  for (Gpu& gpu : noTbs.gpus)
    gpu.threadblocks.clear();
  programs.push_back(noTbs);
  Program emptyTbs = deps();
  for (Gpu& gpu : emptyTbs.gpus) {
    for (ThreadBlock& tb : gpu.threadblocks)
      tb.steps.clear();
  }
  programs.push_back(emptyTbs);

  for (int round = 0; round < 400; ++round) {
    Program program = round % 2 == 0 ? deps() : ring();
    if (chance(20))
      program.ngpus = pick();
    if (chance(10))
      program.nchannels = pick();
    if (chance(10))
      program.nchunksperloop = pick();
    if (chance(10))
      program.minBytes = chance(50) ? std::int64_t{pick()} : INT64_MAX;
    if (chance(10))
      program.maxBytes = chance(50) ? std::int64_t{pick()} : INT64_MIN;
    for (Gpu& gpu : program.gpus) {
      if (chance(10))
        gpu.id = pick();
      if (chance(10))
        gpu.inputChunks = pick();
      for (ThreadBlock& tb : gpu.threadblocks) {
        if (chance(10))
          tb.id = pick();
        if (chance(10))
          tb.send = pick();
        if (chance(10))
          tb.recv = pick();
        if (chance(10))
          tb.chan = pick();
        for (Step& step : tb.steps) {
          if (chance(5))
            step.s = pick();
          if (chance(5))
            step.type = static_cast<OpType>(std::uniform_int_distribution<int>(0, 8)(random));
          if (chance(5))
            step.srcOff = pick();
          if (chance(5))
            step.dstOff = pick();
          if (chance(5))
            step.cnt = pick();
          if (chance(10))
            step.depid = pick();
          if (chance(10))
            step.deps = pick();
          if (chance(10))
            step.hasdep = !step.hasdep;
        }
      }
    }
    programs.push_back(std::move(program));
  }

  for (const Program& program : programs) {
    for (const DialectId id : allDialects()) {
      const std::vector<Diagnostic> diagnostics = runStatic(program, id);
      for (const Diagnostic& d : diagnostics) {
        QVERIFY(!d.code.empty());
        QVERIFY(!d.message.empty());
      }
      // The cap holds for every code.
      std::map<std::string, int> perCode;
      for (const Diagnostic& d : diagnostics)
        ++perCode[d.code];
      for (const auto& [code, count] : perCode)
        QVERIFY2(code == "check.truncated" || count <= 20, code.c_str());
    }
  }
}

void Test_staticchecks::corpusDetectedDialect_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  for (const QString& path : test::corpusFiles())
    QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
}

void Test_staticchecks::corpusDetectedDialect()
{
  QFETCH(QString, path);
  const Program program = test::loadProgram(path);
  if (QTest::currentTestFailed())
    return;
  const std::vector<Diagnostic> diagnostics = runStatic(program, detectDialect(program));
  // The classic runtime rejects this custom collective's i_chunks (MANIFEST.md §C); everything
  // else in the corpus loads in the runtime it was written for.
  const QStringList expected = QFileInfo(path).fileName().startsWith("patched_reducegather_custom")
                                   ? QStringList{"limit.chunks-per-loop"}
                                   : QStringList{};
  QCOMPARE(errorCodes(diagnostics), expected);
}

void Test_staticchecks::corpusManifest_data()
{
  CS_REQUIRE_CORPUS();
  QTest::addColumn<QString>("path");
  QTest::addColumn<DialectId>("dialectId");
  for (const QString& path : test::corpusFiles()) {
    for (const DialectId id : allDialects()) {
      const QString name = QFileInfo(path).fileName() + ' ' +
                           QString::fromLatin1(dialect(id).key.data(), dialect(id).key.size());
      QTest::newRow(qPrintable(name)) << path << id;
    }
  }
}

void Test_staticchecks::corpusManifest()
{
  QFETCH(QString, path);
  QFETCH(DialectId, dialectId);
  const QString line = manifestLine(QFileInfo(path).fileName());
  QVERIFY2(!line.isEmpty(), qPrintable("no MANIFEST.md row for " + path));
  const Program program = test::loadProgram(path);
  if (QTest::currentTestFailed())
    return;

  // "old microsoft/msccl: …" and "new executor/RCCL: …" are the two parts of the runtime
  // compatibility cell; "loads in both" means neither rejects the file.
  QStringList expected;
  const qsizetype newPart = line.indexOf("new executor/RCCL:");
  const qsizetype oldPart = line.indexOf("old microsoft/msccl:");
  if (dialectId == DialectId::Classic && oldPart >= 0) {
    const QString text = line.mid(oldPart, newPart > oldPart ? newPart - oldPart : -1);
    if (text.contains("unknown to old runtime"))
      expected << "select.coll";
    if (text.contains("maxBytes=0 means \"never selected\"")) // minBytes > 0: min > max, refused
      expected << (program.minBytes.value_or(0) > 0 ? "limit.size-bounds" : "select.never");
    if (text.contains("inconsistent with nchunksperloop"))
      expected << "limit.chunks-per-loop";
  }
  if (dialectId != DialectId::Classic && newPart >= 0) {
    const QString text = line.mid(newPart, oldPart > newPart ? oldPart - newPart : -1);
    static const QRegularExpression missing("missing required algo attribute (\\w+)");
    for (auto it = missing.globalMatch(text); it.hasNext();)
      expected << "format.missing-attribute:" + it.next().captured(1);
    if (text.contains("unknown to new runtime"))
      expected << "select.coll";
  }
  if (dialectId == DialectId::Rccl &&
      program.maxThreadblocksPerRank() > dialect(DialectId::Rccl).maxThreadblocksPerRank)
    expected << "limit.tbs-per-rank";
  if (line.contains("loads in both"))
    QVERIFY(expected.isEmpty());
  expected.removeDuplicates();
  expected.sort();

  const std::vector<Diagnostic> diagnostics = runStatic(program, dialectId);
  QCOMPARE(errorCodes(diagnostics), expected);
}

QTEST_GUILESS_MAIN(Test_staticchecks)
#include "tst_staticchecks.moc"
