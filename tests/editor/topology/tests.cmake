# Tests of editor/topology (paths relative to tests/).
cstudio_add_test(tst_topologyview SOURCES editor/topology/tst_topologyview.cpp LIBS cs::editor)
cstudio_add_test(tst_topologynavigation SOURCES editor/topology/tst_topologynavigation.cpp
                 LIBS cs::editor)
cstudio_add_test(tst_topologyedits SOURCES editor/topology/tst_topologyedits.cpp LIBS cs::editor)
cstudio_add_test(tst_topologymachines SOURCES editor/topology/tst_topologymachines.cpp LIBS cs::editor)
