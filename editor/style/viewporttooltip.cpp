#include "viewporttooltip.h"

#include <QHelpEvent>
#include <QToolTip>

namespace cs::editor {

bool showViewportToolTip(QEvent* event, QWidget* viewport,
                         const std::function<QString(const QPoint&)>& textAt)
{
  if (event->type() != QEvent::ToolTip)
    return false;
  auto* help = static_cast<QHelpEvent*>(event);
  const QString text = textAt(help->pos());
  if (text.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(help->globalPos(), text, viewport);
  return true;
}

} // namespace cs::editor
