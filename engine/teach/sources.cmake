# Sources of engine/teach (teaching mode, issue 19: narration generated from a Schedule's
# semantics, break-it exercises, predict rounds), relative to engine/. It sits above the
# executors because a break-it exercise runs the CPU executor to show what a broken algorithm does.
list(APPEND cs_engine_area_sources
  teach/narration.h teach/narration.cpp teach/narration_p.h teach/narrationformula.cpp
  teach/narrationgroups.cpp teach/narrationtext.cpp teach/narrationgoal.cpp
  teach/costnarration.h teach/costnarration.cpp
  teach/exercises.h teach/exercises.cpp
  teach/exercisecandidates_p.h teach/exercisecandidates.cpp
  teach/exercisejudge.cpp
  teach/exercisetext_p.h teach/exercisetext.cpp
  teach/predict.h teach/predict.cpp
)
