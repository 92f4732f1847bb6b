# The libraries of visualizer/export (included by visualizer/CMakeLists.txt after cs_visualizer
# exists). GIF needs giflib (libgif-dev) and SVG Qt SVG (qt6-svg-dev). MP4 needs FFmpeg's
# libavcodec, libavformat, libswscale and libavutil (the -dev packages): CSTUDIO_WITH_FFMPEG=AUTO
# uses them when pkg-config finds them, ON requires them, OFF builds without; without them the
# MP4 export says so and GIF and PNG still work.
find_package(GIF REQUIRED)
find_package(Qt6 REQUIRED COMPONENTS Svg)
target_link_libraries(cs_visualizer PRIVATE GIF::GIF PUBLIC Qt6::Svg)

set(CSTUDIO_WITH_FFMPEG AUTO CACHE STRING "MP4 export with FFmpeg's libraries: AUTO, ON or OFF")
set_property(CACHE CSTUDIO_WITH_FFMPEG PROPERTY STRINGS AUTO ON OFF)
set(CSTUDIO_MP4_EXPORT OFF CACHE INTERNAL "cs_visualizer writes MP4 (tests probe it)")
if(NOT CSTUDIO_WITH_FFMPEG STREQUAL "OFF")
  find_package(PkgConfig)
  if(PkgConfig_FOUND)
    pkg_check_modules(CSTUDIO_FFMPEG IMPORTED_TARGET libavcodec libavformat libswscale libavutil)
  endif()
  if(CSTUDIO_FFMPEG_FOUND)
    set(CSTUDIO_MP4_EXPORT ON CACHE INTERNAL "cs_visualizer writes MP4 (tests probe it)")
    target_link_libraries(cs_visualizer PRIVATE PkgConfig::CSTUDIO_FFMPEG)
    target_compile_definitions(cs_visualizer PUBLIC CSTUDIO_HAVE_FFMPEG)
    message(STATUS "MP4 export: FFmpeg ${CSTUDIO_FFMPEG_libavcodec_VERSION}")
  elseif(CSTUDIO_WITH_FFMPEG STREQUAL "ON")
    message(FATAL_ERROR "CSTUDIO_WITH_FFMPEG=ON but FFmpeg's libraries were not found "
                        "(install libavcodec-dev libavformat-dev libswscale-dev libavutil-dev)")
  else()
    message(STATUS "MP4 export: off (FFmpeg's development libraries not found)")
  endif()
endif()
