# Sources of engine/library and of the model/io files that belong to it, relative to engine/.
list(APPEND cs_engine_area_sources
  library/catalog.h library/catalog.cpp
  library/families.h
  library/schedulebuilder.h library/schedulebuilder.cpp
  library/ringalgorithms.cpp
  library/halvingdoubling.cpp
  library/treealgorithms.cpp
  library/hierarchical.cpp
  library/alltoall.cpp
  library/bruck.cpp
  check/schedulecheck.h check/schedulecheck.cpp
  check/scheduledetail.h check/schedulesymbolic.cpp
  check/schedulegeometry.h check/schedulegeometry.cpp
)
