#pragma once

// Choosing the GPU a document is for (issue 18, item 2). The checker judges threadblock
// residency (limit.residency) for it; with none chosen it assumes the vendor's largest known GPU.
// One combo-box filling shared by the Inspector and the New Document dialog, so both list every
// model of engine/model/gpumodel.h the same way, and the one undoable edit that changes it.

#include "model/dialect.h"
#include "model/gpumodel.h"

#include <QString>

#include <optional>

class QComboBox;
class QUndoCommand;

namespace cs {
struct Program;
}

namespace cs::editor {

class Document;

/// "any (largest)" for none, else "H100 SXM (132 SMs)".
QString gpuChoiceText(std::optional<GpuModelId> gpu);
/// What the choice means for `dialect`'s kernel: the SM/CU count and how many threadblocks per
/// rank stay resident, or, for none, which GPU the check assumes.
QString gpuChoiceToolTip(std::optional<GpuModelId> gpu, DialectId dialect);

/// Fills `combo` with "any (largest)" (item data -1) and then every known model (its id).
void fillGpuCombo(QComboBox* combo);
/// Re-words the tooltips for `dialect` (the resident-block limit depends on the runtime).
void updateGpuToolTips(QComboBox* combo, DialectId dialect);
void showGpuChoice(QComboBox* combo, std::optional<GpuModelId> gpu);
std::optional<GpuModelId> gpuChoice(const QComboBox* combo);

/// The most threadblocks any rank of `program` has.
int widestRankThreadblocks(const Program& program);
/// The GPU of `dialect`'s vendor with the fewest SMs/CUs that keeps `threadblocks` of its blocks
/// resident; none when no known GPU does.
std::optional<GpuModelId> smallestGpuFitting(int threadblocks, DialectId dialect);

/// The undoable edit "Choose GPU H100 SXM" (or "Choose any GPU"); null when `gpu` is already the
/// document's, so callers push nothing.
QUndoCommand* makeChooseGpuCommand(Document* document, std::optional<GpuModelId> gpu);

} // namespace cs::editor
