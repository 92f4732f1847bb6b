#include "replicatedialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace cs::editor {

ReplicateDialog::ReplicateDialog(const Schedule& schedule, std::vector<Transfer> selected,
                                 QWidget* parent)
    : QDialog(parent), m_schedule(schedule), m_selected(std::move(selected)),
      m_shift(new QSpinBox(this)),
      m_shiftChunks(new QCheckBox(tr("Shift chunk indices too"), this)), m_preview(new QLabel(this))
{
  setWindowTitle(tr("Replicate Transfers"));
  const QString selection = m_selected.size() == 1
                                ? tr("the selected transfer")
                                : tr("the %1 selected transfers").arg(m_selected.size());
  auto* intro = new QLabel(
      tr("Apply %1 to every rank: copy r moves ranks (and chunks) by r × k.").arg(selection), this);
  intro->setWordWrap(true);
  m_shift->setRange(-(schedule.ranks - 1), schedule.ranks - 1);
  m_shift->setValue(1);
  m_shift->setToolTip(tr("1 draws a ring: every rank does what the selection does, with its "
                         "next neighbour"));
  m_shiftChunks->setChecked(true);
  m_shiftChunks->setToolTip(tr("Chunk indices move with the ranks (mod the buffer's chunks), as "
                               "in a ring where rank r starts with chunk r"));
  m_preview->setWordWrap(true);

  auto* form = new QFormLayout;
  form->addRow(tr("Shift by &k ranks:"), m_shift);
  form->addRow(QString(), m_shiftChunks);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Replicate"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(form);
  layout->addWidget(m_preview);
  layout->addWidget(buttons);

  connect(m_shift, &QSpinBox::valueChanged, this, &ReplicateDialog::updatePreview);
  connect(m_shiftChunks, &QCheckBox::toggled, this, &ReplicateDialog::updatePreview);
  updatePreview();
}

ReplicateOptions ReplicateDialog::options() const
{
  return {m_shift->value(), m_shiftChunks->isChecked()};
}

void ReplicateDialog::updatePreview()
{
  const std::size_t added = replicateTransfers(m_schedule, m_selected, options()).size();
  m_preview->setText(added == 0   ? tr("Adds nothing: every copy already exists.")
                     : added == 1 ? tr("Adds 1 transfer.")
                                  : tr("Adds %1 transfers.").arg(added));
}

} // namespace cs::editor
