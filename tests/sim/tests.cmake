# Unit tests of the sim area; included by tests/CMakeLists.txt (paths relative to tests/).
find_package(nlohmann_json REQUIRED)
cstudio_add_test(tst_topology SOURCES sim/tst_topology.cpp sim/simtestutil.h)
cstudio_add_test(tst_topologyimport SOURCES sim/tst_topologyimport.cpp sim/simtestutil.h)
cstudio_add_test(tst_simulator SOURCES sim/tst_simulator.cpp sim/simtestutil.h)
cstudio_add_test(tst_simfairshare SOURCES sim/tst_simfairshare.cpp)
cstudio_add_test(tst_simcorpus SOURCES sim/tst_simcorpus.cpp sim/simtestutil.h
  LIBS nlohmann_json::nlohmann_json)
cstudio_add_test(tst_simcli SOURCES sim/tst_simcli.cpp LIBS nlohmann_json::nlohmann_json)
cstudio_test_uses_cli(tst_simcli)
cstudio_add_test(tst_simcancel SOURCES sim/tst_simcancel.cpp)
cstudio_add_test(tst_fabricpresets SOURCES sim/tst_fabricpresets.cpp sim/simtestutil.h)
cstudio_add_test(tst_simfidelity SOURCES sim/tst_simfidelity.cpp sim/simtestutil.h)
cstudio_add_test(tst_calibration SOURCES sim/tst_calibration.cpp sim/simtestutil.h)
cstudio_add_test(tst_hostmodel SOURCES sim/tst_hostmodel.cpp sim/simtestutil.h)
cstudio_add_test(tst_calibratecli SOURCES sim/tst_calibratecli.cpp
  LIBS nlohmann_json::nlohmann_json)
cstudio_test_uses_cli(tst_calibratecli)
cstudio_add_test(tst_largetrace SOURCES sim/tst_largetrace.cpp)
