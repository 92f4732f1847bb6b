#include "exportdialog.h"

#include "style/textformat.h"
#include "windowicons.h"

#include "style/rankpalette.h"

#include "io/mscclxmlwriter.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace cs::editor {

namespace {

/// How many reasons a row lists before "and n more".
constexpr std::size_t kShownErrors = 3;

QString toQString(std::string_view text)
{
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString capitalised(QString text)
{
  if (!text.isEmpty())
    text[0] = text[0].toUpper();
  return text;
}

QString diagnosticLine(const Diagnostic& diagnostic)
{
  QString where = QString::fromStdString(describe(diagnostic.location));
  return QStringLiteral("<code>%1</code> %2%3")
      .arg(toQString(diagnostic.code).toHtmlEscaped(),
           QString::fromStdString(diagnostic.message).toHtmlEscaped(),
           where.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(where.toHtmlEscaped()));
}

/// The body of one dialect's row: the reasons it rejects the file, then the writer's notes.
QString detailsHtml(const DialectReport& report, const QPalette& palette)
{
  QString html;
  if (!report.errors.empty()) {
    html += QStringLiteral("<ul style='margin-left:-20px'>");
    for (std::size_t i = 0; i < std::min(kShownErrors, report.errors.size()); ++i)
      html += QStringLiteral("<li>") + diagnosticLine(report.errors[i]) + QStringLiteral("</li>");
    if (report.errors.size() > kShownErrors)
      html += QStringLiteral("<li>") +
              ExportDialog::tr("and %n more", nullptr,
                               static_cast<int>(report.errors.size() - kShownErrors)) +
              QStringLiteral("</li>");
    html += QStringLiteral("</ul>");
  }
  if (!report.notes.empty()) {
    QColor dim = palette.color(QPalette::WindowText);
    dim.setAlphaF(0.7f);
    html += QStringLiteral("<p style='color:%1'>").arg(dim.name(QColor::HexArgb));
    for (const Diagnostic& note : report.notes)
      html +=
          ExportDialog::tr("Note: %1").arg(QString::fromStdString(note.message).toHtmlEscaped()) +
          QStringLiteral("<br>");
    html += QStringLiteral("</p>");
  }
  return html;
}

} // namespace

ExportDialog::ExportDialog(const Program& program, DialectId current, const QString& suggestedPath,
                           QWidget* parent)
    : QDialog(parent), m_reports(reportForAllDialects(program))
{
  setWindowTitle(tr("Export MSCCL XML"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(tr("Choose the runtime the file is for. Each runtime generation reads "
                              "the same XML format but requires other attributes and has other "
                              "limits:"),
                           this);
  intro->setWordWrap(true);
  layout->addWidget(intro);

  m_choice = new QButtonGroup(this);
  for (const DialectReport& report : m_reports)
    layout->addWidget(buildDialectRow(report));

  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(new QLabel(tr("File:"), this));
  m_path = new QLineEdit(suggestedPath, this);
  pathRow->addWidget(m_path, 1);
  auto* browseButton = new QPushButton(tr("Browse…"), this);
  connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
  pathRow->addWidget(browseButton);
  layout->addLayout(pathRow);

  m_result = new QLabel(this);
  m_result->setWordWrap(true);
  m_result->setVisible(false);
  layout->addWidget(m_result);

  m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(m_buttons, &QDialogButtonBox::accepted, this, &ExportDialog::exportClicked);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(m_buttons);

  connect(m_path, &QLineEdit::textChanged, this, &ExportDialog::updateButtons);
  setSelectedDialect(current);
  updateButtons();
  setMinimumWidth(700);
  adjustSize();
}

QFrame* ExportDialog::buildDialectRow(const DialectReport& report)
{
  auto* row = new QFrame(this);
  row->setFrameShape(QFrame::StyledPanel);
  auto* grid = new QGridLayout(row);
  const Dialect& rules = dialect(report.dialect);
  auto* radio = new QRadioButton(capitalised(toQString(rules.title)), row);
  QFont bold = radio->font();
  bold.setBold(true);
  radio->setFont(bold);
  m_choice->addButton(radio, static_cast<int>(report.dialect));
  grid->addWidget(radio, 0, 0);

  auto* verdictIcon = new QLabel(row);
  verdictIcon->setPixmap(drawnIcon(report.accepted ? WindowIcon::Ok : WindowIcon::Error)
                             .pixmap(QSize(18, 18), devicePixelRatioF()));
  auto* verdict =
      new QLabel(report.accepted ? tr("loads this file")
                                 : tr("rejects this file (%1)")
                                       .arg(countText(static_cast<long long>(report.errors.size()),
                                                      tr("problem"), tr("problems"))),
                 row);
  QPalette verdictPalette = verdict->palette();
  verdictPalette.setColor(QPalette::WindowText, report.accepted ? okColor() : errorColor());
  verdict->setPalette(verdictPalette);
  auto* verdictBox = new QHBoxLayout;
  verdictBox->addStretch(1);
  verdictBox->addWidget(verdictIcon);
  verdictBox->addWidget(verdict);
  grid->addLayout(verdictBox, 0, 1);

  const QString html = detailsHtml(report, palette());
  if (!html.isEmpty()) {
    auto* details = new QLabel(html, row);
    details->setWordWrap(true);
    details->setTextFormat(Qt::RichText);
    details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(details, 1, 0, 1, 2);
  }
  grid->setColumnStretch(0, 1);
  connect(radio, &QRadioButton::toggled, this, &ExportDialog::updateButtons);
  return row;
}

void ExportDialog::exportClicked()
{
  if (m_path->text().trimmed().isEmpty())
    browse();
  if (m_path->text().trimmed().isEmpty())
    return;
  const QString error = exportNow();
  if (error.isEmpty()) {
    accept();
    return;
  }
  QPalette palette = m_result->palette();
  palette.setColor(QPalette::WindowText, errorColor());
  m_result->setPalette(palette);
  m_result->setText(error);
  m_result->setVisible(true);
}

DialectId ExportDialog::selectedDialect() const
{
  return static_cast<DialectId>(m_choice->checkedId());
}

void ExportDialog::setSelectedDialect(DialectId id)
{
  if (QAbstractButton* button = m_choice->button(static_cast<int>(id)))
    button->setChecked(true);
}

QString ExportDialog::path() const
{
  return m_path->text().trimmed();
}

void ExportDialog::setPath(const QString& path)
{
  m_path->setText(path);
}

const DialectReport& ExportDialog::report(DialectId id) const
{
  for (const DialectReport& report : m_reports) {
    if (report.dialect == id)
      return report;
  }
  return m_reports.front();
}

QString ExportDialog::exportNow()
{
  if (path().isEmpty())
    return tr("Choose a file to export to.");
  const std::string reason =
      writeTextFileAtomically(path().toStdString(), report(selectedDialect()).xml);
  return QString::fromStdString(reason);
}

void ExportDialog::browse()
{
  const QString chosen = QFileDialog::getSaveFileName(this, tr("Export MSCCL XML"), path(),
                                                      tr("MSCCL XML (*.xml);;All files (*)"));
  if (!chosen.isEmpty())
    m_path->setText(chosen);
}

void ExportDialog::updateButtons()
{
  m_result->setVisible(false);
  // Writing a file the chosen runtime rejects is allowed (to fix it by hand), but said plainly.
  const bool accepted = m_choice->checkedId() < 0 || report(selectedDialect()).accepted;
  m_buttons->button(QDialogButtonBox::Ok)->setText(accepted ? tr("Export") : tr("Export Anyway"));
}

} // namespace cs::editor
