# Tests of app/collective-studio: its main window and the binary (paths relative to tests/).
cstudio_add_test(tst_mainwindow SOURCES app/window/tst_mainwindow.cpp LIBS cs::app)
cstudio_add_test(tst_autosave SOURCES app/window/tst_autosave.cpp LIBS cs::app)
# Runs the real collective-studio binary (--screenshot, exit codes): passes its path, builds it.
find_package(Qt6 REQUIRED COMPONENTS Gui)
cstudio_add_test(tst_studiocli SOURCES app/window/tst_studiocli.cpp LIBS Qt6::Gui)
target_compile_definitions(tst_studiocli PRIVATE
  COLLECTIVE_STUDIO="$<TARGET_FILE:collective-studio>")
add_dependencies(tst_studiocli collective-studio)
# Runs listed in the Library dock and replayed; files dropped on the window.
cstudio_add_test(tst_storedruns SOURCES app/window/tst_storedruns.cpp LIBS cs::app)
# Help › About: the versions found at run time.
cstudio_add_test(tst_aboutversions SOURCES app/window/tst_aboutversions.cpp LIBS cs::app)
# Teach › Gallery: cards, rank rules, thumbnails, opening in teaching mode.
cstudio_add_test(tst_gallery SOURCES app/window/tst_gallery.cpp LIBS cs::app)
# Teach › Presentation Mode: palettes, keys, pointer, giving the Teaching view back.
cstudio_add_test(tst_presentation SOURCES app/window/tst_presentation.cpp LIBS cs::app)
