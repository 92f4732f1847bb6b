#pragma once

// Widgets the topology view lays over its canvas: the hint shown instead of an empty canvas, the
// warning line naming the algorithm's ranks that have no GPU, and the legend of link colours.
// They only display what the view tells them and report clicks; the view does the edits.

#include "model/topology.h"

#include <QFrame>
#include <QWidget>

#include <vector>

class QLabel;
class QMenu;
class QPushButton;
class QToolButton;

namespace cs::editor {

/// "No topology yet — pick a preset or add GPUs with the tools above", with a preset button and
/// a button that adds one GPU per rank of the algorithm.
class EmptyTopologyHint : public QFrame
{
  Q_OBJECT

public:
  explicit EmptyTopologyHint(QWidget* parent = nullptr);
  /// The menu the "Pick a preset" button opens (owned by the view).
  void setPresetMenu(QMenu* menu);
  /// Names the rank count on the "Add GPUs" button.
  void setRankCount(int ranks);
  QPushButton* addGpusButton() const { return m_addGpus; }

signals:
  void addGpusClicked();

protected:
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;

private:
  QLabel* m_icon;
  QPushButton* m_presets;
  QPushButton* m_addGpus;
};

/// A strip above the canvas: "Ranks 4–7 of the algorithm have no GPU in this topology." with a
/// button that adds GPUs for them. Hidden while every rank has a GPU.
class RankWarningBar : public QFrame
{
  Q_OBJECT

public:
  explicit RankWarningBar(QWidget* parent = nullptr);
  /// Shows the missing ranks (hides the bar when `missing` is empty).
  void setMissingRanks(const std::vector<int>& missing);
  QString text() const;

signals:
  void addGpusClicked();

protected:
  void paintEvent(QPaintEvent* event) override;
  void changeEvent(QEvent* event) override;

private:
  QLabel* m_icon;
  QLabel* m_text;
  QToolButton* m_add;
};

/// The link kinds present, each with its colour, in the canvas's bottom left corner; ignores the
/// mouse so the canvas under it still works.
class LinkLegend : public QWidget
{
  Q_OBJECT

public:
  explicit LinkLegend(QWidget* parent = nullptr);
  /// Shows these kinds, in the order given (hidden when empty).
  void setKinds(const std::vector<LinkKind>& kinds);
  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  std::vector<LinkKind> m_kinds;
};

} // namespace cs::editor
