#pragma once

// What Help › About lists: the versions of the libraries this process found at run time (Qt,
// SQLite, Graphviz, the CUDA driver and runtime, NCCL) and the executors of the backend registry
// (the GPU ones are modules found at run time), each with "not found" (or why not) when absent. A
// list of rows so that tests read it without a dialog.

#include <QList>
#include <QString>

namespace cs::editor {

struct AboutRow {
  QString component; ///< "Qt", "SQLite", "CUDA driver", "Executor cuda"…
  QString version;   ///< "6.4.2", or "not found" / the reason it is unavailable
  bool found = false;
};

/// The rows, Collective Studio itself first.
QList<AboutRow> aboutRows();

/// The rows as an HTML table for the About dialog.
QString aboutTableHtml(const QList<AboutRow>& rows);

} // namespace cs::editor
