# Sources of engine/compile and of the model/io files that belong to it, relative to engine/.
list(APPEND cs_engine_area_sources
  compile/lower.h compile/lower.cpp
  compile/lowerplan_p.h
  compile/lowervalidate.cpp
  compile/oporder.cpp
  compile/fusion.cpp
  compile/tbassign.cpp
  compile/tbpacking.cpp
  compile/dependencies.cpp
  compile/instances.cpp
  compile/lift.h compile/lift.cpp
  compile/liftgraph_p.h compile/liftlevels.cpp
  io/designdocument.h io/designdocument.cpp
)
