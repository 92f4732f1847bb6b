# Unit tests of engine/replay; included by tests/CMakeLists.txt (paths relative to tests/).
cstudio_add_test(tst_replay SOURCES replay/tst_replay.cpp)
cstudio_add_test(tst_tracereader SOURCES replay/tst_tracereader.cpp)
cstudio_add_test(tst_bufferreplay SOURCES replay/tst_bufferreplay.cpp)
cstudio_add_test(tst_replaycli SOURCES replay/tst_replaycli.cpp LIBS cs::executors)
cstudio_test_uses_cli(tst_replaycli)
cstudio_add_test(tst_hangcli SOURCES replay/tst_hangcli.cpp)
cstudio_test_uses_cli(tst_hangcli)
cstudio_add_test(tst_comparison SOURCES replay/tst_comparison.cpp LIBS cs::executors)
cstudio_add_test(tst_traceverification SOURCES replay/tst_traceverification.cpp
  LIBS cs::executors)
