#include "gpuchoice.h"

#include "document/commands/statecommands.h"
#include "document/document.h"

#include <QComboBox>

namespace cs::editor {

namespace {

constexpr int kAnyGpu = -1;

QString toQString(std::string_view text)
{
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString unitsText(const GpuModel& model)
{
  return QStringLiteral("%1 %2s").arg(model.computeUnits).arg(toQString(model.unitName()));
}

} // namespace

QString gpuChoiceText(std::optional<GpuModelId> gpu)
{
  if (!gpu)
    return QObject::tr("any (largest)");
  const GpuModel& model = gpuModel(*gpu);
  const QString title = toQString(model.title);
  // "MI250X (one die)" already has a parenthesis: "MI250X (one die, 110 CUs)".
  if (title.endsWith(QLatin1Char(')')))
    return title.chopped(1) + QStringLiteral(", %1)").arg(unitsText(model));
  return QStringLiteral("%1 (%2)").arg(title, unitsText(model));
}

QString gpuChoiceToolTip(std::optional<GpuModelId> gpu, DialectId dialect)
{
  if (!gpu) {
    const GpuModel& largest = mostPermissiveGpu(dialectVendor(dialect));
    return QObject::tr("No GPU chosen: residency is checked for the largest known GPU of the "
                       "runtime's vendor, %1 (%2), and an info names smaller GPUs the program "
                       "would hang on.")
        .arg(toQString(largest.title), unitsText(largest));
  }
  const GpuModel& model = gpuModel(*gpu);
  const RuntimeBlock& block = runtimeBlock(dialect);
  return QObject::tr("%1: %2; keeps at most %3 of %4's threadblocks per rank resident (%5 per "
                     "%6, as %7).")
      .arg(toQString(model.title), unitsText(model))
      .arg(residentThreadblocks(model, dialect))
      .arg(toQString(cs::dialect(dialect).title))
      .arg(block.blocksPerUnit)
      .arg(toQString(model.unitName()), toQString(block.why));
}

void fillGpuCombo(QComboBox* combo)
{
  // Narrow enough for the Inspector's form to keep the box beside its label.
  combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo->setMinimumContentsLength(12);
  combo->clear();
  combo->addItem(gpuChoiceText(std::nullopt), kAnyGpu);
  for (const GpuModel& model : allGpuModels())
    combo->addItem(gpuChoiceText(model.id), static_cast<int>(model.id));
}

void updateGpuToolTips(QComboBox* combo, DialectId dialect)
{
  for (int i = 0; i < combo->count(); ++i) {
    const int data = combo->itemData(i).toInt();
    const std::optional<GpuModelId> gpu =
        data == kAnyGpu ? std::nullopt : std::optional(static_cast<GpuModelId>(data));
    combo->setItemData(i, gpuChoiceToolTip(gpu, dialect), Qt::ToolTipRole);
  }
  combo->setToolTip(combo->currentData(Qt::ToolTipRole).toString());
}

void showGpuChoice(QComboBox* combo, std::optional<GpuModelId> gpu)
{
  combo->setCurrentIndex(combo->findData(gpu ? static_cast<int>(*gpu) : kAnyGpu));
  combo->setToolTip(combo->currentData(Qt::ToolTipRole).toString());
}

std::optional<GpuModelId> gpuChoice(const QComboBox* combo)
{
  const int data = combo->currentData().toInt();
  if (combo->currentIndex() < 0 || data == kAnyGpu)
    return std::nullopt;
  return static_cast<GpuModelId>(data);
}

int widestRankThreadblocks(const Program& program)
{
  int widest = 0;
  for (const Gpu& gpu : program.gpus)
    widest = std::max(widest, static_cast<int>(gpu.threadblocks.size()));
  return widest;
}

std::optional<GpuModelId> smallestGpuFitting(int threadblocks, DialectId dialect)
{
  const GpuModel* smallest = nullptr;
  for (const GpuModel& model : allGpuModels()) {
    if (model.vendor != dialectVendor(dialect) ||
        residentThreadblocks(model, dialect) < threadblocks)
      continue;
    if (!smallest || model.computeUnits < smallest->computeUnits)
      smallest = &model;
  }
  return smallest ? std::optional(smallest->id) : std::nullopt;
}

QUndoCommand* makeChooseGpuCommand(Document* document, std::optional<GpuModelId> gpu)
{
  if (document->lowering().gpu == gpu)
    return nullptr;
  LowerOptions options = document->lowering();
  options.gpu = gpu;
  const QString text = gpu ? QObject::tr("Choose GPU %1").arg(toQString(gpuModel(*gpu).title))
                           : QObject::tr("Choose any GPU");
  return new ChangeLoweringCommand(document, options, text);
}

} // namespace cs::editor
