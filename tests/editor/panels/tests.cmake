# Tests of editor/panels (paths relative to tests/).
cstudio_add_test(tst_problemspanel SOURCES editor/panels/tst_problemspanel.cpp LIBS cs::editor)
cstudio_add_test(tst_inspector SOURCES editor/panels/tst_inspector.cpp LIBS cs::editor)
# Every problem the catalogue and its broken variants produce points at an item that exists.
cstudio_add_test(tst_problemnavigation SOURCES editor/panels/tst_problemnavigation.cpp
  LIBS cs::editor)
# A fault on every rank of a 1,024-rank program is one row with lazily shown children.
cstudio_add_test(tst_problemsscale SOURCES editor/panels/tst_problemsscale.cpp LIBS cs::editor)
# The GPU box: every model listed, limit.residency live with undo, the fix, save and open.
cstudio_add_test(tst_gpuchoice SOURCES editor/panels/tst_gpuchoice.cpp LIBS cs::editor)
