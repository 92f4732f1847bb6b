#include "compileutil.h"

#include <QTest>

Q_DECLARE_METATYPE(std::string)

namespace cs::test {

QStringList transferSummary(const Schedule& schedule)
{
  const auto ref = [](const ChunkRef& c) {
    return QStringLiteral("r%1 %2[%3]").arg(c.rank).arg(bufferLetter(c.buffer)).arg(c.index);
  };
  QStringList out;
  for (const Transfer& t : schedule.transfers) {
    out << QStringLiteral("%1: %2 -> %3 x%4 %5")
               .arg(t.step, 4, 10, QChar('0'))
               .arg(ref(t.src), ref(t.dst))
               .arg(t.count)
               .arg(QString::fromUtf8(transferOpName(t.op).data(),
                                      static_cast<int>(transferOpName(t.op).size())));
  }
  out.sort();
  return out;
}

std::vector<Diagnostic> errorsOf(const std::vector<Diagnostic>& diagnostics)
{
  std::vector<Diagnostic> errors;
  for (const Diagnostic& d : diagnostics)
    if (d.severity == Severity::Error)
      errors.push_back(d);
  return errors;
}

bool addCatalogueRow(const AlgorithmInfo& info, int ranks)
{
  GeneratorOptions options;
  options.ranks = ranks;
  if (info.unsupported(options))
    return false;
  const QByteArray name = QByteArray(info.key.data(), static_cast<qsizetype>(info.key.size())) +
                          " n=" + QByteArray::number(ranks);
  QTest::newRow(name.constData()) << std::string(info.key) << ranks;
  return true;
}

} // namespace cs::test
