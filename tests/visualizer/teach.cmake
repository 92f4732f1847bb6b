# Tests of visualizer/teach: teaching mode's run, panel and view (paths relative to tests/).
cstudio_add_test(tst_teaching SOURCES visualizer/teach/tst_teaching.cpp LIBS cs::visualizer)
cstudio_add_test(tst_predictpanel SOURCES visualizer/teach/tst_predictpanel.cpp LIBS cs::visualizer)
cstudio_add_test(tst_breakitpanel SOURCES visualizer/teach/tst_breakitpanel.cpp LIBS cs::visualizer)
cstudio_add_test(tst_predictclick SOURCES visualizer/teach/tst_predictclick.cpp LIBS cs::visualizer)
cstudio_add_test(tst_breakitrun SOURCES visualizer/teach/tst_breakitrun.cpp LIBS cs::visualizer)
