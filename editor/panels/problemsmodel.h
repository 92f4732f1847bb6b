#pragma once

// The rows of the Problems dock: Document::analysis().problems that pass the filter (severity
// toggles and a search text), each with its related locations (a deadlock's wait-for cycle, the
// two sides of a race) as child rows, then a replayed run's problems (setRunProblems, a copy the
// model owns). A fault repeated on several ranks is one row ("ranks 1–3: …",
// model/diagnosticgroups.h) with the other places as child rows after the related ones. The model
// keeps only which problems are shown, by index into the Analysis; it is
// rebuilt by refresh() after every analysisChanged, so its indices never outlive the Analysis
// they point into.

#include "analysis/analysis.h"
#include "model/diagnostic.h"

#include <QAbstractItemModel>

#include <optional>
#include <utility>
#include <vector>

namespace cs::editor {

class Document;

class ProblemsModel : public QAbstractItemModel
{
  Q_OBJECT

public:
  enum Column : int { MessageColumn, CodeColumn, WhereColumn, StageColumn, ColumnCount };

  /// Which problems are listed. The search matches message, code and location, ignoring case.
  struct Filter {
    bool errors = true;
    bool warnings = true;
    bool infos = true;
    QString text;
  };

  explicit ProblemsModel(Document* document, QObject* parent = nullptr);

  void setFilter(const Filter& filter);
  const Filter& filter() const { return m_filter; }
  /// Re-reads the Analysis (call after analysisChanged).
  void refresh();

  /// Top-level rows shown with the current filter (a group of repeated faults is one).
  int problemCount() const { return static_cast<int>(m_rows.size()); }
  /// Problems shown with the current filter: the top-level rows and their groups' other members.
  int listedProblemCount() const;
  /// The index in analysis().problems of a top-level row (or of a child row's parent), or -1
  /// (also for the rows of a run, see setRunProblems).
  int problemIndex(const QModelIndex& index) const;
  /// The problem a row shows (a child row: its parent's), from the analysis or the run; or null.
  const Problem* problemAt(const QModelIndex& index) const;
  /// Whether a row is about the replayed run rather than the design.
  bool isRunRow(const QModelIndex& index) const;

  /// What a replayed run found (issue 14 item 7: blocked positions, the wait-for cycle), listed
  /// after the design's problems with the stage "run"; an empty list removes them.
  void setRunProblems(std::vector<Problem> problems);
  const std::vector<Problem>& runProblems() const { return m_run; }
  /// The problem index of a child row that is another member of its row's group (the same
  /// fault on another rank), or -1.
  int memberOf(const QModelIndex& index) const;
  /// "ranks 1–3" for a row about several ranks (a group, a wrong result), else empty.
  QString ranksPrefix(int row) const;
  /// The message column's text: the diagnostic, after ranksPrefix when there is one.
  QString message(const QModelIndex& index) const;
  /// The Where column's text: what a double click selects (problemtargets.h).
  QString where(const QModelIndex& index) const;
  /// The related location a child row shows, or nullopt for top-level rows.
  std::optional<Location> relatedLocation(const QModelIndex& index) const;

  /// "transfer #4 · rank 1 tb 0 step 3 · line 12" (the parts that are known).
  static QString whereText(const Problem& problem);
  static QString stageText(const Problem& problem);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  bool passes(const Problem& problem) const;
  /// Appends a shown row for `entry` (see m_rows) with its group's other `members`.
  void addRow(int entry, std::vector<int> members);
  const Problem* problemOfRow(int row) const;
  QVariant relatedData(const QModelIndex& index, int role) const;

  Document* m_document;
  Filter m_filter;
  std::vector<Problem> m_run;  ///< the replayed run's problems
  std::vector<int> m_rows;     ///< shown: analysis problem index, or -1 - index into m_run
  std::vector<int> m_children; ///< related locations and other group members per shown row
  std::vector<std::vector<int>> m_members; ///< per shown row: the group's other problems
  std::vector<QString> m_prefixes;         ///< per shown row: ranksPrefix
  std::vector<QString> m_wheres;           ///< per shown row: the target's Where text
};

} // namespace cs::editor
