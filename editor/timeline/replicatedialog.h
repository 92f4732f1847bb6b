#pragma once

// The "Replicate…" dialog: asks for the rank shift k and whether chunk indices shift too, and
// previews how many transfers that adds. The timeline applies the answer through
// TimelineView::replicateSelection, so tests skip the dialog.

#include "replicate.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QSpinBox;

namespace cs::editor {

class ReplicateDialog : public QDialog
{
  Q_OBJECT

public:
  /// `selected` are the transfers to replicate over `schedule`'s ranks.
  ReplicateDialog(const Schedule& schedule, std::vector<Transfer> selected,
                  QWidget* parent = nullptr);
  ReplicateOptions options() const;

private:
  void updatePreview();

  const Schedule& m_schedule;
  std::vector<Transfer> m_selected;
  QSpinBox* m_shift;
  QCheckBox* m_shiftChunks;
  QLabel* m_preview;
};

} // namespace cs::editor
