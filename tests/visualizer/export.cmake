# Tests of visualizer/export: the animation export (issue 19 item 6), paths relative to tests/.
# They decode GIFs with giflib and probe MP4s with libavformat (when the build has FFmpeg).
find_package(GIF REQUIRED)
find_package(Qt6 REQUIRED COMPONENTS Svg)
cstudio_add_test(tst_animationexport SOURCES visualizer/export/tst_animationexport.cpp
                 LIBS cs::visualizer GIF::GIF Qt6::Svg)
target_include_directories(tst_animationexport PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/visualizer)
if(CSTUDIO_MP4_EXPORT)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(CSTUDIO_TEST_AVFORMAT REQUIRED IMPORTED_TARGET libavformat libavutil)
  target_link_libraries(tst_animationexport PRIVATE PkgConfig::CSTUDIO_TEST_AVFORMAT)
endif()
# Runs the real collective-studio binary with --export-animation: passes its path, builds it.
cstudio_add_test(tst_exportanimationcli SOURCES visualizer/export/tst_exportanimationcli.cpp
                 LIBS GIF::GIF Qt6::Gui)
target_include_directories(tst_exportanimationcli PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/visualizer)
target_compile_definitions(tst_exportanimationcli PRIVATE
  COLLECTIVE_STUDIO="$<TARGET_FILE:collective-studio>")
add_dependencies(tst_exportanimationcli collective-studio)
# File › Export Animation…: the dialog and MainWindow::exportAnimationTo.
cstudio_add_test(tst_exportanimationwindow SOURCES visualizer/export/tst_exportanimationwindow.cpp
                 LIBS cs::app GIF::GIF)
target_include_directories(tst_exportanimationwindow PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/visualizer)
