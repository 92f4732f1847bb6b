#include <QTest>

// Placeholder until this unit's tests land.
class Test_model : public QObject
{
  Q_OBJECT
};

QTEST_GUILESS_MAIN(Test_model)
#include "tst_model.moc"
