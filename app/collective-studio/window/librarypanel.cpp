#include "librarypanel.h"
#include "librarypanel_p.h"
#include "replacetopologyquestion.h"

#include "style/textformat.h"
#include "twolinedelegate.h"
#include "windowicons.h"

#include "document/commands/statecommands.h"
#include "document/document.h"
#include "style/rankpalette.h"

#include "io/topologyjson.h"
#include "library.h"
#include "model/topologypresets.h"

#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace cs::editor {

using namespace librarytree;

namespace {

QString toQString(const std::string& text)
{
  return QString::fromStdString(text);
}

QString capitalised(QString text)
{
  if (!text.isEmpty())
    text[0] = text[0].toUpper();
  return text;
}

QIcon verdictIcon(const storage::VerdictSummary& verdict)
{
  if (verdict.verdict == "ok")
    return drawnIcon(verdict.warnings > 0 ? WindowIcon::Warning : WindowIcon::Ok);
  if (verdict.verdict == "errors" || verdict.verdict == "unreadable")
    return drawnIcon(WindowIcon::Error);
  return drawnIcon(WindowIcon::Version);
}

QString verdictText(const storage::VerdictSummary& verdict)
{
  if (verdict.verdict == "ok")
    return verdict.warnings > 0 ? LibraryPanel::tr("correct, %1")
                                      .arg(countText(verdict.warnings, LibraryPanel::tr("warning"),
                                                     LibraryPanel::tr("warnings")))
                                : LibraryPanel::tr("correct");
  if (verdict.verdict == "errors")
    return countText(verdict.errors, LibraryPanel::tr("error"), LibraryPanel::tr("errors")) +
           (verdict.firstError.empty() ? QString()
                                       : QStringLiteral(": ") + toQString(verdict.firstError));
  if (verdict.verdict == "unreadable")
    return LibraryPanel::tr("unreadable XML");
  return LibraryPanel::tr("no MSCCL XML");
}

/// Built-in machines (fixed presets) and the parametric shapes the document's rank count fits.
std::vector<PresetInfo> builtInTopologies()
{
  std::vector<PresetInfo> presets;
  for (PresetInfo& preset : topologyPresets()) {
    if (preset.name.find('N') == std::string::npos && preset.name.find("RxC") == std::string::npos)
      presets.push_back(std::move(preset));
  }
  presets.push_back({"ring", "the document's ranks in a ring"});
  presets.push_back({"fully-connected", "the document's ranks, every pair linked"});
  return presets;
}

} // namespace

namespace librarytree {

QString localTime(const std::string& stamp)
{
  const QString text = QString::fromStdString(stamp);
  QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
  if (!time.isValid())
    time = QDateTime::fromString(text, Qt::ISODate);
  return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : text;
}

QTreeWidgetItem* makeItem(QTreeWidgetItem* parent, LibraryPanel::ItemKind kind, const QString& name,
                          const QString& details)
{
  auto* item = new QTreeWidgetItem(parent, {name});
  item->setData(0, kKindRole, static_cast<int>(kind));
  item->setData(0, kDetailRole, details);
  return item;
}

LibraryPanel::ItemKind kindOf(const QTreeWidgetItem* item)
{
  return static_cast<LibraryPanel::ItemKind>(item->data(0, kKindRole).toInt());
}

} // namespace librarytree

LibraryPanel::LibraryPanel(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(4);

  m_search = new QLineEdit(this);
  m_search->setPlaceholderText(tr("Search algorithms, tags, notes…"));
  m_search->setClearButtonEnabled(true);
  m_search->addAction(drawnIcon(WindowIcon::Search), QLineEdit::LeadingPosition);
  layout->addWidget(m_search);

  m_message = new QLabel(this);
  m_message->setWordWrap(true);
  m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_message->setVisible(false);
  layout->addWidget(m_message);

  m_tree = new QTreeWidget(this);
  // One column, details as a second line: the dock is narrow and a second column is cut off.
  m_tree->setColumnCount(1);
  m_tree->setHeaderHidden(true);
  m_tree->setItemDelegate(new TwoLineDelegate(kDetailRole, false, m_tree));
  m_tree->setIconSize(QSize(18, 18));
  m_tree->setExpandsOnDoubleClick(false);
  m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  layout->addWidget(m_tree, 1);

  // Typing filters after a short pause, not on every key: search is a database query.
  m_searchDelay = new QTimer(this);
  m_searchDelay->setSingleShot(true);
  m_searchDelay->setInterval(150);
  connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
  connect(m_searchDelay, &QTimer::timeout, this, &LibraryPanel::populate);
  connect(m_tree, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* item) {
    if (kindOf(item) == ItemKind::Algorithm)
      loadVersions(item);
  });
  connect(m_tree, &QTreeWidget::itemActivated, this, &LibraryPanel::activate);

  auto* refreshAction = new QAction(tr("Refresh Library"), this);
  connect(refreshAction, &QAction::triggered, this, &LibraryPanel::refresh);
  m_toolActions << refreshAction;

  populate();
}

LibraryPanel::~LibraryPanel() = default;

