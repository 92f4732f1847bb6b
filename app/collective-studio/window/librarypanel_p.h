#pragma once

// What the Library dock's files share: the data roles of its tree items and how items are made.

#include "librarypanel.h"

#include <QString>
#include <QTreeWidgetItem>

#include <string>

namespace cs::editor::librarytree {

constexpr int kKindRole = Qt::UserRole;
constexpr int kIdRole = Qt::UserRole + 1;      ///< algorithm id (algorithms, versions, runs)
constexpr int kNumberRole = Qt::UserRole + 2;  ///< version number (versions, runs)
constexpr int kLoadedRole = Qt::UserRole + 3;  ///< versions read (algorithms)
constexpr int kPayloadRole = Qt::UserRole + 4; ///< topology JSON or preset name; runs: has a trace
constexpr int kDetailRole = Qt::UserRole + 5;  ///< the dimmed second line
constexpr int kRunRole = Qt::UserRole + 6;     ///< run id (runs)

/// "2024-05-01 12:03" in local time from the library's UTC ISO stamps.
QString localTime(const std::string& stamp);
/// A child of `parent` of `kind` with its name and dimmed second line.
QTreeWidgetItem* makeItem(QTreeWidgetItem* parent, LibraryPanel::ItemKind kind, const QString& name,
                          const QString& details);
LibraryPanel::ItemKind kindOf(const QTreeWidgetItem* item);

} // namespace cs::editor::librarytree
