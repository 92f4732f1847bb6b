# Tests of visualizer/views: the topology playback view and the link chart (paths relative to
# tests/).
cstudio_add_test(tst_topologyplayback SOURCES visualizer/views/tst_topologyplayback.cpp
                 LIBS cs::visualizer)
cstudio_add_test(tst_linkchart SOURCES visualizer/views/tst_linkchart.cpp LIBS cs::visualizer)
cstudio_add_test(tst_bufferwrong SOURCES visualizer/views/tst_bufferwrong.cpp
                 LIBS cs::visualizer cs::executors)
