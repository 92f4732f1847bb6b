// The Program model's vocabulary, in-place aliasing (msccl-format.md §4.1) and the dialect table
// (§2.1, §5).

#include "catalogue/ringallreduce.h"
#include "model/buffergeometry.h"
#include "model/connections.h"
#include "model/dialect.h"
#include "model/program.h"

#include <QTest>

using namespace cs;

class Test_model : public QObject
{
  Q_OBJECT

private slots:
  void opTypesRoundTrip_data();
  void opTypesRoundTrip();
  void opTraitsFollowTheRuntime();
  void buffersAndProtocols();
  void collectiveSpellings();
  void dialectLimits();
  void detectDialect_data();
  void detectDialect();
  void aliasing_data();
  void aliasing();
  void userBufferChunks();
  void declaredModes();
  void ringAllReduceShape();
  void connections();
};

void Test_model::opTypesRoundTrip_data()
{
  QTest::addColumn<QString>("name");
  for (const char* name : {"s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop"})
    QTest::newRow(name) << QString(name);
}

void Test_model::opTypesRoundTrip()
{
  QFETCH(QString, name);
  const auto type = parseOpType(name.toStdString());
  QVERIFY(type.has_value());
  QCOMPARE(QString::fromLatin1(opTypeName(*type).data(), qsizetype(opTypeName(*type).size())),
           name);
}

void Test_model::opTraitsFollowTheRuntime()
{
  QVERIFY(!parseOpType("ra").has_value()); // parsed by the classic runtime, never executed
  QVERIFY(!parseOpType("RRC").has_value());
  // rrs forwards a sum it never stores; rrc stores one it never forwards.
  QVERIFY(opTraits(OpType::RecvReduceSend).sends);
  QVERIFY(!opTraits(OpType::RecvReduceSend).writesDst);
  QVERIFY(opTraits(OpType::RecvReduceCopy).writesDst);
  QVERIFY(!opTraits(OpType::RecvReduceCopy).sends);
  QVERIFY(opTraits(OpType::RecvReduceCopy).readsSrc);
  // rcs stores and forwards what it receives; it never reads a local operand.
  QVERIFY(!opTraits(OpType::RecvCopySend).readsSrc);
  QVERIFY(opTraits(OpType::Reduce).readsDst);
  QVERIFY(!opTraits(OpType::Copy).readsDst);
  const OpTraits nop = opTraits(OpType::Nop);
  QVERIFY(!nop.sends && !nop.receives && !nop.readsSrc && !nop.writesDst);
}

void Test_model::buffersAndProtocols()
{
  QCOMPARE(parseBuffer("i"), std::optional<Buffer>(Buffer::Input));
  QCOMPARE(parseBuffer("s"), std::optional<Buffer>(Buffer::Scratch));
  QVERIFY(!parseBuffer("input").has_value());
  QCOMPARE(bufferLetter(Buffer::Output), 'o');
  QCOMPARE(parseProtocol("LL128"), std::optional<Protocol>(Protocol::LL128));
  QVERIFY(!parseProtocol("ll").has_value()); // exact case only
}

void Test_model::collectiveSpellings()
{
  QCOMPARE(parseCollective("reduce_scatter"), std::optional(Collective::ReduceScatter));
  QCOMPARE(parseCollective("reducescatter"), std::optional(Collective::ReduceScatter));
  const Dialect& classic = dialect(DialectId::Classic);
  const Dialect& executor = dialect(DialectId::Executor);
  QCOMPARE(classic.collSpelling(Collective::ReduceScatter).value(), "reduce_scatter");
  QCOMPARE(executor.collSpelling(Collective::ReduceScatter).value(), "reducescatter");
  QVERIFY(classic.acceptsCollSpelling("custom"));
  QVERIFY(!executor.acceptsCollSpelling("custom"));
  QVERIFY(!classic.acceptsCollSpelling("reducescatter"));
  QVERIFY(executor.acceptsCollSpelling("alltoallv"));
  QVERIFY(!classic.acceptsCollSpelling("alltoallv"));
}

