#include <QTest>

// Placeholder until this unit's tests land.
class Test_staticchecks : public QObject
{
  Q_OBJECT
};

QTEST_GUILESS_MAIN(Test_staticchecks)
#include "tst_staticchecks.moc"
