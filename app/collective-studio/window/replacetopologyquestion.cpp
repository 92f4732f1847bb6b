#include "replacetopologyquestion.h"

#include <QMessageBox>
#include <QPushButton>

namespace cs::editor {

std::unique_ptr<QMessageBox>
makeReplaceTopologyQuestion(const QString& current, const QString& replacement, QWidget* parent)
{
  auto box = std::make_unique<QMessageBox>(parent);
  box->setObjectName(QStringLiteral("replaceTopologyQuestion"));
  box->setWindowTitle(QObject::tr("Use Topology"));
  box->setIcon(QMessageBox::Question);
  box->setText(current.isEmpty()
                   ? QObject::tr("Replace the document's topology with '%1'?").arg(replacement)
                   : QObject::tr("Replace the document's topology '%1' with '%2'?")
                         .arg(current, replacement));
  box->setInformativeText(
      QObject::tr("The algorithm is then checked against '%1'. Edit\u00a0›\u00a0Undo brings "
                  "'%2' back.")
          .arg(replacement, current.isEmpty() ? QObject::tr("the current topology") : current));
  QPushButton* replace = box->addButton(QObject::tr("Replace"), QMessageBox::AcceptRole);
  box->addButton(QMessageBox::Cancel);
  box->setDefaultButton(replace);
  return box;
}

bool askReplaceTopology(const QString& current, const QString& replacement, QWidget* parent)
{
  const std::unique_ptr<QMessageBox> box =
      makeReplaceTopologyQuestion(current, replacement, parent);
  box->exec();
  return box->buttonRole(box->clickedButton()) == QMessageBox::AcceptRole;
}

} // namespace cs::editor
