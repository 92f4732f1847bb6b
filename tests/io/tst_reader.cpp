#include <QTest>

// Placeholder until this unit's tests land.
class Test_reader : public QObject
{
  Q_OBJECT
};

QTEST_GUILESS_MAIN(Test_reader)
#include "tst_reader.moc"