void Test_model::dialectLimits()
{
  QCOMPARE(dialect(DialectId::Classic).maxStepsPerThreadblock, 256);
  QCOMPARE(dialect(DialectId::Executor).maxStepsPerThreadblock, 64);
  QCOMPARE(dialect(DialectId::Classic).maxThreadblocksPerRank, 216);
  QCOMPARE(dialect(DialectId::Executor).maxThreadblocksPerRank, 1024);
  QCOMPARE(dialect(DialectId::Rccl).maxThreadblocksPerRank, 64);
  QVERIFY(dialect(DialectId::Executor).requiresSizeBounds);
  QVERIFY(!dialect(DialectId::Classic).requiresSizeBounds);
  QVERIFY(dialect(DialectId::Executor).maxBytesZeroIsUnlimited);
  QVERIFY(!dialect(DialectId::Classic).maxBytesZeroIsUnlimited);
  QCOMPARE(dialect(DialectId::Classic).defaultMaxBytes, std::int64_t{1} << 27);
  QCOMPARE(parseDialect("rccl"), std::optional(DialectId::Rccl));
  QVERIFY(!parseDialect("nccl").has_value());
  QCOMPARE(allDialects().size(), std::size_t{3});
}

void Test_model::detectDialect_data()
{
  QTest::addColumn<QString>("coll");
  QTest::addColumn<int>("outofplace"); // -1: absent
  QTest::addColumn<int>("expected");
  QTest::newRow("no outofplace") << "allreduce" << -1 << int(DialectId::Classic);
  QTest::newRow("outofplace") << "allreduce" << 0 << int(DialectId::Executor);
  QTest::newRow("reducescatter") << "reducescatter" << 1 << int(DialectId::Executor);
  QTest::newRow("custom with outofplace") << "custom" << 1 << int(DialectId::Classic);
  QTest::newRow("reduce_scatter with outofplace")
      << "reduce_scatter" << 1 << int(DialectId::Classic);
}

void Test_model::detectDialect()
{
  QFETCH(QString, coll);
  QFETCH(int, outofplace);
  QFETCH(int, expected);
  Program program;
  program.collSpelling = coll.toStdString();
  program.collective = *parseCollective(program.collSpelling);
  if (outofplace >= 0)
    program.outofplace = outofplace != 0;
  QCOMPARE(int(cs::detectDialect(program)), expected);
}

void Test_model::aliasing_data()
{
  QTest::addColumn<QString>("coll");
  QTest::addColumn<int>("rank");
  QTest::addColumn<char>("buffer");
  QTest::addColumn<int>("index");
  QTest::addColumn<int>("mode");
  QTest::addColumn<char>("memory");
  QTest::addColumn<int>("memoryIndex");
  const int in = int(CallMode::InPlace);
  const int out = int(CallMode::OutOfPlace);
  // 4 ranks, 8 chunks per loop: K = 2.
  QTest::newRow("allreduce in-place o is i") << "allreduce" << 1 << 'o' << 5 << in << 'i' << 5;
  QTest::newRow("allreduce out-of-place") << "allreduce" << 1 << 'o' << 5 << out << 'o' << 5;
  QTest::newRow("allgather i[k] is o[rank*K+k]") << "allgather" << 3 << 'i' << 1 << in << 'o' << 7;
  QTest::newRow("allgather o stays") << "allgather" << 3 << 'o' << 1 << in << 'o' << 1;
  QTest::newRow("reducescatter o[k] is i[rank*K+k]")
      << "reducescatter" << 2 << 'o' << 0 << in << 'i' << 4;
  QTest::newRow("alltoall in-place") << "alltoall" << 0 << 'o' << 3 << in << 'i' << 3;
  QTest::newRow("scratch never aliases") << "allreduce" << 0 << 's' << 3 << in << 's' << 3;
}

