#include <QTest>

// Placeholder until this unit's tests land.
class Test_writer : public QObject
{
  Q_OBJECT
};

QTEST_GUILESS_MAIN(Test_writer)
#include "tst_writer.moc"