QString LibraryPanel::openLibrary(const QString& path)
{
  m_library.reset();
  storage::Result<storage::Library> opened = storage::Library::open(path.toStdString());
  if (!opened) {
    const QString error = toQString(opened.error().message);
    showMessage(tr("The library could not be opened. %1").arg(error), true);
    populate();
    return error;
  }
  m_library = std::make_unique<storage::Library>(std::move(opened.value()));
  if (m_library->readOnly())
    showMessage(tr("Read-only: %1").arg(toQString(m_library->notice())), true);
  else if (!m_library->notice().empty())
    showMessage(capitalised(toQString(m_library->notice())) + QLatin1Char('.'), false);
  else
    showMessage({}, false);
  populate();
  return {};
}

storage::Library* LibraryPanel::library()
{
  return m_library.get();
}

QString LibraryPanel::message() const
{
  return m_message->isHidden() ? QString() : m_message->text();
}

void LibraryPanel::showMessage(const QString& text, bool error)
{
  m_message->setText(text);
  m_message->setVisible(!text.isEmpty());
  // Errors in red; what opening did ("created a new library …") dimmed, as a remark.
  QPalette palette = this->palette();
  QColor colour = error ? errorColor() : palette.color(QPalette::WindowText);
  if (!error)
    colour.setAlphaF(0.7f);
  palette.setColor(QPalette::WindowText, colour);
  m_message->setPalette(palette);
  if (m_library)
    m_message->setToolTip(QString::fromStdString(m_library->path().string()));
}

void LibraryPanel::refresh()
{
  populate();
}

void LibraryPanel::setSearchText(const QString& text)
{
  m_search->setText(text);
  m_searchDelay->stop();
  populate();
}

QString LibraryPanel::detailsOf(const QTreeWidgetItem* item)
{
  return item->data(0, kDetailRole).toString();
}

QTreeWidgetItem* LibraryPanel::algorithmItem(const QString& name) const
{
  for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
    QTreeWidgetItem* group = m_tree->topLevelItem(g);
    for (int i = 0; i < group->childCount(); ++i) {
      QTreeWidgetItem* item = group->child(i);
      if (kindOf(item) == ItemKind::Algorithm && item->text(0) == name)
        return item;
    }
  }
  return nullptr;
}

void LibraryPanel::populate()
{
  // Keep what the user had expanded across a refresh.
  QSet<qint64> expanded;
  for (int g = 0; g < m_tree->topLevelItemCount(); ++g) {
    QTreeWidgetItem* group = m_tree->topLevelItem(g);
    for (int i = 0; i < group->childCount(); ++i) {
      if (group->child(i)->isExpanded())
        expanded.insert(group->child(i)->data(0, kIdRole).toLongLong());
    }
  }
  m_tree->clear();
  auto* algorithms = new QTreeWidgetItem(m_tree, {tr("Algorithms")});
  algorithms->setData(0, kKindRole, static_cast<int>(ItemKind::Group));
  auto* topologies = new QTreeWidgetItem(m_tree, {tr("Topologies")});
  topologies->setData(0, kKindRole, static_cast<int>(ItemKind::Group));
  for (QTreeWidgetItem* group : {algorithms, topologies}) {
    QFont font = group->font(0);
    font.setBold(true);
    group->setFont(0, font);
  }
  populateAlgorithms(algorithms);
  populateTopologies(topologies);
  algorithms->setExpanded(true);
  topologies->setExpanded(true);
  for (int i = 0; i < algorithms->childCount(); ++i) {
    QTreeWidgetItem* item = algorithms->child(i);
    if (expanded.contains(item->data(0, kIdRole).toLongLong()))
      item->setExpanded(true);
  }
}

void LibraryPanel::populateAlgorithms(QTreeWidgetItem* group)
{
  if (!m_library) {
    makeItem(group, ItemKind::Placeholder, tr("(no library)"), {});
    return;
  }
  const QString text = m_search->text().trimmed();
  storage::SearchQuery query;
  query.text = text.toStdString();
  storage::Result<std::vector<storage::AlgorithmRecord>> found =
      text.isEmpty() ? m_library->list() : m_library->search(query);
  if (!found) {
    showMessage(toQString(found.error().message), true);
    return;
  }
  for (const storage::AlgorithmRecord& record : *found) {
    const QString details = toQString(record.collective) + QStringLiteral(" · ") +
                            countText(record.ranks, tr("rank"), tr("ranks")) +
                            QStringLiteral(" · ") +
                            countText(record.headVersion, tr("version"), tr("versions"));
    QTreeWidgetItem* item = makeItem(group, ItemKind::Algorithm, toQString(record.name), details);
    item->setIcon(0, drawnIcon(WindowIcon::Algorithm));
    item->setData(0, kIdRole, static_cast<qint64>(record.id));
    item->setChildIndicatorPolicy(QTreeWidgetItem::ShowIndicator);
    QString tip = toQString(record.name) + QStringLiteral("\n") + details;
    if (!record.notes.empty())
      tip += QStringLiteral("\n\n") + toQString(record.notes);
    item->setToolTip(0, tip);
  }
  if (found->empty())
    makeItem(group, ItemKind::Placeholder,
             text.isEmpty() ? tr("(empty)") : tr("(nothing matches \"%1\")").arg(text), {});
}

