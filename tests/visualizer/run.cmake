# Tests of visualizer/run: the Run panel and its job (paths relative to tests/).
cstudio_add_test(tst_runpanel SOURCES visualizer/run/tst_runpanel.cpp LIBS cs::visualizer)
cstudio_add_test(tst_runaction SOURCES visualizer/run/tst_runaction.cpp LIBS cs::app)
