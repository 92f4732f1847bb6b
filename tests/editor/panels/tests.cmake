# Tests of editor/panels (paths relative to tests/).
cstudio_add_test(tst_problemspanel SOURCES editor/panels/tst_problemspanel.cpp LIBS cs::editor)
cstudio_add_test(tst_inspector SOURCES editor/panels/tst_inspector.cpp LIBS cs::editor)
