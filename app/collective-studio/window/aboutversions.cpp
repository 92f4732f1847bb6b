#include "aboutversions.h"

#include "topology/topologylayout.h"

#include "exec/executor.h"
#include "exec/gpuruntimes.h"
#include "sqlite.h"

#include <QCoreApplication>
#include <QObject>
#include <QtGlobal>

namespace cs::editor {

namespace {

QString notFound()
{
  return QObject::tr("not found");
}

} // namespace

QList<AboutRow> aboutRows()
{
  QList<AboutRow> rows;
  rows.append({QStringLiteral("Collective Studio"), QCoreApplication::applicationVersion(), true});
  QString qt = QString::fromLatin1(qVersion());
  if (qt != QLatin1String(QT_VERSION_STR)) // running on another Qt than the one it was built with
    qt += QObject::tr(" (built with %1)").arg(QLatin1String(QT_VERSION_STR));
  rows.append({QStringLiteral("Qt"), qt, true});
  rows.append(
      {QStringLiteral("SQLite"), QString::fromStdString(storage::sql::libraryVersion()), true});
  const QString graphviz = graphvizVersion();
  rows.append({QStringLiteral("Graphviz"),
               graphviz.isEmpty() ? QObject::tr("not used by this build") : graphviz,
               !graphviz.isEmpty()});
  for (const GpuRuntimeVersion& runtime : probeGpuRuntimes()) {
    const QString library = QString::fromStdString(runtime.library);
    rows.append({QString::fromStdString(runtime.name),
                 runtime.found ? QString::fromStdString(runtime.version) + " (" + library + ")"
                               : notFound(),
                 runtime.found});
  }
  // The registry `run` and `cstudio --version` use: the GPU backends are modules found at run time.
  for (const BackendInfo& backend : executorBackends()) {
    QString state = QString::fromStdString(backend.reason);
    if (backend.available && backend.module.empty())
      state = QObject::tr("built in");
    else if (backend.available)
      state = QObject::tr("%n GPU(s), %1", nullptr, backend.devices)
                  .arg(QString::fromStdString(backend.module));
    rows.append({QObject::tr("Executor %1").arg(QString::fromStdString(backend.name)), state,
                 backend.available});
  }
  return rows;
}

QString aboutTableHtml(const QList<AboutRow>& rows)
{
  QString html = QStringLiteral("<table cellspacing=\"2\">");
  for (const AboutRow& row : rows)
    html += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td%3>%2</td></tr>")
                .arg(row.component.toHtmlEscaped(), row.version.toHtmlEscaped(),
                     row.found ? QString() : QStringLiteral(" style=\"color:gray\""));
  return html + QStringLiteral("</table>");
}

} // namespace cs::editor
