# Tests of editor/document (paths relative to tests/).
cstudio_add_test(tst_document SOURCES editor/document/tst_document.cpp LIBS cs::editor)
