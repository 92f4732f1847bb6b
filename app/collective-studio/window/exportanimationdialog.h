#pragma once

// File › Export Animation… (issue 19 item 6): the format (GIF, MP4 when this build has FFmpeg, a
// PNG sequence, one SVG per step), the view (topology, timeline or both), the frame rate, the
// seconds per step, the size and where to write. It only collects the choices; MainWindow runs
// the export (visualizer/export, the path --export-animation takes) under a progress dialog.

#include "export/animationexport.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QDoubleSpinBox;

namespace cs::editor {

class ExportAnimationDialog : public QDialog
{
  Q_OBJECT

public:
  /// `basePath` is the suggested output without an extension ("/home/me/ring-allreduce-8").
  explicit ExportAnimationDialog(const QString& basePath, QWidget* parent = nullptr);

  visualizer::AnimationOptions options() const;
  /// The output with the format's extension (a PNG sequence: NAME.png, numbered NAME-0001.png…).
  QString outputPath() const;

private:
  void browse();
  void formatChanged();
  void updateSummary();
  QString extension() const;

  QComboBox* m_format = nullptr;
  QComboBox* m_view = nullptr;
  QSpinBox* m_fps = nullptr;
  QDoubleSpinBox* m_stepSeconds = nullptr;
  QSpinBox* m_width = nullptr;
  QSpinBox* m_height = nullptr;
  QLineEdit* m_path = nullptr;
  QLabel* m_summary = nullptr;
};

} // namespace cs::editor
