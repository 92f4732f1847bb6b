#include "exportanimationdialog.h"

#include "export/gifwriter.h"
#include "export/mp4writer.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>

namespace cs::editor {

using visualizer::AnimationFormat;
using visualizer::AnimationView;

ExportAnimationDialog::ExportAnimationDialog(const QString& basePath, QWidget* parent)
    : QDialog(parent)
{
  setWindowTitle(tr("Export Animation"));
  m_format = new QComboBox(this);
  m_format->addItem(tr("Animated GIF"), static_cast<int>(AnimationFormat::Gif));
  m_format->addItem(tr("MP4 video"), static_cast<int>(AnimationFormat::Mp4));
  m_format->addItem(tr("PNG sequence (one per frame)"),
                    static_cast<int>(AnimationFormat::PngSequence));
  m_format->addItem(tr("SVG (one per step)"), static_cast<int>(AnimationFormat::SvgSteps));
  if (!visualizer::mp4Supported()) {
    auto* model = qobject_cast<QStandardItemModel*>(m_format->model());
    model->item(1)->setEnabled(false);
    model->item(1)->setToolTip(visualizer::mp4UnsupportedMessage());
  }
  m_view = new QComboBox(this);
  m_view->addItem(tr("Topology and timeline"), static_cast<int>(AnimationView::Both));
  m_view->addItem(tr("Topology"), static_cast<int>(AnimationView::Topology));
  m_view->addItem(tr("Timeline"), static_cast<int>(AnimationView::Timeline));
  m_fps = new QSpinBox(this);
  m_fps->setRange(1, 60);
  m_fps->setValue(10);
  m_fps->setSuffix(tr(" fps"));
  m_stepSeconds = new QDoubleSpinBox(this);
  m_stepSeconds->setRange(0.1, 60);
  m_stepSeconds->setSingleStep(0.5);
  m_stepSeconds->setValue(1.0);
  m_stepSeconds->setSuffix(tr(" s"));
  m_width = new QSpinBox(this);
  m_width->setRange(160, 7680);
  m_width->setValue(1280);
  m_height = new QSpinBox(this);
  m_height->setRange(90, 4320);
  m_height->setValue(720);
  auto* size = new QHBoxLayout;
  size->addWidget(m_width);
  size->addWidget(new QLabel(QStringLiteral("×"), this));
  size->addWidget(m_height);
  m_path = new QLineEdit(basePath + QStringLiteral(".gif"), this);
  auto* browseButton = new QPushButton(tr("Browse…"), this);
  auto* where = new QHBoxLayout;
  where->addWidget(m_path, 1);
  where->addWidget(browseButton);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);

  auto* form = new QFormLayout;
  form->addRow(tr("&Format:"), m_format);
  form->addRow(tr("&View:"), m_view);
  form->addRow(tr("Frame &rate:"), m_fps);
  form->addRow(tr("Each &step lasts:"), m_stepSeconds);
  form->addRow(tr("Size:"), size);
  form->addRow(tr("Save to:"), where);
  form->addRow(m_summary);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);

  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(browseButton, &QPushButton::clicked, this, &ExportAnimationDialog::browse);
  connect(m_format, &QComboBox::currentIndexChanged, this, &ExportAnimationDialog::formatChanged);
  connect(m_fps, &QSpinBox::valueChanged, this, &ExportAnimationDialog::updateSummary);
  connect(m_stepSeconds, &QDoubleSpinBox::valueChanged, this,
          &ExportAnimationDialog::updateSummary);
  formatChanged();
}

QString ExportAnimationDialog::extension() const
{
  switch (static_cast<AnimationFormat>(m_format->currentData().toInt())) {
  case AnimationFormat::Gif:
    return QStringLiteral("gif");
  case AnimationFormat::Mp4:
    return QStringLiteral("mp4");
  case AnimationFormat::PngSequence:
    return QStringLiteral("png");
  case AnimationFormat::SvgSteps:
    break;
  }
  return QStringLiteral("svg");
}

void ExportAnimationDialog::formatChanged()
{
  const QFileInfo info(m_path->text());
  m_path->setText(info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + extension()));
  const bool gif = extension() == QLatin1String("gif");
  m_fps->setMaximum(gif ? visualizer::GifWriter::kMaxFps : 60);
  updateSummary();
}

void ExportAnimationDialog::updateSummary()
{
  const int perStep = visualizer::framesPerStep(options());
  QString text = perStep == 1 ? tr("1 frame per algorithm step.")
                              : tr("%1 frames per algorithm step.").arg(perStep);
  const QString ext = extension();
  if (ext == QLatin1String("png"))
    text += tr(" The frames are numbered NAME-0001.png, NAME-0002.png, … beside the name given.");
  else if (ext == QLatin1String("svg"))
    text = tr("One picture per step (its last frame): NAME-01.svg, NAME-02.svg, …");
  m_summary->setText(text);
}

void ExportAnimationDialog::browse()
{
  const QString filter = tr("%1 (*.%2)").arg(m_format->currentText(), extension());
  const QString path = QFileDialog::getSaveFileName(this, windowTitle(), m_path->text(), filter);
  if (!path.isEmpty())
    m_path->setText(path);
}

visualizer::AnimationOptions ExportAnimationDialog::options() const
{
  visualizer::AnimationOptions options;
  options.view = static_cast<AnimationView>(m_view->currentData().toInt());
  options.fps = m_fps->value();
  options.stepSeconds = m_stepSeconds->value();
  options.size = QSize(m_width->value(), m_height->value());
  return options;
}

QString ExportAnimationDialog::outputPath() const
{
  QString path = m_path->text().trimmed();
  if (!path.endsWith(QLatin1Char('.') + extension(), Qt::CaseInsensitive))
    path += QLatin1Char('.') + extension();
  return path;
}

} // namespace cs::editor