void LibraryPanel::loadVersions(QTreeWidgetItem* algorithm)
{
  if (algorithm->data(0, kLoadedRole).toBool() || !m_library)
    return;
  algorithm->setData(0, kLoadedRole, true);
  const qint64 id = algorithm->data(0, kIdRole).toLongLong();
  storage::Result<std::vector<storage::VersionRecord>> history = m_library->history(id);
  if (!history) {
    makeItem(algorithm, ItemKind::Placeholder, toQString(history.error().message), {});
    return;
  }
  // Newest first: the head is what people open.
  for (auto version = history->rbegin(); version != history->rend(); ++version) {
    const QString message =
        version->message.empty() ? tr("(no message)") : toQString(version->message);
    QTreeWidgetItem* item = makeItem(
        algorithm, ItemKind::Version, tr("v%1  %2").arg(version->number).arg(message),
        localTime(version->created) + QStringLiteral(" · ") + verdictText(version->verdict));
    item->setIcon(0, verdictIcon(version->verdict));
    item->setData(0, kIdRole, id);
    item->setData(0, kNumberRole, version->number);
    const QString tip = tr("Version %1 — %2\n%3\n%4 threadblocks, %5 steps\nVerdict: %6")
                            .arg(version->number)
                            .arg(message, localTime(version->created))
                            .arg(version->shape.threadblocks)
                            .arg(version->shape.steps)
                            .arg(verdictText(version->verdict));
    item->setToolTip(0, tip);
  }
  loadRuns(algorithm);
}

void LibraryPanel::populateTopologies(QTreeWidgetItem* group)
{
  const QString text = m_search->text().trimmed();
  const auto matches = [&](const QString& name) {
    return text.isEmpty() || name.contains(text, Qt::CaseInsensitive);
  };
  if (m_library) {
    storage::Result<std::vector<storage::TopologyRecord>> stored = m_library->topologies();
    if (stored) {
      for (const storage::TopologyRecord& record : *stored) {
        if (!matches(toQString(record.name)))
          continue;
        QTreeWidgetItem* item = makeItem(group, ItemKind::Topology, toQString(record.name),
                                         tr("saved %1").arg(localTime(record.created)));
        item->setIcon(0, drawnIcon(WindowIcon::Topology));
        item->setData(0, kPayloadRole, toQString(record.json));
      }
    }
  }
  for (const PresetInfo& preset : builtInTopologies()) {
    if (!matches(toQString(preset.name)))
      continue;
    QTreeWidgetItem* item = makeItem(group, ItemKind::PresetTopology, toQString(preset.name),
                                     toQString(preset.description));
    item->setIcon(0, drawnIcon(WindowIcon::Topology));
    item->setData(0, kPayloadRole, toQString(preset.name));
    item->setToolTip(0, toQString(preset.description));
  }
}

void LibraryPanel::activate(QTreeWidgetItem* item)
{
  switch (kindOf(item)) {
  case ItemKind::Algorithm:
    emit versionActivated(item->data(0, kIdRole).toLongLong(), 0);
    return;
  case ItemKind::Version:
    emit versionActivated(item->data(0, kIdRole).toLongLong(), item->data(0, kNumberRole).toInt());
    return;
  case ItemKind::Run:
    activateRun(item);
    return;
  case ItemKind::Topology:
  case ItemKind::PresetTopology:
    applyTopology(item);
    return;
  case ItemKind::Group:
    item->setExpanded(!item->isExpanded());
    return;
  case ItemKind::Placeholder:
    return;
  }
}

void LibraryPanel::applyTopology(QTreeWidgetItem* item)
{
  std::optional<Topology> topology;
  QString error;
  const QString payload = item->data(0, kPayloadRole).toString();
  if (kindOf(item) == ItemKind::Topology) {
    TopologyReadResult read = readTopologyJson(payload.toStdString());
    topology = std::move(read.topology);
    if (!topology && !read.diagnostics.empty())
      error = toQString(read.diagnostics.front().message);
  } else {
    std::string name = payload.toStdString();
    if (name == "ring" || name == "fully-connected") {
      const int ranks = m_document->shownSchedule()  ? m_document->shownSchedule()->ranks
                        : m_document->shownProgram() ? m_document->shownProgram()->ngpus
                                                     : m_document->schedule().ranks;
      name += "-" + std::to_string(std::max(2, ranks));
    }
    std::string reason;
    topology = makePresetTopology(name, {}, &reason);
    error = toQString(reason);
  }
  if (!topology) {
    showMessage(tr("Topology %1 cannot be used: %2").arg(item->text(0), error), true);
    return;
  }
  // Replacing a topology the document has is asked; giving one to a document without is not.
  if (const std::optional<Topology>& current = m_document->topology();
      current && !askReplaceTopology(toQString(current->name), item->text(0), this))
    return;
  m_document->undoStack()->push(new ChangeTopologyCommand(
      m_document, std::move(topology), tr("Use topology %1").arg(item->text(0))));
  emit topologyApplied();
}

} // namespace cs::editor
