# Sources of engine/check (the Program checker and the Schedule checks), relative to engine/.
list(APPEND cs_engine_area_sources
  check/checker.h check/checker.cpp
  check/passes_p.h
  check/staticcheckutil_p.h check/staticcheckutil.cpp
  check/structurecheck.cpp
  check/limitcheck.cpp
  check/residencycheck.cpp
  check/selectioncheck.cpp
  check/runtimecostcheck.cpp
  check/runtimeverdict.h check/runtimeverdict.cpp
  check/topologyfit.h check/topologyfit.cpp
  check/matchcheck.cpp
  check/dependencycheck.cpp
  check/symbolicrun.h check/symbolicrun.cpp
  check/symbolicstate_p.h check/symbolicbuild.cpp check/symbolicexecute.cpp
  check/semanticcheck.cpp
  check/symbolicvalue.h check/symbolicvalue.cpp
  check/racedetector.h check/racedetector.cpp
  check/symbolicreach_p.h check/symbolicreach.cpp
  check/symbolicreports_p.h
  check/deadlockreport.cpp
  check/racereport.cpp
  check/postcondition.cpp
  check/schedulecheck.h check/schedulecheck.cpp
  check/scheduledetail_p.h check/schedulesymbolic.cpp
  check/schedulestates.h check/schedulestates.cpp
  check/schedulegeometry.h check/schedulegeometry.cpp
)
