// CollectiveSpec is the oracle of the postcondition check, of the Schedule checker and of every
// executor's verification at once: a wrong definition would pass everywhere by agreement. So it
// is tested here alone, against tables written by hand from the collectives' NCCL semantics
// (msccl-format.md §4.1 and §7), never computed by the code under test.
//
// A table row lists, for each rank, where the rank's result lives and what each result chunk must
// hold: "o3=r0c3+r1c3" means chunk 3 of the output buffer must hold the reduction of input chunk
// 3 of ranks 0 and 1, in that order; "i2=r1c0" means input-buffer chunk 2 must be a copy of rank
// 1's input chunk 0 (in place, the result lives in memory shared with the input). "-" means the
// rank's result does not matter (a reduce's other ranks).

#include "model/buffergeometry.h"
#include "model/collectivespec.h"

#include <QTest>

using namespace cs;

Q_DECLARE_METATYPE(cs::Collective)

namespace {

// The same hand-written result on every one of `ranks` ranks.
QStringList every(int ranks, const QString& result)
{
  QStringList list;
  for (int r = 0; r < ranks; ++r)
    list << result;
  return list;
}

// `result` on `root`, nothing required elsewhere (reduce).
QStringList onRoot(int ranks, int root, const QString& result)
{
  QStringList list = every(ranks, "-");
  list[root] = result;
  return list;
}

QString token(const MemorySlot& slot, const std::vector<Contribution>& contributions)
{
  const char* buffer = slot.memory == Buffer::Input    ? "i"
                       : slot.memory == Buffer::Output ? "o"
                                                       : "s";
  QString text = buffer + QString::number(slot.index) + "=";
  for (std::size_t k = 0; k < contributions.size(); ++k) {
    if (k > 0)
      text += "+";
    text += QString("r%1c%2").arg(contributions[k].rank).arg(contributions[k].chunk);
  }
  return text;
}

// What the spec says about `rank`, in the tables' notation.
QString describeRank(const CollectiveSpec& spec, int rank, CallMode mode)
{
  const ResultChunks result = spec.result(rank);
  if (result.count == 0)
    return "-";
  QStringList tokens;
  std::vector<Contribution> contributions;
  for (int k = 0; k < result.count; ++k) {
    spec.contributions(rank, k, contributions);
    const MemorySlot slot =
        aliasedSlot(spec.collective(), spec.share(), rank, result.buffer, result.first + k, mode);
    tokens << token(slot, contributions);
  }
  return tokens.join(' ');
}

// 2 ranks, 4 chunks per loop (K = 2).
void addTwoRankRows()
{
  QTest::newRow("all-reduce 2") << Collective::AllReduce << 2 << 4 << -1
                                << every(2, "o0=r0c0+r1c0 o1=r0c1+r1c1 o2=r0c2+r1c2 o3=r0c3+r1c3")
                                << every(2, "i0=r0c0+r1c0 i1=r0c1+r1c1 i2=r0c2+r1c2 i3=r0c3+r1c3");
  // In place, all-gather keeps its result in o: each rank's input is its own slice of o.
  QTest::newRow("all-gather 2") << Collective::AllGather << 2 << 4 << -1
                                << every(2, "o0=r0c0 o1=r0c1 o2=r1c0 o3=r1c1")
                                << every(2, "o0=r0c0 o1=r0c1 o2=r1c0 o3=r1c1");
  QTest::newRow("reduce-scatter 2")
      << Collective::ReduceScatter << 2 << 4 << -1
      << QStringList{"o0=r0c0+r1c0 o1=r0c1+r1c1", "o0=r0c2+r1c2 o1=r0c3+r1c3"}
      << QStringList{"i0=r0c0+r1c0 i1=r0c1+r1c1", "i2=r0c2+r1c2 i3=r0c3+r1c3"};
  QTest::newRow("all-to-all 2") << Collective::AllToAll << 2 << 4 << -1
                                << QStringList{"o0=r0c0 o1=r0c1 o2=r1c0 o3=r1c1",
                                               "o0=r0c2 o1=r0c3 o2=r1c2 o3=r1c3"}
                                << QStringList{"i0=r0c0 i1=r0c1 i2=r1c0 i3=r1c1",
                                               "i0=r0c2 i1=r0c3 i2=r1c2 i3=r1c3"};
  QTest::newRow("broadcast 2 root 0")
      << Collective::Broadcast << 2 << 4 << 0 << every(2, "o0=r0c0 o1=r0c1 o2=r0c2 o3=r0c3")
      << every(2, "i0=r0c0 i1=r0c1 i2=r0c2 i3=r0c3");
  QTest::newRow("broadcast 2 root 1")
      << Collective::Broadcast << 2 << 4 << 1 << every(2, "o0=r1c0 o1=r1c1 o2=r1c2 o3=r1c3")
      << every(2, "i0=r1c0 i1=r1c1 i2=r1c2 i3=r1c3");
  QTest::newRow("reduce 2 root 0")
      << Collective::Reduce << 2 << 4 << 0
      << onRoot(2, 0, "o0=r0c0+r1c0 o1=r0c1+r1c1 o2=r0c2+r1c2 o3=r0c3+r1c3")
      << onRoot(2, 0, "i0=r0c0+r1c0 i1=r0c1+r1c1 i2=r0c2+r1c2 i3=r0c3+r1c3");
  QTest::newRow("reduce 2 root 1")
      << Collective::Reduce << 2 << 4 << 1
      << onRoot(2, 1, "o0=r0c0+r1c0 o1=r0c1+r1c1 o2=r0c2+r1c2 o3=r0c3+r1c3")
      << onRoot(2, 1, "i0=r0c0+r1c0 i1=r0c1+r1c1 i2=r0c2+r1c2 i3=r0c3+r1c3");
}

// 3 ranks, 6 chunks per loop (K = 2).
void addThreeRankRows()
{
  QTest::newRow("all-reduce 3")
      << Collective::AllReduce << 3 << 6 << -1
      << every(3, "o0=r0c0+r1c0+r2c0 o1=r0c1+r1c1+r2c1 o2=r0c2+r1c2+r2c2 o3=r0c3+r1c3+r2c3 "
                  "o4=r0c4+r1c4+r2c4 o5=r0c5+r1c5+r2c5")
      << every(3, "i0=r0c0+r1c0+r2c0 i1=r0c1+r1c1+r2c1 i2=r0c2+r1c2+r2c2 i3=r0c3+r1c3+r2c3 "
                  "i4=r0c4+r1c4+r2c4 i5=r0c5+r1c5+r2c5");
  QTest::newRow("all-gather 3") << Collective::AllGather << 3 << 6 << -1
                                << every(3, "o0=r0c0 o1=r0c1 o2=r1c0 o3=r1c1 o4=r2c0 o5=r2c1")
                                << every(3, "o0=r0c0 o1=r0c1 o2=r1c0 o3=r1c1 o4=r2c0 o5=r2c1");
  QTest::newRow("reduce-scatter 3")
      << Collective::ReduceScatter << 3 << 6 << -1
      << QStringList{"o0=r0c0+r1c0+r2c0 o1=r0c1+r1c1+r2c1", "o0=r0c2+r1c2+r2c2 o1=r0c3+r1c3+r2c3",
                     "o0=r0c4+r1c4+r2c4 o1=r0c5+r1c5+r2c5"}
      << QStringList{"i0=r0c0+r1c0+r2c0 i1=r0c1+r1c1+r2c1", "i2=r0c2+r1c2+r2c2 i3=r0c3+r1c3+r2c3",
                     "i4=r0c4+r1c4+r2c4 i5=r0c5+r1c5+r2c5"};
  QTest::newRow("all-to-all 3") << Collective::AllToAll << 3 << 6 << -1
                                << QStringList{"o0=r0c0 o1=r0c1 o2=r1c0 o3=r1c1 o4=r2c0 o5=r2c1",
                                               "o0=r0c2 o1=r0c3 o2=r1c2 o3=r1c3 o4=r2c2 o5=r2c3",
                                               "o0=r0c4 o1=r0c5 o2=r1c4 o3=r1c5 o4=r2c4 o5=r2c5"}
                                << QStringList{"i0=r0c0 i1=r0c1 i2=r1c0 i3=r1c1 i4=r2c0 i5=r2c1",
                                               "i0=r0c2 i1=r0c3 i2=r1c2 i3=r1c3 i4=r2c2 i5=r2c3",
                                               "i0=r0c4 i1=r0c5 i2=r1c4 i3=r1c5 i4=r2c4 i5=r2c5"};
  QTest::newRow("broadcast 3 root 0")
      << Collective::Broadcast << 3 << 6 << 0
      << every(3, "o0=r0c0 o1=r0c1 o2=r0c2 o3=r0c3 o4=r0c4 o5=r0c5")
      << every(3, "i0=r0c0 i1=r0c1 i2=r0c2 i3=r0c3 i4=r0c4 i5=r0c5");
  QTest::newRow("broadcast 3 root 1")
      << Collective::Broadcast << 3 << 6 << 1
      << every(3, "o0=r1c0 o1=r1c1 o2=r1c2 o3=r1c3 o4=r1c4 o5=r1c5")
      << every(3, "i0=r1c0 i1=r1c1 i2=r1c2 i3=r1c3 i4=r1c4 i5=r1c5");
  QTest::newRow("broadcast 3 root 2")
      << Collective::Broadcast << 3 << 6 << 2
      << every(3, "o0=r2c0 o1=r2c1 o2=r2c2 o3=r2c3 o4=r2c4 o5=r2c5")
      << every(3, "i0=r2c0 i1=r2c1 i2=r2c2 i3=r2c3 i4=r2c4 i5=r2c5");
  const QString sum3Out = "o0=r0c0+r1c0+r2c0 o1=r0c1+r1c1+r2c1 o2=r0c2+r1c2+r2c2 "
                          "o3=r0c3+r1c3+r2c3 o4=r0c4+r1c4+r2c4 o5=r0c5+r1c5+r2c5";
  const QString sum3In = "i0=r0c0+r1c0+r2c0 i1=r0c1+r1c1+r2c1 i2=r0c2+r1c2+r2c2 "
                         "i3=r0c3+r1c3+r2c3 i4=r0c4+r1c4+r2c4 i5=r0c5+r1c5+r2c5";
  QTest::newRow("reduce 3 root 0")
      << Collective::Reduce << 3 << 6 << 0 << onRoot(3, 0, sum3Out) << onRoot(3, 0, sum3In);
  QTest::newRow("reduce 3 root 1")
      << Collective::Reduce << 3 << 6 << 1 << onRoot(3, 1, sum3Out) << onRoot(3, 1, sum3In);
  QTest::newRow("reduce 3 root 2")
      << Collective::Reduce << 3 << 6 << 2 << onRoot(3, 2, sum3Out) << onRoot(3, 2, sum3In);
}

// 4 ranks, 4 chunks per loop (K = 1).
void addFourRankRows()
{
  const QString sum4Out = "o0=r0c0+r1c0+r2c0+r3c0 o1=r0c1+r1c1+r2c1+r3c1 "
                          "o2=r0c2+r1c2+r2c2+r3c2 o3=r0c3+r1c3+r2c3+r3c3";
  const QString sum4In = "i0=r0c0+r1c0+r2c0+r3c0 i1=r0c1+r1c1+r2c1+r3c1 "
                         "i2=r0c2+r1c2+r2c2+r3c2 i3=r0c3+r1c3+r2c3+r3c3";
  QTest::newRow("all-reduce 4") << Collective::AllReduce << 4 << 4 << -1 << every(4, sum4Out)
                                << every(4, sum4In);
  QTest::newRow("all-gather 4") << Collective::AllGather << 4 << 4 << -1
                                << every(4, "o0=r0c0 o1=r1c0 o2=r2c0 o3=r3c0")
                                << every(4, "o0=r0c0 o1=r1c0 o2=r2c0 o3=r3c0");
  QTest::newRow("reduce-scatter 4")
      << Collective::ReduceScatter << 4 << 4 << -1
      << QStringList{"o0=r0c0+r1c0+r2c0+r3c0", "o0=r0c1+r1c1+r2c1+r3c1", "o0=r0c2+r1c2+r2c2+r3c2",
                     "o0=r0c3+r1c3+r2c3+r3c3"}
      << QStringList{"i0=r0c0+r1c0+r2c0+r3c0", "i1=r0c1+r1c1+r2c1+r3c1", "i2=r0c2+r1c2+r2c2+r3c2",
                     "i3=r0c3+r1c3+r2c3+r3c3"};
  QTest::newRow("all-to-all 4")
      << Collective::AllToAll << 4 << 4 << -1
      << QStringList{"o0=r0c0 o1=r1c0 o2=r2c0 o3=r3c0", "o0=r0c1 o1=r1c1 o2=r2c1 o3=r3c1",
                     "o0=r0c2 o1=r1c2 o2=r2c2 o3=r3c2", "o0=r0c3 o1=r1c3 o2=r2c3 o3=r3c3"}
      << QStringList{"i0=r0c0 i1=r1c0 i2=r2c0 i3=r3c0", "i0=r0c1 i1=r1c1 i2=r2c1 i3=r3c1",
                     "i0=r0c2 i1=r1c2 i2=r2c2 i3=r3c2", "i0=r0c3 i1=r1c3 i2=r2c3 i3=r3c3"};
  QTest::newRow("broadcast 4 root 0")
      << Collective::Broadcast << 4 << 4 << 0 << every(4, "o0=r0c0 o1=r0c1 o2=r0c2 o3=r0c3")
      << every(4, "i0=r0c0 i1=r0c1 i2=r0c2 i3=r0c3");
  QTest::newRow("broadcast 4 root 1")
      << Collective::Broadcast << 4 << 4 << 1 << every(4, "o0=r1c0 o1=r1c1 o2=r1c2 o3=r1c3")
      << every(4, "i0=r1c0 i1=r1c1 i2=r1c2 i3=r1c3");
  QTest::newRow("broadcast 4 root 2")
      << Collective::Broadcast << 4 << 4 << 2 << every(4, "o0=r2c0 o1=r2c1 o2=r2c2 o3=r2c3")
      << every(4, "i0=r2c0 i1=r2c1 i2=r2c2 i3=r2c3");
  QTest::newRow("broadcast 4 root 3")
      << Collective::Broadcast << 4 << 4 << 3 << every(4, "o0=r3c0 o1=r3c1 o2=r3c2 o3=r3c3")
      << every(4, "i0=r3c0 i1=r3c1 i2=r3c2 i3=r3c3");
  QTest::newRow("reduce 4 root 0")
      << Collective::Reduce << 4 << 4 << 0 << onRoot(4, 0, sum4Out) << onRoot(4, 0, sum4In);
  QTest::newRow("reduce 4 root 1")
      << Collective::Reduce << 4 << 4 << 1 << onRoot(4, 1, sum4Out) << onRoot(4, 1, sum4In);
  QTest::newRow("reduce 4 root 2")
      << Collective::Reduce << 4 << 4 << 2 << onRoot(4, 2, sum4Out) << onRoot(4, 2, sum4In);
  QTest::newRow("reduce 4 root 3")
      << Collective::Reduce << 4 << 4 << 3 << onRoot(4, 3, sum4Out) << onRoot(4, 3, sum4In);
}

} // namespace

