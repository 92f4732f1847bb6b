// Help › About lists the versions found at run time: this process's Qt and SQLite, Graphviz when
// the build uses it, and the CUDA driver, CUDA runtime and NCCL whether or not the machine has
// them ("not found"), plus every executor; the GPU libraries' integer versions read as people
// write them.

#include "window/aboutversions.h"

#include "exec/executor.h"
#include "exec/gpuruntimes.h"

#include <QRegularExpression>
#include <QTest>

using namespace cs;
using namespace cs::editor;

class TestAboutVersions : public QObject
{
  Q_OBJECT

private slots:
  void listsEveryComponent();
  void gpuVersionsReadAsWritten();
};

void TestAboutVersions::listsEveryComponent()
{
  QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7"));
  const QList<AboutRow> rows = aboutRows();
  QMap<QString, AboutRow> byName;
  for (const AboutRow& row : rows)
    byName.insert(row.component, row);
  QCOMPARE(rows.front().component, QString("Collective Studio"));
  QCOMPARE(rows.front().version, QString("9.8.7"));
  QVERIFY(byName.value("Qt").version.startsWith(QString::fromLatin1(qVersion())));
  QVERIFY2(QRegularExpression("^3\\.\\d+\\.\\d+").match(byName.value("SQLite").version).hasMatch(),
           qPrintable(byName.value("SQLite").version));
  QVERIFY(byName.contains("Graphviz"));
  const QRegularExpression version("^\\d+\\.\\d+(\\.\\d+)? \\(lib\\S+\\)$");
  for (const QString gpu : {"CUDA driver", "CUDA runtime", "NCCL"}) {
    QVERIFY2(byName.contains(gpu), qPrintable(gpu));
    const AboutRow row = byName.value(gpu);
    QVERIFY2(row.found ? version.match(row.version).hasMatch() : row.version == "not found",
             qPrintable(gpu + ": " + row.version));
  }
  for (const BackendInfo& backend : executorBackends())
    QVERIFY(byName.contains("Executor " + QString::fromStdString(backend.name)));
  const QString html = aboutTableHtml(rows);
  QCOMPARE(html.count("<tr>"), rows.size());
  QVERIFY(html.contains("SQLite"));
}

void TestAboutVersions::gpuVersionsReadAsWritten()
{
  QCOMPARE(cudaVersionText(12040), std::string("12.4"));
  QCOMPARE(cudaVersionText(13000), std::string("13.0"));
  QCOMPARE(ncclVersionText(22105), std::string("2.21.5"));
  QCOMPARE(ncclVersionText(2304), std::string("2.3.4"));
}

QTEST_MAIN(TestAboutVersions)
#include "tst_aboutversions.moc"
