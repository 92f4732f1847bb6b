# Sources of engine/sim and of the model/io files that belong to it, relative to engine/.
list(APPEND cs_engine_area_sources
  model/routing.h model/routing.cpp
  model/topologypresets.h model/topologypresets.cpp
  io/topologyjson.h io/topologyjson.cpp
  io/topologyloader.h io/topologyloader.cpp
  io/nccltopologyreader_p.h io/nccltopologyreader.cpp
  io/nvidiasmitopology_p.h io/nvidiasmitopology.cpp
  io/dotwriter.h io/dotwriter.cpp
  io/chrometrace.h io/chrometrace.cpp
  io/chrometracereader.h io/chrometracereader.cpp
  io/tracecollector_p.h io/tracecollector.cpp
  io/traceevent_p.h io/traceevent.cpp
  io/tracetokenizers_p.h io/nlohmanntokenizer.cpp
  io/chrometraceverification_p.h io/chrometraceverification.cpp
  sim/protocolmodel.h sim/protocolmodel.cpp
  sim/completionheap_p.h
  sim/fairshare_p.h sim/fairshare.cpp
  sim/estimates.h sim/estimates.cpp
  sim/simindex_p.h sim/simindex.cpp
  sim/simulator.h sim/simulator.cpp
  sim/simengine_p.h sim/simengine.cpp
  sim/largetrace.h sim/largetrace.cpp
  sim/calibration.h sim/calibration.cpp
)
