# CLI tests of design documents (paths relative to tests/).
cstudio_add_test(tst_designcli SOURCES cli/tst_designcli.cpp)
cstudio_test_uses_cli(tst_designcli)
