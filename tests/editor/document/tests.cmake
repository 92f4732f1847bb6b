# Tests of editor/document (paths relative to tests/).
cstudio_add_test(tst_document SOURCES editor/document/tst_document.cpp LIBS cs::editor)
cstudio_add_test(tst_documentcli SOURCES editor/document/tst_documentcli.cpp LIBS cs::editor)
cstudio_test_uses_cli(tst_documentcli)
cstudio_add_test(tst_untrustedfile SOURCES editor/document/tst_untrustedfile.cpp LIBS cs::editor)
cstudio_add_test(tst_designfilename SOURCES editor/document/tst_designfilename.cpp LIBS cs::editor)
