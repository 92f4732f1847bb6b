# Graphviz (libgvc, libcgraph) lays out the topology canvas when the build found it; without it
# the built-in layout is used. Private: no editor header includes gvc.h.
if(CSTUDIO_HAVE_GRAPHVIZ)
  target_link_libraries(cs_editor PRIVATE PkgConfig::CSTUDIO_GRAPHVIZ)
  target_compile_definitions(cs_editor PRIVATE CSTUDIO_EDITOR_HAVE_GRAPHVIZ)
endif()
