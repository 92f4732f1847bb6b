# Sources of visualizer/export: the playback exported as an animation for slides (issue 19 item
# 6), relative to visualizer/. Its libraries (giflib, Qt SVG, FFmpeg when found) are linked in
# visualizer/export/link.cmake once the library target exists.
list(APPEND cs_visualizer_area_sources
  export/animationsource.h export/animationsource.cpp
  export/animationrenderer.h export/animationrenderer.cpp
  export/animationexport.h export/animationexport.cpp
  export/stagedoutput.h export/stagedoutput.cpp
  export/framewriter.h
  export/gifpalette.h export/gifpalette.cpp
  export/gifwriter.h export/gifwriter.cpp
  export/mp4writer.h export/mp4writer.cpp
  export/pngsequencewriter.h export/pngsequencewriter.cpp
)
