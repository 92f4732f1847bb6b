# Sources of engine/analysis (the pipeline every surface shares), relative to engine/.
list(APPEND cs_engine_area_sources
  analysis/analysis.h analysis/analysis.cpp
  analysis/chunkstates.h analysis/chunkstates.cpp analysis/chunktext.cpp
  analysis/calibrationsweep.h analysis/calibrationsweep.cpp
)
