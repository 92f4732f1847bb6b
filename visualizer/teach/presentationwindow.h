#pragma once

// Presentation mode (issue 19 item 3): teaching mode full screen for a lecture hall — only the
// topology animation, the timeline and the narration, in large type and a high-contrast palette
// (light or dark, as the projector and the room want), stepped by the keys a presenter's remote
// sends, with a highlight that follows the presenter's clicks so the room sees where they point.
// It borrows the Teaching dock's view for as long as it is open and gives it back on close (Esc).

#include <QPointer>
#include <QWidget>

namespace cs::editor {
class Document;
class TimelineView;
} // namespace cs::editor

namespace cs::visualizer {

class PointerHighlight;
class TeachingView;

class PresentationWindow : public QWidget
{
  Q_OBJECT

public:
  /// Takes `view` out of its parent until closed; `document` is the one `view` teaches.
  PresentationWindow(TeachingView* view, editor::Document* document, bool dark,
                     QWidget* parent = nullptr);
  ~PresentationWindow() override;

  /// Text and background colours with at least 7:1 contrast (WCAG AAA) in both palettes.
  static QPalette highContrastPalette(bool dark);
  void setDark(bool dark);
  bool isDark() const { return m_dark; }
  editor::TimelineView* timeline() const { return m_timeline; }
  PointerHighlight* pointer() const { return m_pointer; }

  /// How much larger than the desktop's the presentation's type is.
  static constexpr double kFontScale = 1.6;

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

private:
  void giveBack();
  /// Zooms the timeline so that every step and rank fits its area.
  void fitTimeline();

  QPointer<TeachingView> m_view;
  QPointer<QWidget> m_viewHome; ///< where the view lived (the dock), to return it to
  editor::TimelineView* m_timeline = nullptr;
  PointerHighlight* m_pointer = nullptr;
  bool m_dark = false;
};

} // namespace cs::visualizer