void Test_model::aliasing()
{
  QFETCH(QString, coll);
  QFETCH(int, rank);
  QFETCH(char, buffer);
  QFETCH(int, index);
  QFETCH(int, mode);
  QFETCH(char, memory);
  QFETCH(int, memoryIndex);
  Program program;
  program.ngpus = 4;
  program.nchunksperloop = 8;
  program.collective = *parseCollective(coll.toStdString());
  const MemorySlot slot = memorySlot(program, rank, *parseBuffer(std::string(1, buffer)), index,
                                     static_cast<CallMode>(mode));
  QCOMPARE(bufferLetter(slot.memory), memory);
  QCOMPARE(slot.index, memoryIndex);
}

void Test_model::userBufferChunks()
{
  Program program;
  program.ngpus = 4;
  program.nchunksperloop = 8;
  program.collective = Collective::AllGather;
  QCOMPARE(cs::userBufferChunks(program, Buffer::Input), std::optional(2));
  QCOMPARE(cs::userBufferChunks(program, Buffer::Output), std::optional(8));
  program.collective = Collective::ReduceScatter;
  QCOMPARE(cs::userBufferChunks(program, Buffer::Output), std::optional(2));
  program.collective = Collective::Custom;
  QVERIFY(!cs::userBufferChunks(program, Buffer::Input).has_value());
  QVERIFY(!cs::userBufferChunks(program, Buffer::Scratch).has_value());
  QCOMPARE(sizeMultiplier(Collective::AllToAll, 4), 4);
  QCOMPARE(sizeMultiplier(Collective::AllReduce, 4), 1);
}

void Test_model::declaredModes()
{
  Program program;
  program.inplace = true; // classic: in-place only
  QCOMPARE(cs::declaredModes(program), std::vector<CallMode>{CallMode::InPlace});
  program.inplace = false; // classic: out-of-place only
  QCOMPARE(cs::declaredModes(program), std::vector<CallMode>{CallMode::OutOfPlace});
  program.inplace = true;
  program.outofplace = true; // executor: both
  QCOMPARE(cs::declaredModes(program),
           (std::vector<CallMode>{CallMode::InPlace, CallMode::OutOfPlace}));
}

void Test_model::ringAllReduceShape()
{
  const Program ring = makeRingAllReduce({.ranks = 4, .channels = 2});
  QCOMPARE(ring.ngpus, 4);
  QCOMPARE(int(ring.gpus.size()), 4);
  QCOMPARE(ring.nchunksperloop, 8);
  QCOMPARE(ring.threadblockCount(), 8);
  // 1 send + (n-2) rrs + 1 rrcs + (n-2) rcs + 1 r = 2n - 1 steps per threadblock.
  QCOMPARE(ring.maxStepsPerThreadblock(), 7);
  const ThreadBlock& tb = ring.gpus[1].threadblocks[1];
  QCOMPARE(tb.send, 2);
  QCOMPARE(tb.recv, 0);
  QCOMPARE(tb.chan, 1);
  QCOMPARE(tb.steps.front().type, OpType::Send);
  QCOMPARE(tb.steps.front().srcOff,
           4 + 1); // channel 1 owns chunks 4..7; rank 1 starts with its own
  QCOMPARE(tb.steps[3].type, OpType::RecvReduceCopySend);
  QCOMPARE(tb.steps.back().type, OpType::Recv);
  for (std::size_t i = 0; i < tb.steps.size(); ++i)
    QCOMPARE(tb.steps[i].s, int(i));
}

void Test_model::connections()
{
  const Program ring = makeRingAllReduce({.ranks = 3, .channels = 1});
  const auto all = buildConnections(ring);
  QCOMPARE(int(all.size()), 3);
  const ConnectionEnds& ends = all.at({0, 1, 0});
  QCOMPARE(ends.senders, std::vector<int>{0});
  QCOMPARE(ends.receivers, std::vector<int>{0});
  QCOMPARE(int(sendPositions(ring.gpus[0].threadblocks[0]).size()), 4); // s, rrcs, rcs... n=3
  QCOMPARE(int(receivePositions(ring.gpus[0].threadblocks[0]).size()), 4);
}

QTEST_GUILESS_MAIN(Test_model)
#include "tst_model.moc"
