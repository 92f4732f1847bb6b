#pragma once

// The status bar's permanent part: the verdict ("✔ correct" in okColor, "✖ 3 errors" in
// errorColor, "⚠ 2 warnings" in warningColor), the target dialect and protocol, the GPU the
// residency check is for, and the size
// ("8 ranks · 56 transfers"). Redrawn from the document's analysis; keeps no state of its own.

#include <QString>
#include <QWidget>

class QLabel;

namespace cs::editor {

class Document;

class StatusSummary : public QWidget
{
  Q_OBJECT

public:
  explicit StatusSummary(Document* document, QWidget* parent = nullptr);

  /// "✔ correct", "✖ 3 errors", "⚠ correct, 2 warnings" as shown.
  QString verdictText() const;
  /// "executor · Simple": the target dialect and protocol.
  QString targetText() const;
  /// "GPU: H100 SXM" or "GPU: any" (the Inspector chooses it).
  QString gpuText() const;
  /// "8 ranks · 56 transfers" (or instructions when the Program cannot be lifted).
  QString sizeText() const;

  /// "2 errors, 1 warning" or "no problems", for the Problems dock's title.
  static QString problemCountText(int errors, int warnings);

private:
  void update();

  Document* m_document;
  QLabel* m_verdict = nullptr;
  QLabel* m_target = nullptr;
  QLabel* m_gpu = nullptr;
  QLabel* m_size = nullptr;
};

} // namespace cs::editor
