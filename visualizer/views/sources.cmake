# Sources of visualizer/views written for the Gantt chart and the buffer view, relative to
# visualizer/ (the topology playback and the link chart keep theirs in views/topology.cmake).
list(APPEND cs_visualizer_area_sources
  views/ganttlayout_p.h views/ganttmodel_p.h views/ganttmodel.cpp
  views/ganttlegend.h views/ganttlegend.cpp
  views/ganttview.h views/ganttview.cpp views/ganttpaint.cpp views/ganttbars.cpp views/ganttblocked.cpp
  views/ganttblockedlist.h views/ganttblockedlist.cpp
  views/bufferview.h views/bufferview.cpp
  views/labelcache.h views/labelcache.cpp
)
