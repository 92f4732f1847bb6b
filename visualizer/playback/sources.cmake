# Sources of visualizer/playback (the playback clock, its bar and breakpoints), relative to
# visualizer/.
list(APPEND cs_visualizer_area_sources
  playback/breakpoints.h playback/breakpoints.cpp
  playback/playbackclock.h playback/playbackclock.cpp
  playback/scrubbar.h playback/scrubbar.cpp
  playback/playbackbar.h playback/playbackbar.cpp
  playback/breakpointlist.h playback/breakpointlist.cpp
)
