# The step timeline (issue 6, item 3); paths relative to editor/.
list(APPEND cs_editor_area_sources
  timeline/replicate.h timeline/replicate.cpp
  timeline/transfergroup.h timeline/transfergroup.cpp
  timeline/transferclipboard.h timeline/transferclipboard.cpp
  timeline/timelinelayout.h timeline/timelinelayout.cpp
  timeline/timelinemodel.h timeline/timelinemodel.cpp
  timeline/timelinepainter.h timeline/timelinepainter.cpp
  timeline/timelinepaintframe.h timeline/timelinepaintframe.cpp
  timeline/timelineplayback.h timeline/timelineplayback.cpp
  timeline/timelinepaintplayback.cpp
  timeline/timelinepaintcells.cpp timeline/timelinepaintarrows.cpp timeline/timelinepaintheaders.cpp
  timeline/timelineicons.h timeline/timelineicons.cpp
  timeline/replicatedialog.h timeline/replicatedialog.cpp
  timeline/timelineview.h timeline/timelineview.cpp timeline/timelineedits.cpp
  timeline/timelineinput.cpp timeline/timelinekeyboard.cpp timeline/timelineclipboard.cpp
  timeline/timelinenodes.cpp
)
