# Unit tests of engine/teach (issue 19: narration, break-it exercises, predict rounds).
# Narration: exact against the Schedule for the whole catalogue at 4, 8 and 16 ranks, the lifted
# corpus and a hand-drawn Schedule; `cstudio narrate` text, JSON and errors.
cstudio_add_test(tst_narration SOURCES teach/tst_narration.cpp teach/narrationclaims.h
  teach/narrationclaims.cpp)
cstudio_add_test(tst_narratecli SOURCES teach/tst_narratecli.cpp)
cstudio_test_uses_cli(tst_narratecli)
# Break-it exercises: each announced outcome re-measured by the checker and the CPU executor here;
# undo; the `cstudio exercises` command.
cstudio_add_test(tst_exercises SOURCES teach/tst_exercises.cpp)
cstudio_test_uses_cli(tst_exercises)
# Predict rounds: cells, options and scoring.
cstudio_add_test(tst_predict SOURCES teach/tst_predict.cpp)
