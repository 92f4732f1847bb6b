#pragma once

// File > Export MSCCL XML: one row per runtime generation (classic microsoft/msccl, the current
// executor, RCCL) saying whether that runtime would load the exported file and, when not, the
// first reasons; the writer's notes (attributes it filled in, spellings it changed) below. The
// user picks a dialect and a path; the file is written atomically. See exportreport.h for how
// each verdict is reached.

#include "exportreport.h"

#include <QDialog>
#include <QString>

#include <vector>

class QButtonGroup;
class QDialogButtonBox;
class QFrame;
class QLabel;
class QLineEdit;

namespace cs::editor {

class ExportDialog : public QDialog
{
  Q_OBJECT

public:
  /// Evaluates `program` for every dialect; `current` is preselected and `suggestedPath`
  /// prefilled.
  ExportDialog(const Program& program, DialectId current, const QString& suggestedPath,
               QWidget* parent = nullptr);

  /// The dialect whose XML Export writes.
  DialectId selectedDialect() const;
  void setSelectedDialect(DialectId dialect);
  /// The file Export writes to (trimmed).
  QString path() const;
  void setPath(const QString& path);
  /// One report per dialect, in allDialects() order, computed once at construction.
  const std::vector<DialectReport>& reports() const { return m_reports; }
  /// The report of `dialect`.
  const DialectReport& report(DialectId dialect) const;

  /// Writes the selected dialect's XML to path() atomically; empty string or the reason.
  QString exportNow();

private:
  /// One runtime's choice: its radio button, verdict and problems.
  QFrame* buildDialectRow(const DialectReport& report);
  /// Export (asking for a path first when there is none); on failure the error stays shown.
  void exportClicked();
  void browse();
  void updateButtons();

  std::vector<DialectReport> m_reports;
  QButtonGroup* m_choice = nullptr;
  QLineEdit* m_path = nullptr;
  QLabel* m_result = nullptr;
  QDialogButtonBox* m_buttons = nullptr;
};

} // namespace cs::editor
