# Sources of engine/catalogue and of the model/io files that belong to it, relative to engine/.
list(APPEND cs_engine_area_sources
  catalogue/catalogue.h catalogue/catalogue.cpp
  catalogue/families_p.h
  catalogue/schedulebuilder_p.h catalogue/schedulebuilder.cpp
  catalogue/ringalgorithms.cpp
  catalogue/halvingdoubling.cpp
  catalogue/treealgorithms.cpp
  catalogue/hierarchical.cpp
  catalogue/alltoall.cpp
  catalogue/bruck.cpp
)
