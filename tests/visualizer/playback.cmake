# Tests of visualizer/playback and of the Gantt and buffer views (paths relative to tests/).
cstudio_add_test(tst_playback SOURCES visualizer/tst_playback.cpp LIBS cs::visualizer)
cstudio_add_test(tst_replayviews SOURCES visualizer/tst_replayviews.cpp LIBS cs::visualizer)
# Runs the real collective-studio binary with --trace: passes its path, builds it.
cstudio_add_test(tst_replayscreenshot SOURCES visualizer/tst_replayscreenshot.cpp LIBS Qt6::Gui)
target_compile_definitions(tst_replayscreenshot PRIVATE
  COLLECTIVE_STUDIO="$<TARGET_FILE:collective-studio>")
add_dependencies(tst_replayscreenshot collective-studio)
cstudio_add_test(tst_opentrace SOURCES visualizer/tst_opentrace.cpp LIBS cs::app)
