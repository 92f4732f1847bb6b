# Tests of visualizer/sweep: the sweep job and the Benchmark Sweep window (paths relative to
# tests/).
cstudio_add_test(tst_sweepjob SOURCES visualizer/sweep/tst_sweepjob.cpp LIBS cs::visualizer)
cstudio_add_test(tst_sweepwindow SOURCES visualizer/sweep/tst_sweepwindow.cpp LIBS cs::visualizer)
cstudio_add_test(tst_sweepaction SOURCES visualizer/sweep/tst_sweepaction.cpp LIBS cs::app)
