# Sources of visualizer/teach (teaching mode, issue 19: the simulated run stepped by the
# algorithm's own steps, the Teaching panel, presentation mode), relative to visualizer/.
list(APPEND cs_visualizer_area_sources
  teach/teachingrun.h teach/teachingrun.cpp
  teach/teachingpanel.h teach/teachingpanel.cpp
  teach/teachingview.h teach/teachingview.cpp
  teach/pointerhighlight.h teach/pointerhighlight.cpp
  teach/presentationwindow.h teach/presentationwindow.cpp
  teach/predictpanel.h teach/predictpanel.cpp
  teach/breakitpanel.h teach/breakitpanel.cpp
  teach/breakitrun.h teach/breakitrun.cpp
)
