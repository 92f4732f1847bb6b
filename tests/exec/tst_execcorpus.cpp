// The CPU executor over every corpus file (issue item 7): the matrix of exec/corpusmatrix.h.

#include "exec/corpusmatrix.h"

#include <QTest>

using namespace cs;

class TestExecCorpus : public QObject
{
  Q_OBJECT

private slots:
  void corpusFile_data()
  {
    CS_REQUIRE_CORPUS();
    test::addCorpusRows();
  }
  void corpusFile()
  {
    QFETCH(QString, path);
    QFETCH(QString, expected);
    test::checkCorpusFile(*makeExecutor("cpu"), path, expected);
  }
};

QTEST_APPLESS_MAIN(TestExecCorpus)
#include "tst_execcorpus.moc"
