# The editor's views following a replay (issue 14 items 5 and 7), relative to visualizer/.
list(APPEND cs_visualizer_area_sources
  follow/followindex.h follow/followindex.cpp
  follow/runproblems.h follow/runproblems.cpp
  follow/editorfollower.h follow/editorfollower.cpp
)
