# Running the shown program from the window (issue 14): the Run panel, its backend choices and
# the job that runs a backend off the GUI thread.
list(
  APPEND
  cs_visualizer_area_sources
  run/runbackends.h
  run/runbackends.cpp
  run/runjob.h
  run/runjob.cpp
  run/runpanel.h
  run/runpanel.cpp
  run/runpanelrun.cpp
  run/runstore.h
  run/runstore.cpp)
