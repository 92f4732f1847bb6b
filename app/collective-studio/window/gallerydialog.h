#pragma once

// Teach › Gallery (issue 19 item 1): every catalogue algorithm as a card (its timeline, the
// collective, the rank counts it allows, its cost formula). Choose one, the ranks and a topology
// (a preset sized to the ranks, or the drawing of the open document) and open it in teaching
// mode. Like the New dialog it only describes the choice; the main window builds the document.

#include "model/topology.h"

#include <QDialog>
#include <QString>

#include <optional>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace cs::editor {

struct GalleryChoice {
  QString key; ///< catalogue key
  int ranks = 4;
  QString preset;              ///< topology preset name, empty with currentDrawing or none
  bool currentDrawing = false; ///< use the open document's topology
};

class GalleryDialog : public QDialog
{
  Q_OBJECT

public:
  /// `drawing`: the open document's topology, offered as "the current drawing" (none: not
  /// offered).
  explicit GalleryDialog(std::optional<Topology> drawing, QWidget* parent = nullptr);

  /// Selects the card of `key`; false when there is none.
  bool selectAlgorithm(const QString& key);
  void setRanks(int ranks);
  /// Chooses a topology entry by its text ("ring-8", or the current drawing's entry).
  bool selectTopology(const QString& text);
  /// Renders every card's thumbnail now (otherwise they arrive one per event-loop turn).
  void renderAllThumbnails();
  /// The number of cards whose thumbnail is drawn.
  int thumbnailsRendered() const;

  GalleryChoice choice() const;
  /// Why the choice cannot be opened (ranks the algorithm does not allow, a drawing with another
  /// GPU count, a topology without a route the algorithm needs), or empty when Open is enabled.
  QString problem() const;

private:
  void fillCards();
  void renderNextThumbnail();
  void updateTopologies();
  void updateDetails();
  void updateValidity();

  /// The chosen topology: the drawing, or the preset built.
  std::optional<Topology> chosenTopology() const;

  std::optional<Topology> m_drawing;
  int m_drawingGpus = 0;
  int m_nextThumbnail = 0;
  QListWidget* m_cards = nullptr;
  QLabel* m_details = nullptr;
  QSpinBox* m_ranks = nullptr;
  QComboBox* m_topology = nullptr;
  QLabel* m_problem = nullptr;
  QPushButton* m_open = nullptr;
};

} // namespace cs::editor
