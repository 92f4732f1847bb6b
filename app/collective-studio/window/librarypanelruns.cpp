// LibraryPanel: the Runs list. Every stored run of an algorithm is listed under the version it
// ran, newest first, with its verdict; activating one with a trace asks the main window to
// replay it (see librarypanel.h).

#include "librarypanel.h"
#include "librarypanel_p.h"

#include "windowicons.h"

#include "style/textformat.h"

#include "io/bytesize.h"
#include "library.h"

#include <QHash>

namespace cs::editor {

using namespace librarytree;

namespace {

QString backendTitle(const storage::RunRecord& run)
{
  return run.backend == "simulator" ? LibraryPanel::tr("simulated")
                                    : QString::fromStdString(run.backend);
}

/// "cpu · 1 MiB · 12.3 µs"
QString runTitle(const storage::RunRecord& run)
{
  return QStringLiteral("%1 · %2 · %3 µs")
      .arg(backendTitle(run), QString::fromStdString(formatByteSize(run.bytes)))
      .arg(run.timeUs, 0, 'g', 4);
}

/// How the run ended in a word or two; older runs (no status) fall back on their #wrong.
QString statusText(const storage::RunRecord& run)
{
  if (run.status == "simulated")
    return LibraryPanel::tr("busbw %1 GB/s").arg(run.busbwGBps, 0, 'f', 1);
  if (run.status == "wrong" || (run.status.empty() && run.wrong > 0))
    return LibraryPanel::tr("%1 wrong").arg(run.wrong);
  if (run.status == "not-verified")
    return LibraryPanel::tr("not verified");
  if (run.status.empty())
    return LibraryPanel::tr("busbw %1 GB/s").arg(run.busbwGBps, 0, 'f', 1);
  return QString::fromStdString(run.status);
}

QIcon runIcon(const storage::RunRecord& run)
{
  if (run.status == "verified")
    return drawnIcon(WindowIcon::Ok);
  if (run.status == "wrong" || run.status == "hung" || run.wrong > 0)
    return drawnIcon(WindowIcon::Error);
  if (run.status == "not-verified")
    return drawnIcon(WindowIcon::Warning);
  return drawnIcon(WindowIcon::Run);
}

QString runToolTip(const storage::RunRecord& run)
{
  QString tip = LibraryPanel::tr("Run %1 of version %2, %3\n")
                    .arg(run.id)
                    .arg(run.versionNumber)
                    .arg(localTime(run.created));
  if (!run.verdict.empty())
    tip += QString::fromStdString(run.verdict) + QLatin1Char('\n');
  tip += LibraryPanel::tr("%1 on %2, %3 %4, %5 bytes\nalgbw %6 GB/s, busbw %7 GB/s")
             .arg(backendTitle(run),
                  run.device.empty() ? LibraryPanel::tr("an unnamed device")
                                     : QString::fromStdString(run.device),
                  QString::fromStdString(run.dtype), QString::fromStdString(run.op))
             .arg(run.bytes)
             .arg(run.algbwGBps, 0, 'f', 2)
             .arg(run.busbwGBps, 0, 'f', 2);
  tip += run.hasTrace ? LibraryPanel::tr("\nDouble-click to replay it.")
                      : LibraryPanel::tr("\nStored without a trace: nothing to replay.");
  return tip;
}

} // namespace

void LibraryPanel::loadRuns(QTreeWidgetItem* algorithm)
{
  const qint64 id = algorithm->data(0, kIdRole).toLongLong();
  storage::Result<std::vector<storage::RunRecord>> runs = m_library->runs(id);
  if (!runs) {
    makeItem(algorithm, ItemKind::Placeholder, QString::fromStdString(runs.error().message), {});
    return;
  }
  QHash<int, QTreeWidgetItem*> versions;
  for (int i = 0; i < algorithm->childCount(); ++i) {
    QTreeWidgetItem* child = algorithm->child(i);
    if (kindOf(child) == ItemKind::Version)
      versions.insert(child->data(0, kNumberRole).toInt(), child);
  }
  QHash<QTreeWidgetItem*, int> counts;
  for (auto run = runs->rbegin(); run != runs->rend(); ++run) {
    QTreeWidgetItem* version = versions.value(run->versionNumber);
    if (!version)
      continue;
    QString details = statusText(*run) + QStringLiteral(" · ") + localTime(run->created);
    if (!run->hasTrace)
      details += tr(" · no trace");
    QTreeWidgetItem* item = makeItem(version, ItemKind::Run, runTitle(*run), details);
    item->setIcon(0, runIcon(*run));
    item->setData(0, kIdRole, id);
    item->setData(0, kNumberRole, run->versionNumber);
    item->setData(0, kRunRole, static_cast<qint64>(run->id));
    item->setData(0, kPayloadRole, run->hasTrace);
    item->setToolTip(0, runToolTip(*run));
    if (!run->hasTrace)
      item->setForeground(0, palette().brush(QPalette::Disabled, QPalette::Text));
    ++counts[version];
  }
  for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
    QTreeWidgetItem* version = it.key();
    version->setData(0, kDetailRole,
                     version->data(0, kDetailRole).toString() + QStringLiteral(" · ") +
                         countText(it.value(), tr("run"), tr("runs")));
  }
}

void LibraryPanel::activateRun(QTreeWidgetItem* item)
{
  const qint64 runId = item->data(0, kRunRole).toLongLong();
  if (!item->data(0, kPayloadRole).toBool()) {
    showMessage(tr("Run %1 was stored without a trace: there is nothing to replay.").arg(runId),
                true);
    return;
  }
  emit runActivated(item->data(0, kIdRole).toLongLong(), item->data(0, kNumberRole).toInt(), runId);
}

} // namespace cs::editor
