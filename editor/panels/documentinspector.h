#pragma once

// The Inspector with nothing selected: the algorithm itself. Name, collective, ranks, chunks per
// rank of input, output and scratch (uniform across ranks), root, the call modes and the notes.
// Shape changes are ReplaceScheduleCommands on the shown Schedule (so the Schedule becomes the
// source); notes are ChangeNotesCommands, which merge while typing. Changing the rank count
// keeps transfers that fall outside; the checker marks them and a note here says how many.
// The GPU the design is for (gpuchoice.h) is chosen here too, whichever level is the source.

#include "inspectorpage.h"

#include "model/schedule.h"

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace cs::editor {

class DocumentInspector : public InspectorPage
{
  Q_OBJECT

public:
  DocumentInspector(Document* document, QWidget* parent);
  void refresh() override;
  QString heading() const override;

  /// Whether `collective` takes a root rank (broadcast, reduce, gather, scatter).
  static bool hasRoot(Collective collective);

private:
  void push(const QString& text, const std::function<void(Schedule&)>& change);
  void setBufferChunks(Buffer buffer, int chunks);
  void chooseGpu();
  void showGpu();

  QLineEdit* m_name;
  QComboBox* m_collective;
  QSpinBox* m_ranks;
  QSpinBox* m_input;
  QSpinBox* m_output;
  QSpinBox* m_scratch;
  QLabel* m_buffersNote;
  QSpinBox* m_root;
  QCheckBox* m_inPlace;
  QCheckBox* m_outOfPlace;
  QComboBox* m_gpu;
  QLabel* m_summary;
  QLabel* m_rangeNote;
  QPlainTextEdit* m_notes;
};

} // namespace cs::editor
