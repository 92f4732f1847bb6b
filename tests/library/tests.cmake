# Unit tests of the library area; included by tests/CMakeLists.txt (paths relative to tests/).
cstudio_add_test(tst_catalog SOURCES library/tst_catalog.cpp)
cstudio_add_test(tst_schedulecheck SOURCES library/tst_schedulecheck.cpp)
cstudio_add_test(tst_librarylowering SOURCES library/tst_librarylowering.cpp)
cstudio_add_test(tst_generatecommand SOURCES library/tst_generatecommand.cpp)
cstudio_test_uses_cli(tst_generatecommand)
