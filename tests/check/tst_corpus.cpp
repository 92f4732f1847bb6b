#include <QTest>

// Placeholder until this unit's tests land.
class Test_corpus : public QObject
{
  Q_OBJECT
};

QTEST_GUILESS_MAIN(Test_corpus)
#include "tst_corpus.moc"
