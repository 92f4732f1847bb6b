# Unit tests of engine/teach (issue 19: narration, break-it exercises, predict rounds).
# Break-it exercises: each announced outcome re-measured by the checker and the CPU executor here;
# undo; the `cstudio exercises` command.
cstudio_add_test(tst_exercises SOURCES teach/tst_exercises.cpp)
cstudio_test_uses_cli(tst_exercises)
# Predict rounds: cells, options and scoring.
cstudio_add_test(tst_predict SOURCES teach/tst_predict.cpp)
