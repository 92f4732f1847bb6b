# Unit tests of engine/exec; included by tests/CMakeLists.txt (paths relative to tests/).
cstudio_add_test(tst_cpuexecutor SOURCES exec/tst_cpuexecutor.cpp)
cstudio_add_test(tst_execcorpus SOURCES exec/tst_execcorpus.cpp)
