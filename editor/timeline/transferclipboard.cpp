#include "transferclipboard.h"

#include "io/designdocument.h"

#include <QCoreApplication>
#include <QMimeData>

namespace cs::editor {

namespace {

QString tr(const char* text)
{
  return QCoreApplication::translate("TransferClipboard", text);
}

QString slotText(const ChunkRef& ref)
{
  return QStringLiteral("r+%1 %2[%3]")
      .arg(ref.rank)
      .arg(QChar(bufferLetter(ref.buffer)))
      .arg(ref.index);
}

/// What no copy writes; a hand-edited or damaged clipboard is refused with where it is wrong.
QString invalidTransfer(const TransferGroup& group)
{
  for (std::size_t k = 0; k < group.transfers.size(); ++k) {
    const Transfer& t = group.transfers[k];
    const auto badRef = [&](const ChunkRef& ref) {
      return ref.rank < 0 || ref.rank >= group.ranks || ref.index < 0;
    };
    if (t.step < 0 || t.count < 1 || badRef(t.src) || badRef(t.dst))
      return tr("transfer %1 has a negative step, chunk or count, or a rank outside 0–%2")
          .arg(k)
          .arg(group.ranks - 1);
  }
  return {};
}

} // namespace

QMimeData* transfersToMimeData(const TransferGroup& group, const Schedule& source)
{
  DesignDocument document;
  Schedule& clip = document.schedule;
  clip.name = "clipboard";
  clip.collective = source.collective;
  clip.ranks = source.ranks;
  clip.buffers = source.buffers;
  clip.inplace = source.inplace;
  clip.outofplace = source.outofplace;
  clip.root = source.root;
  clip.transfers = group.transfers;
  auto* data = new QMimeData;
  data->setData(QString::fromLatin1(kTransfersMimeType),
                QByteArray::fromStdString(writeDesignDocument(document)));
  data->setText(describeGroup(group));
  return data;
}

ClipboardTransfers transfersFromMimeData(const QMimeData* data)
{
  ClipboardTransfers read;
  const QString type = QString::fromLatin1(kTransfersMimeType);
  if (!data || !data->hasFormat(type)) {
    read.error = tr("The clipboard holds no transfers: copy some on a timeline first (Ctrl+C)");
    return read;
  }
  const QByteArray bytes = data->data(type);
  const DesignReadResult design = readDesignDocument(
      std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  if (!design.document) {
    const QString why = design.diagnostics.empty()
                            ? tr("not a design document")
                            : QString::fromStdString(design.diagnostics.front().message);
    read.error = tr("The clipboard's transfers cannot be read: %1").arg(why);
    return read;
  }
  TransferGroup group{design.document->schedule.ranks, design.document->schedule.transfers};
  if (group.ranks < 1) {
    read.error = tr("The clipboard's transfers cannot be read: they name no ranks");
    return read;
  }
  if (const QString invalid = invalidTransfer(group); !invalid.isEmpty()) {
    read.error = tr("The clipboard's transfers cannot be read: %1").arg(invalid);
    return read;
  }
  read.group = std::move(group);
  return read;
}

QString describeGroup(const TransferGroup& group)
{
  QStringList lines;
  lines << tr("Collective Studio transfers (%1); steps and ranks relative to the first:")
               .arg(group.transfers.size());
  for (const Transfer& t : group.transfers)
    lines << QStringLiteral("step +%1: %2 %3 → %4%5")
                 .arg(t.step)
                 .arg(QString::fromUtf8(transferOpName(t.op).data()), slotText(t.src),
                      slotText(t.dst))
                 .arg(t.count > 1 ? tr(" (%1 chunks)").arg(t.count) : QString());
  return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace cs::editor
