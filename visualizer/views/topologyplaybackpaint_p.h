#pragma once

// Painting the topology playback view's layers (topologyplaybackview.h), one function per layer
// so the view's paintEvent reads as the order in which they stack.

#include "topologyplaybackframe.h"
#include "topologyplaybackgeometry.h"

#include <QPainter>
#include <QPalette>
#include <QRectF>
#include <QString>

#include <vector>

namespace cs::visualizer {

/// The selected link's glow, under its lanes.
void paintSelectedLink(QPainter& painter, const TopologyPlaybackGeometry& geometry, int link,
                       const QPalette& palette);
/// Every link direction in its stroke, with a small arrowhead showing the direction.
void paintLanes(QPainter& painter, const TopologyPlaybackGeometry& geometry,
                const TopologyPlaybackFrame& frame);
/// Node boxes: GPUs in their rank's colours with name and rank, blocked ones outlined in red.
void paintNodes(QPainter& painter, const TopologyPlaybackGeometry& geometry,
                const TopologyPlaybackFrame& frame, const QPalette& palette);
/// The wait-for cycle the checker predicts for a stopped run: red dashed arrows from each rank
/// to the rank it waits for, bowed towards the middle so they stay clear of the link lanes.
void paintCycle(QPainter& painter, const TopologyPlaybackGeometry& geometry,
                const std::vector<int>& ranks);
/// Message tokens: a disc per message, a pie when it carries several ranks' data.
void paintTokens(QPainter& painter, const TopologyPlaybackGeometry& geometry,
                 const TopologyPlaybackFrame& frame);
/// The key to stroke widths, tokens and outlines (and the wait-for cycle's dashes when `cycle`),
/// along the bottom of `area`.
void paintLegend(QPainter& painter, const QRectF& area, const QPalette& palette,
                 bool cycle = false);
/// Title line and notes ("links inferred from the topology") along the top of `area`.
void paintBanner(QPainter& painter, const QRectF& area, const QString& title, const QString& note,
                 const QPalette& palette);

} // namespace cs::visualizer
