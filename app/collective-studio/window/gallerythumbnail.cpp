#include "gallerythumbnail.h"

#include "document/document.h"
#include "timeline/timelinepainter.h"
#include "timeline/timelineview.h"

#include <QPainter>

#include <algorithm>

namespace cs::editor {

namespace {

// Small enough that a 16-step, 8-rank timeline is one picture; the thumbnail then scales it.
constexpr double kThumbnailZoom = 0.5;
// Past this the picture is mostly unreadable at card size anyway; large schedules are clipped.
constexpr QSize kLargestRender(2400, 1800);

} // namespace

QImage timelineThumbnail(const DocumentState& state, QSize size)
{
  if (state.design.schedule.transfers.empty() || size.isEmpty())
    return {};
  Document document;
  document.reset(state, {});
  document.waitForAnalysis();
  TimelineView view(&document);
  view.setAttribute(Qt::WA_DontShowOnScreen);
  view.setZoom(kThumbnailZoom);
  // The size that shows every column and row without scrolling: headers plus content plus the
  // frame, clipped to what is worth rendering.
  const HeaderMetrics header = headerMetrics(view.font());
  const TimelineLayout& layout = view.model().layout();
  const int frame = 2 * view.frameWidth();
  const QSize full(std::min(header.left() + layout.contentWidth() + frame, kLargestRender.width()),
                   std::min(header.top + layout.contentHeight() + frame, kLargestRender.height()));
  view.resize(full);
  view.show();
  const QImage rendered = view.grab().toImage();
  view.hide();

  QImage thumbnail(size, QImage::Format_ARGB32_Premultiplied);
  thumbnail.fill(Qt::transparent);
  const QImage scaled = rendered.scaled(size, Qt::KeepAspectRatio, Qt::SmoothTransformation);
  QPainter painter(&thumbnail);
  painter.drawImage((size.width() - scaled.width()) / 2, (size.height() - scaled.height()) / 2,
                    scaled);
  return thumbnail;
}

} // namespace cs::editor
