#pragma once

// File > New: an empty document (collective, ranks, input chunks per rank, in place, with a live
// preview of the buffers it creates) or a classic algorithm from the catalogue (title and summary
// listed; its explanation and cost formula shown; ranks and channels with the reason shown live
// when the algorithm does not exist for them), with a topology preset sized to the ranks and the
// GPU it is for (default: any). The
// dialog only describes the choice: state() builds it and the main window resets the document with
// it.

#include "newdocuments.h"

#include "document/documentstate.h"

#include <QDialog>
#include <QString>

#include <optional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QListWidget;
class QSpinBox;
class QTabWidget;

namespace cs::editor {

class NewDocumentDialog : public QDialog
{
  Q_OBJECT

public:
  enum class Mode { Algorithm, Empty };

  explicit NewDocumentDialog(QWidget* parent = nullptr);

  /// Which tab is chosen: a catalogue algorithm or an empty document.
  Mode mode() const;
  void setMode(Mode mode);
  /// Selects the catalogue algorithm `key` ("ring-allreduce"); false when there is none.
  bool selectAlgorithm(const QString& key);
  /// The selected catalogue key, or an empty string.
  QString algorithmKey() const;
  /// Rank count (both tabs); the topology presets follow it.
  void setRanks(int ranks);
  /// Channel count of the catalogue algorithm.
  void setChannels(int channels);
  /// Chooses a topology preset by name ("ring-8"); empty for none. False when not offered.
  bool selectPreset(const QString& name);
  /// The chosen preset's name ("ring-8"), or an empty string for none.
  QString presetName() const;

  /// The GPU the document is for (gpuchoice.h); none: any.
  void setGpu(std::optional<GpuModelId> gpu);
  std::optional<GpuModelId> gpu() const;

  /// The Empty tab's choice.
  EmptyDocumentOptions emptyOptions() const;
  void setInputChunks(int chunks);
  void setInPlace(bool inPlace);
  /// Selects the Empty tab's collective; false when it is not offered.
  bool selectCollective(Collective collective);
  /// The live description of the buffers the Empty tab creates ("Per rank: i 4 chunks, …").
  QString bufferPreview() const;

  /// Why the current choice cannot be created (an algorithm unsupported for these ranks), or
  /// an empty string when OK is enabled.
  QString problem() const;
  /// The document the choice describes, or nullopt with the reason in `error`.
  std::optional<DocumentState> state(QString* error = nullptr) const;

private:
  QWidget* buildAlgorithmPage();
  QWidget* buildEmptyPage();
  void updateAlgorithmDetails();
  void updatePresets();
  void updateValidity();

  QTabWidget* m_tabs = nullptr;
  QListWidget* m_algorithms = nullptr;
  QLabel* m_details = nullptr;
  QSpinBox* m_channels = nullptr;
  QComboBox* m_collective = nullptr;
  QSpinBox* m_chunks = nullptr;
  QCheckBox* m_inPlace = nullptr;
  QLabel* m_preview = nullptr;
  QSpinBox* m_ranks = nullptr;
  QComboBox* m_preset = nullptr;
  QComboBox* m_gpu = nullptr;
  QLabel* m_problem = nullptr;
  QDialogButtonBox* m_buttons = nullptr;
};

} // namespace cs::editor
