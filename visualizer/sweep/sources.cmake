# Benchmark sweeps from the window (issue 14 item 8): sizes MIN..MAX on chosen backends on a
# worker thread, the busbw/algbw chart, the points' table, CSV/PNG export, each point stored.
list(
  APPEND
  cs_visualizer_area_sources
  sweep/sweeprequest.h
  sweep/sweeprequest.cpp
  sweep/sweepjob.h
  sweep/sweepjob.cpp
  sweep/sweepresults.h
  sweep/sweepresults.cpp
  sweep/sweepchart.h
  sweep/sweepchart.cpp
  sweep/sweepwindow.h
  sweep/sweepwindow.cpp
  sweep/sweepwindowform.cpp)
