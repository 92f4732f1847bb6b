# Tests of visualizer/follow: the editor's views following a replay (paths relative to tests/).
cstudio_add_test(tst_follow SOURCES visualizer/follow/tst_follow.cpp LIBS cs::visualizer)
cstudio_add_test(tst_followwindow SOURCES visualizer/follow/tst_followwindow.cpp LIBS cs::app)
