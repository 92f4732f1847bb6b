#include "topologyexport.h"

#include "topologyscene.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSvgGenerator>

#include <cmath>

namespace cs::editor {

namespace {

QString tr(const char* text)
{
  return QCoreApplication::translate("cs::editor::TopologyExport", text);
}

/// Puts the scene in its export state (zoom 1 for the labels, no selection marks) and back.
class ExportScope
{
public:
  explicit ExportScope(TopologyScene& scene) : m_scene(scene), m_scale(scene.viewScale())
  {
    m_scene.setViewScale(1);
    m_scene.setExporting(true);
  }
  ~ExportScope()
  {
    m_scene.setExporting(false);
    m_scene.setViewScale(m_scale);
  }
  ExportScope(const ExportScope&) = delete;
  ExportScope& operator=(const ExportScope&) = delete;

private:
  TopologyScene& m_scene;
  double m_scale;
};

} // namespace

QString exportSceneSvg(TopologyScene& scene, const QString& path, const QString& title,
                       const QColor& background)
{
  if (scene.nodeCount() == 0)
    return tr("The topology is empty: there is nothing to export.");
  ExportScope scope(scene);
  const QRectF source = scene.exportRect(kExportMargin);
  const QSizeF size(std::ceil(source.width()), std::ceil(source.height()));
  QSvgGenerator generator;
  generator.setFileName(path);
  generator.setSize(size.toSize());
  generator.setViewBox(QRectF(QPointF(0, 0), size));
  generator.setTitle(title);
  generator.setDescription(tr("Topology drawn by Collective Studio"));
  QPainter painter;
  if (!painter.begin(&generator))
    return tr("Cannot write %1.").arg(QFileInfo(path).absoluteFilePath());
  painter.fillRect(QRectF(QPointF(0, 0), size), background);
  scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
  painter.end();
  if (QFileInfo(path).size() == 0)
    return tr("Cannot write %1.").arg(QFileInfo(path).absoluteFilePath());
  return {};
}

QString exportScenePng(TopologyScene& scene, const QString& path, const QColor& background)
{
  if (scene.nodeCount() == 0)
    return tr("The topology is empty: there is nothing to export.");
  ExportScope scope(scene);
  const QRectF source = scene.exportRect(kExportMargin);
  const QSize pixels(static_cast<int>(std::ceil(source.width() * kPngScale)),
                     static_cast<int>(std::ceil(source.height() * kPngScale)));
  QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
  if (image.isNull())
    return tr("The topology is too large for a PNG image; export it as SVG.");
  // The device pixel ratio (rather than a painter scale) keeps the labels, which the scene
  // sizes for zoom 1, in proportion with everything else.
  image.setDevicePixelRatio(kPngScale);
  image.fill(background);
  {
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
  }
  QImageWriter writer(path, "png");
  if (!writer.write(image))
    return tr("Cannot write %1: %2.").arg(QFileInfo(path).absoluteFilePath(), writer.errorString());
  return {};
}

} // namespace cs::editor
