# Tests of visualizer/compare and of a stopped run's replay window (paths relative to tests/).
cstudio_add_test(tst_compare SOURCES visualizer/tst_compare.cpp LIBS cs::visualizer cs::executors)
# Runs the real collective-studio binary with --compare: passes its path, builds it.
cstudio_add_test(tst_comparescreenshot SOURCES visualizer/tst_comparescreenshot.cpp LIBS Qt6::Gui cs::executors)
target_compile_definitions(tst_comparescreenshot PRIVATE
  COLLECTIVE_STUDIO="$<TARGET_FILE:collective-studio>")
add_dependencies(tst_comparescreenshot collective-studio)