class Test_collectivespec : public QObject
{
  Q_OBJECT

private slots:
  void results_data();
  void results();
  void collectivesWithoutDefinition_data();
  void collectivesWithoutDefinition();
  void reduction();
  void contributionText();
};

void Test_collectivespec::results_data()
{
  QTest::addColumn<Collective>("collective");
  QTest::addColumn<int>("ranks");
  QTest::addColumn<int>("chunks"); // nchunksperloop
  QTest::addColumn<int>("root");
  QTest::addColumn<QStringList>("outOfPlace");
  QTest::addColumn<QStringList>("inPlace");

  addTwoRankRows();
  addThreeRankRows();
  addFourRankRows();
}

void Test_collectivespec::results()
{
  QFETCH(Collective, collective);
  QFETCH(int, ranks);
  QFETCH(int, chunks);
  QFETCH(int, root);
  QFETCH(QStringList, outOfPlace);
  QFETCH(QStringList, inPlace);
  QCOMPARE(outOfPlace.size(), ranks);
  QCOMPARE(inPlace.size(), ranks);

  const CollectiveSpec spec(collective, ranks, chunks, root);
  QVERIFY(hasPostcondition(collective));
  QCOMPARE(isRooted(collective), root >= 0);
  QCOMPARE(spec.ranks(), ranks);
  QCOMPARE(spec.root(), root);
  QCOMPARE(spec.share(), chunks / ranks);
  for (int rank = 0; rank < ranks; ++rank) {
    QCOMPARE(describeRank(spec, rank, CallMode::OutOfPlace), outOfPlace[rank]);
    QCOMPARE(describeRank(spec, rank, CallMode::InPlace), inPlace[rank]);
  }
}

