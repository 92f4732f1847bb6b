#pragma once

// The question double-clicking a topology in the Library asks when the document already has a
// topology (a drawn machine is work that one double click should not throw away silently).

#include <QString>

#include <memory>

class QMessageBox;
class QWidget;

namespace cs::editor {

/// "Replace the document's topology 'ring-4' with 'dgx-h100'?" with Replace (the default) and
/// Cancel. Not yet shown: the caller execs it (or, for --dialog, paints it).
std::unique_ptr<QMessageBox>
makeReplaceTopologyQuestion(const QString& current, const QString& replacement, QWidget* parent);

/// Asks the question; true when the user chose Replace.
bool askReplaceTopology(const QString& current, const QString& replacement, QWidget* parent);

} // namespace cs::editor
