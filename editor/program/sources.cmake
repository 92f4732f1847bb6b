list(APPEND cs_editor_area_sources
  program/programedits.h program/programedits.cpp
  program/programmodel.h program/programmodel.cpp program/programcells.cpp
  program/programplayback.cpp
  program/programdelegate.h program/programdelegate.cpp
  program/programtreeview.h program/programtreeview.cpp
  program/programview.h program/programview.cpp
)