void Test_collectivespec::collectivesWithoutDefinition_data()
{
  QTest::addColumn<Collective>("collective");
  QTest::newRow("custom") << Collective::Custom;
  QTest::newRow("send") << Collective::Send;
  QTest::newRow("recv") << Collective::Recv;
  QTest::newRow("gather") << Collective::Gather;
  QTest::newRow("scatter") << Collective::Scatter;
  QTest::newRow("all-to-all-v") << Collective::AllToAllV;
}

// Collectives whose result the file does not define need the user's postcondition: the spec
// must demand nothing rather than invent a result.
void Test_collectivespec::collectivesWithoutDefinition()
{
  QFETCH(Collective, collective);
  QVERIFY(!hasPostcondition(collective));
  QVERIFY(!isRooted(collective));
  for (const int ranks : {2, 3, 4}) {
    const CollectiveSpec spec(collective, ranks, 2 * ranks);
    QVERIFY(!spec.reduces());
    for (int rank = 0; rank < ranks; ++rank) {
      QCOMPARE(spec.result(rank).count, 0);
      std::vector<Contribution> contributions{{0, 0}};
      spec.contributions(rank, 0, contributions);
      QVERIFY(contributions.empty());
    }
  }
}

// Whether result chunks combine several inputs with the reduction operator (NCCL: all-reduce,
// reduce-scatter and reduce do; all-gather, all-to-all and broadcast copy).
void Test_collectivespec::reduction()
{
  QVERIFY(CollectiveSpec(Collective::AllReduce, 4, 4).reduces());
  QVERIFY(CollectiveSpec(Collective::ReduceScatter, 4, 4).reduces());
  QVERIFY(CollectiveSpec(Collective::Reduce, 4, 4, 1).reduces());
  QVERIFY(!CollectiveSpec(Collective::AllGather, 4, 4).reduces());
  QVERIFY(!CollectiveSpec(Collective::AllToAll, 4, 4).reduces());
  QVERIFY(!CollectiveSpec(Collective::Broadcast, 4, 4, 1).reduces());
}

void Test_collectivespec::contributionText()
{
  QCOMPARE(QString::fromStdString(contributionsText({})), QString("nothing"));
  QCOMPARE(QString::fromStdString(contributionsText({{2, 5}})), QString("r2\u00b7c5"));
  QCOMPARE(QString::fromStdString(contributionsText({{0, 1}, {1, 1}})),
           QString("\u03a3{r0\u00b7c1, r1\u00b7c1}"));
  QCOMPARE(QString::fromStdString(contributionsText({{0, 1}, {1, 1}, {2, 1}, {3, 1}})),
           QString("\u03a3{r0\u00b7c1 \u2026 r3\u00b7c1}"));
}

QTEST_GUILESS_MAIN(Test_collectivespec)
#include "tst_collectivespec.moc"
