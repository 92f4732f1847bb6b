# Tests of editor/timeline (paths relative to tests/).
cstudio_add_test(tst_chunkstates SOURCES editor/timeline/tst_chunkstates.cpp LIBS cs::editor)
cstudio_add_test(tst_replicate SOURCES editor/timeline/tst_replicate.cpp LIBS cs::editor)
cstudio_add_test(tst_timeline SOURCES editor/timeline/tst_timeline.cpp LIBS cs::editor)
cstudio_add_test(tst_timelineconceal SOURCES editor/timeline/tst_timelineconceal.cpp
  LIBS cs::editor)
# Copy, cut, paste and duplicate transfers (issue 17, item 6).
cstudio_add_test(tst_timelineclipboard SOURCES editor/timeline/tst_timelineclipboard.cpp
  LIBS cs::editor)
# Ranks grouped by node (issue 18, item 5).
cstudio_add_test(tst_timelinenodes SOURCES editor/timeline/tst_timelinenodes.cpp LIBS cs::editor)
