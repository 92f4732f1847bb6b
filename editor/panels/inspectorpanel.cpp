#include "inspectorpanel.h"

#include "documentinspector.h"
#include "instructioninspector.h"
#include "topologyinspector.h"
#include "transferinspector.h"

#include "document/document.h"
#include "program/programedits.h"

#include <QFrame>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

QString cellText(const ChunkRef& slot)
{
  return QStringLiteral("r%1 %2[%3]")
      .arg(slot.rank)
      .arg(QLatin1Char(bufferLetter(slot.buffer)))
      .arg(slot.index);
}

} // namespace

InspectorPanel::InspectorPanel(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_heading(new QLabel(this))
{
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);

  m_heading->setObjectName(QStringLiteral("inspectorHeading"));
  QFont headingFont = m_heading->font();
  headingFont.setBold(true);
  headingFont.setPointSizeF(headingFont.pointSizeF() * 1.2);
  m_heading->setFont(headingFont);
  m_heading->setContentsMargins(10, 8, 10, 6);
  m_heading->setWordWrap(true);
  m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_heading);

  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  // Pages wrap their rows when the dock is narrow; a scroll bar beats a cut-off editor when even
  // that does not fit.
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  auto* pages = new QWidget(scroll);
  auto* pagesLayout = new QVBoxLayout(pages);
  pagesLayout->setContentsMargins(0, 0, 0, 0);
  // Only the current page is visible, so the scroll area is as tall as that page alone.
  m_documentPage = new DocumentInspector(document, pages);
  m_transferPage = new TransferInspector(document, pages);
  m_transfersPage = new TransfersInspector(document, pages);
  m_instructionPage = new InstructionInspector(document, pages);
  m_nodePage = new NodeInspector(document, pages);
  m_linkPage = new LinkInspector(document, pages);
  m_topologyPage = new TopologySelectionInspector(document, pages);
  for (InspectorPage* page : std::initializer_list<InspectorPage*>{
           m_documentPage, m_transferPage, m_transfersPage, m_instructionPage, m_nodePage,
           m_linkPage, m_topologyPage}) {
    page->hide();
    pagesLayout->addWidget(page);
  }
  pagesLayout->addStretch(1);
  scroll->setWidget(pages);
  layout->addWidget(scroll, 1);

  connect(m_document, &Document::selectionChanged, this, &InspectorPanel::showSelection);
  connect(m_document, &Document::changed, this, &InspectorPanel::showSelection);
  connect(m_document, &Document::analysisChanged, this, &InspectorPanel::refreshPage);
  connect(m_document, &Document::originChanged, this, &InspectorPanel::refreshPage);
  showSelection();
}

QString InspectorPanel::heading() const
{
  return m_heading->text();
}

void InspectorPanel::showSelection()
{
  const Selection& selection = m_document->selection();
  const std::optional<Schedule>& shown = m_document->shownSchedule();
  const std::optional<Program>& program = m_document->shownProgram();
  const std::optional<Topology>& topology = m_document->topology();

  std::set<int> transfers;
  if (shown)
    for (int id : selection.transfers)
      if (shown->transfer(id))
        transfers.insert(id);
  std::set<int> nodes;
  std::set<int> links;
  if (topology) {
    for (int id : selection.nodes)
      if (topology->node(id))
        nodes.insert(id);
    for (int id : selection.links)
      if (topology->link(id))
        links.insert(id);
  }

  InspectorPage* page = m_documentPage;
  if (transfers.size() == 1) {
    m_transferPage->setTransfer(*transfers.begin());
    page = m_transferPage;
  } else if (transfers.size() > 1) {
    m_transfersPage->setTransfers(transfers);
    page = m_transfersPage;
  } else if (selection.instruction && program && stepAt(*program, *selection.instruction)) {
    m_instructionPage->setInstruction(*selection.instruction);
    page = m_instructionPage;
  } else if (nodes.size() == 1 && links.empty()) {
    m_nodePage->setNode(*nodes.begin());
    page = m_nodePage;
  } else if (links.size() == 1 && nodes.empty()) {
    m_linkPage->setLink(*links.begin());
    page = m_linkPage;
  } else if (!nodes.empty() || !links.empty()) {
    m_topologyPage->setItems(nodes, links);
    page = m_topologyPage;
  }

  if (page != m_current) {
    if (m_current)
      m_current->hide();
    m_current = page;
    m_current->show();
  }
  refreshPage();
}

void InspectorPanel::refreshPage()
{
  if (!m_current)
    return;
  m_current->refresh();
  if (m_current != m_documentPage) {
    m_heading->setText(m_current->heading());
    return;
  }
  // The document's own properties (its Name among them) stand in for an empty selection; the
  // heading says that nothing is selected, or which cell a problem pointed at.
  const std::optional<CellRef> cell = m_document->selection().cell;
  m_heading->setText(
      cell ? tr("Cell %1 · after step %2").arg(cellText(cell->slot)).arg(cell->column - 1)
           : tr("Nothing selected"));
}

} // namespace cs::editor
