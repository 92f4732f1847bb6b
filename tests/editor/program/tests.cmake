# Tests of editor/program (paths relative to tests/).
cstudio_add_test(tst_programview SOURCES editor/program/tst_programview.cpp LIBS cs::editor)
