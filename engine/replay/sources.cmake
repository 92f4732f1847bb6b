# Sources of engine/replay (indexing a Trace once, then "what happens at time t"), relative to
# engine/.
list(APPEND cs_engine_area_sources
  replay/replayindex.h replay/replayindex.cpp replay/replayqueries.cpp
  replay/tracefit_p.h replay/tracefit.cpp
  replay/bufferreplay.h replay/bufferreplay.cpp
  replay/comparison.h replay/comparison.cpp
  replay/designedrun.h replay/designedrun.cpp
  replay/stopreport.h replay/stopreport.cpp
)
