# The topology canvas (paths relative to editor/). Graphviz's layout is compiled only when the
# build found libgvc (cmake/CStudioOptionalDeps.cmake); link.cmake links it.
list(APPEND cs_editor_area_sources
  topology/canvasstyle.h topology/canvasstyle.cpp
  topology/topologyedits.h topology/topologyedits.cpp
  topology/nodeitem.h topology/nodeitem.cpp
  topology/linkitem.h topology/linkitem.cpp
  topology/topologyscene.h topology/topologyscene.cpp
  topology/topologyscenemachines.cpp
  topology/machineitems.h topology/machineitems.cpp
  topology/topologylayout.h topology/topologylayout.cpp
  topology/layouttiers.h topology/layouttiers.cpp
  topology/builtinlayout.cpp
  topology/topologyicons.h topology/topologyicons.cpp
  topology/topologyoverlays.h topology/topologyoverlays.cpp
  topology/topologyexport.h topology/topologyexport.cpp
  topology/topologyview.h topology/topologyview.cpp
  topology/topologyviewcanvas.cpp
  topology/topologyviewinput.cpp
  topology/topologyviewmenus.cpp
  topology/topologyviewmachines.cpp)
if(CSTUDIO_HAVE_GRAPHVIZ)
  list(APPEND cs_editor_area_sources topology/graphvizlayout.cpp)
endif()
