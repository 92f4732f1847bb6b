#include <QTest>

// Placeholder until this unit's tests land.
class Test_semantics : public QObject
{
  Q_OBJECT
};

QTEST_GUILESS_MAIN(Test_semantics)
#include "tst_semantics.moc"
