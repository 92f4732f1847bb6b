# Sources of the topology playback view and the link chart (issue 14 items 4 and 5), relative to
# visualizer/.
list(APPEND cs_visualizer_area_sources
  views/topologyplaybackgeometry.h views/topologyplaybackgeometry.cpp
  views/topologyplaybackframe.h views/topologyplaybackframe.cpp
  views/topologyplaybackpaint_p.h views/topologyplaybackpaint.cpp
  views/topologyplaybackview.h views/topologyplaybackview.cpp
  views/linkchartdata.h views/linkchartdata.cpp
  views/linkchart.h views/linkchart.cpp
)
