list(APPEND cs_editor_area_sources style/rankpalette.h style/rankpalette.cpp style/paintedicon.h style/paintedicon.cpp
  style/paintedicons.h style/paintedicons.cpp)
list(APPEND cs_editor_area_sources style/textformat.h style/textformat.cpp)
list(APPEND cs_editor_area_sources style/viewporttooltip.h style/viewporttooltip.cpp)
