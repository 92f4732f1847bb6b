#pragma once

// The base of the Inspector's pages (one per kind of selection: the document, one transfer,
// several transfers, a node, a link, an instruction) and the small editor factories they share.
//
// Invariant: refresh() only writes the document's values into the editors (with updating()
// true, so the editors' change signals are ignored); an editor's change handler only builds the
// new value and pushes one undo command. Editors are never re-created while the page is shown,
// so typing or dragging a spin box keeps its focus across the edits it causes.

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace cs {
struct Problem;
}

namespace cs::editor {

class Document;

class InspectorPage : public QWidget
{
  Q_OBJECT

public:
  InspectorPage(Document* document, QWidget* parent);

  /// Re-reads the document into the editors. Called after every change and selection change.
  virtual void refresh() = 0;
  /// The title above the form: "Transfer #4", "Link GPU0 ↔ NVSwitch0", …
  virtual QString heading() const = 0;

protected:
  Document* document() const { return m_document; }
  bool updating() const { return m_updating; }
  /// Runs `fill` with updating() true.
  template <typename Fill> void fillEditors(Fill&& fill)
  {
    const bool before = m_updating;
    m_updating = true;
    fill();
    m_updating = before;
  }
  QFormLayout* form() const { return m_form; }

  /// A spin box that reports a value only when the user is done typing (Enter, focus out, an
  /// arrow click), so each number typed is one edit rather than one per keystroke.
  QSpinBox* makeSpin(const QString& name, int minimum, int maximum,
                     const QString& specialValueText = {});
  QDoubleSpinBox* makeDoubleSpin(const QString& name, double minimum, double maximum, int decimals,
                                 const QString& suffix);
  QComboBox* makeCombo(const QString& name);
  QCheckBox* makeCheck(const QString& name, const QString& text);
  /// A label for notes below the form (greyed, wrapped).
  QLabel* makeNote(const QString& name);

  /// The problems as coloured lines (errors red, warnings amber) for a QLabel; empty if none.
  static QString problemsHtml(const std::vector<const Problem*>& problems);

private:
  Document* m_document;
  QFormLayout* m_form;
  bool m_updating = false;
};

/// Sets a spin box's value and widens its range to include it, so a value the document already
/// holds is shown as it is (the checker flags it) rather than silently clamped.
void showValue(QSpinBox* spin, int value, int minimum, int maximum);

} // namespace cs::editor
