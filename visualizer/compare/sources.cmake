# Sources of visualizer/compare (designed vs measured: two runs of one program side by side),
# relative to visualizer/.
list(APPEND cs_visualizer_area_sources
  compare/comparetables.h compare/comparetables.cpp
  compare/overlaygantt.h compare/overlaygantt.cpp
  compare/comparewindow.h compare/comparewindow.cpp
)
