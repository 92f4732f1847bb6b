#pragma once

// Pictures of a whole topology scene (not just the part the view shows), for the docs and for
// slides: SVG through QSvgGenerator (text stays text) and PNG at twice the scene's resolution.
// Both leave out selection and hover marks and show the link labels as they would read at 100 %.

#include <QColor>
#include <QString>

namespace cs::editor {

class TopologyScene;

/// Writes `scene` as SVG to `path`. Returns an empty string, or the reason it failed.
QString exportSceneSvg(TopologyScene& scene, const QString& path, const QString& title,
                       const QColor& background);
/// Writes `scene` as PNG to `path`, 2 pixels per scene unit. Returns an empty string, or the
/// reason it failed.
QString exportScenePng(TopologyScene& scene, const QString& path, const QColor& background);

/// The margin around the nodes in both exports, in scene units.
inline constexpr double kExportMargin = 24;
/// PNG pixels per scene unit.
inline constexpr double kPngScale = 2;

} // namespace cs::editor
