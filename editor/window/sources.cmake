list(APPEND cs_editor_area_sources
  window/windowicons.h window/windowicons.cpp
  window/twolinedelegate.h window/twolinedelegate.cpp
  window/recentfiles.h window/recentfiles.cpp
  window/autosave.h window/autosave.cpp
  window/exportreport.h window/exportreport.cpp
  window/exportdialog.h window/exportdialog.cpp
  window/newdocuments.h window/newdocuments.cpp
  window/newdocumentdialog.h window/newdocumentdialog.cpp
  window/librarydocuments.h window/librarydocuments.cpp
  window/librarypanel.h window/librarypanel.cpp
  window/savetolibrarydialog.h window/savetolibrarydialog.cpp
  window/statussummary.h window/statussummary.cpp
  window/mainwindow.h window/mainwindowactions.h
  window/mainwindow.cpp window/mainwindowactions.cpp window/mainwindowfiles.cpp
  window/mainwindowhelp.cpp
)
