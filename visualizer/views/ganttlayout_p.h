#pragma once

// Sizes of the Gantt view's parts, shared by its input and painting code (private to views/).

namespace cs::visualizer::gantt {

inline constexpr int kAxisHeight = 24;  ///< the time axis along the top
inline constexpr int kLabelWidth = 112; ///< the lane labels down the left
inline constexpr int kLaneHeight = 20;
inline constexpr int kBarInset = 3; ///< space above and below a bar in its lane
inline constexpr int kPad = 8;      ///< space before time 0 and after the end

} // namespace cs::visualizer::gantt
