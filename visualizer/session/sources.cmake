# Sources of visualizer/session (one open run, its cursor and selection), relative to visualizer/.
list(APPEND cs_visualizer_area_sources
  session/replaysession.h session/replaysession.cpp
  session/documenttrace.h session/documenttrace.cpp
)
