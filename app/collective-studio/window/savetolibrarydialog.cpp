#include "savetolibrarydialog.h"

#include "librarydocuments.h"

#include "style/rankpalette.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace cs::editor {

SaveToLibraryDialog::SaveToLibraryDialog(Document* document, storage::Library* library,
                                         const QString& unavailable, QWidget* parent)
    : QDialog(parent), m_document(document), m_library(library)
{
  setWindowTitle(tr("Save to Library"));
  auto* layout = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  m_name = new QLineEdit(this);
  m_name->setPlaceholderText(tr("algorithm name, e.g. ring-allreduce-8"));
  const DocumentOrigin& origin = document->origin();
  QString name = origin.libraryName;
  if (name.isEmpty())
    name = QString::fromStdString(document->state().design.schedule.name);
  if (name.isEmpty() || name == QLatin1String("untitled"))
    name = document->displayName().section(QLatin1Char('.'), 0, 0);
  m_name->setText(name);
  form->addRow(tr("&Algorithm:"), m_name);
  m_message = new QLineEdit(this);
  m_message->setPlaceholderText(tr("what changed in this version"));
  form->addRow(tr("&Message:"), m_message);
  layout->addLayout(form);

  auto* what = new QLabel(tr("Stores the design (timeline and topology) and the MSCCL XML for the "
                             "target dialect as a new version. Saving unchanged content stores "
                             "nothing."),
                          this);
  what->setWordWrap(true);
  layout->addWidget(what);

  m_outcome = new QLabel(this);
  m_outcome->setWordWrap(true);
  m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(m_outcome);

  m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
  connect(m_buttons, &QDialogButtonBox::accepted, this, &SaveToLibraryDialog::save);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(m_buttons);
  connect(m_name, &QLineEdit::textChanged, this, &SaveToLibraryDialog::updateButtons);

  if (!m_library)
    showOutcome(tr("No library is open: %1").arg(unavailable), true);
  else
    showOutcome({}, false);
  updateButtons();
  m_message->setFocus();
  resize(520, sizeHint().height());
}

void SaveToLibraryDialog::setName(const QString& name)
{
  m_name->setText(name);
}

QString SaveToLibraryDialog::name() const
{
  return m_name->text().trimmed();
}

void SaveToLibraryDialog::setMessage(const QString& message)
{
  m_message->setText(message);
}

bool SaveToLibraryDialog::save()
{
  if (!m_library || name().isEmpty())
    return false;
  const storage::Result<storage::SaveOutcome> saved =
      saveToLibrary(*m_document, *m_library, name(), m_message->text());
  if (!saved) {
    showOutcome(QString::fromStdString(saved.error().message), true);
    return false;
  }
  if (saved->created)
    showOutcome(tr("Saved as version %1 of %2.").arg(saved->number).arg(name()), false);
  else
    showOutcome(tr("Unchanged: identical to version %1 of %2; nothing was stored.")
                    .arg(saved->number)
                    .arg(name()),
                false);
  // One save per opening: a second click would only report "unchanged".
  m_buttons->button(QDialogButtonBox::Save)->setEnabled(false);
  m_buttons->button(QDialogButtonBox::Close)->setDefault(true);
  emit librarySaved();
  return true;
}

QString SaveToLibraryDialog::outcome() const
{
  return m_outcome->text();
}

void SaveToLibraryDialog::showOutcome(const QString& text, bool error)
{
  m_outcome->setText(text);
  m_outcome->setVisible(!text.isEmpty());
  QPalette palette = this->palette();
  palette.setColor(QPalette::WindowText, error ? errorColor() : okColor());
  m_outcome->setPalette(palette);
}

void SaveToLibraryDialog::updateButtons()
{
  m_buttons->button(QDialogButtonBox::Save)->setEnabled(m_library && !name().isEmpty());
}

} // namespace cs::editor
