#include "inspectorpage.h"

#include "document/analysis.h"
#include "style/rankpalette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStringList>

namespace cs::editor {

InspectorPage::InspectorPage(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_form(new QFormLayout(this))
{
  m_form->setContentsMargins(10, 4, 10, 10);
  m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  // A narrow dock puts the field under its label rather than past the dock's right edge.
  m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  m_form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

QSpinBox* InspectorPage::makeSpin(const QString& name, int minimum, int maximum,
                                  const QString& specialValueText)
{
  auto* spin = new QSpinBox(this);
  spin->setObjectName(name);
  spin->setRange(minimum, maximum);
  spin->setKeyboardTracking(false);
  spin->setAccelerated(true);
  if (!specialValueText.isEmpty())
    spin->setSpecialValueText(specialValueText);
  return spin;
}

QDoubleSpinBox* InspectorPage::makeDoubleSpin(const QString& name, double minimum, double maximum,
                                              int decimals, const QString& suffix)
{
  auto* spin = new QDoubleSpinBox(this);
  spin->setObjectName(name);
  spin->setDecimals(decimals);
  spin->setRange(minimum, maximum);
  spin->setSuffix(suffix);
  spin->setKeyboardTracking(false);
  spin->setAccelerated(true);
  return spin;
}

QComboBox* InspectorPage::makeCombo(const QString& name)
{
  auto* combo = new QComboBox(this);
  combo->setObjectName(name);
  return combo;
}

QCheckBox* InspectorPage::makeCheck(const QString& name, const QString& text)
{
  auto* check = new QCheckBox(text, this);
  check->setObjectName(name);
  return check;
}

QLabel* InspectorPage::makeNote(const QString& name)
{
  auto* label = new QLabel(this);
  label->setObjectName(name);
  label->setWordWrap(true);
  label->setTextFormat(Qt::RichText);
  label->setForegroundRole(QPalette::PlaceholderText);
  return label;
}

QString InspectorPage::problemsHtml(const std::vector<const Problem*>& problems)
{
  QStringList lines;
  for (const Problem* problem : problems) {
    const Diagnostic& d = problem->diagnostic;
    const QColor color = d.severity == Severity::Error     ? errorColor()
                         : d.severity == Severity::Warning ? warningColor()
                                                           : QColor(0x2f, 0x6f, 0xc4);
    lines << QStringLiteral("<span style=\"color:%1\">%2</span> <small>%3</small>")
                 .arg(color.name(), QString::fromStdString(d.message).toHtmlEscaped(),
                      QString::fromStdString(d.code).toHtmlEscaped());
  }
  return lines.join(QStringLiteral("<br>"));
}

void showValue(QSpinBox* spin, int value, int minimum, int maximum)
{
  spin->setRange(std::min(minimum, value), std::max(maximum, value));
  spin->setValue(value);
}

} // namespace cs::editor
