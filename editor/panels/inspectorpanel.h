#pragma once

// The Inspector dock (issue 6, item 1): edits the properties of whatever is selected.
//
// A heading above one page per kind of selection, chosen from Document::selection() in this
// order: transfers (one: TransferInspector, several: TransfersInspector), an instruction no
// transfer owns (InstructionInspector, read-only), one node or link (NodeInspector,
// LinkInspector), several topology items, and with nothing selected the document itself
// (DocumentInspector, headed "Nothing selected"; or the selected cell when a problem chose one).
// Pages are created once and refreshed after every change, so an editor being typed into keeps its
// focus. Every edit is an undo command pushed by the page.

#include <QAction>
#include <QList>
#include <QWidget>

class QLabel;
class QScrollArea;
class QStackedWidget;

namespace cs::editor {

class Document;
class DocumentInspector;
class InspectorPage;
class InstructionInspector;
class LinkInspector;
class NodeInspector;
class TopologySelectionInspector;
class TransferInspector;
class TransfersInspector;

class InspectorPanel : public QWidget
{
  Q_OBJECT

public:
  explicit InspectorPanel(Document* document, QWidget* parent = nullptr);
  /// Actions this view adds to the main window's toolbar and menus while it is shown.
  QList<QAction*> toolActions() const { return m_toolActions; }

  /// The page shown now (for tests: find its editors by object name).
  InspectorPage* currentPage() const { return m_current; }
  /// The heading shown above the page.
  QString heading() const;

private:
  void showSelection();
  void refreshPage();

  Document* m_document;
  QLabel* m_heading;
  QStackedWidget* m_stack;
  DocumentInspector* m_documentPage;
  TransferInspector* m_transferPage;
  TransfersInspector* m_transfersPage;
  InstructionInspector* m_instructionPage;
  NodeInspector* m_nodePage;
  LinkInspector* m_linkPage;
  TopologySelectionInspector* m_topologyPage;
  InspectorPage* m_current = nullptr;
  QList<QAction*> m_toolActions;
};

} // namespace cs::editor
