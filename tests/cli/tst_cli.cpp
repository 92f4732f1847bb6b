#include <QTest>

// Placeholder until this unit's tests land.
class Test_cli : public QObject
{
  Q_OBJECT
};

QTEST_GUILESS_MAIN(Test_cli)
#include "tst_cli.moc"
