# Tests of app/collective-studio: its main window and the binary (paths relative to tests/).
# A test that reads the examples the build writes (packaging/examples) gets their folder as
# CSTUDIO_EXAMPLES_DIR and builds them first. Sanitizer and fuzzing builds write no examples
# (packaging/CMakeLists.txt): there the test gets no folder and that case skips.
function(cstudio_use_examples test)
  if(TARGET cs_examples)
    target_compile_definitions(${test} PRIVATE
      CSTUDIO_EXAMPLES_DIR="${PROJECT_BINARY_DIR}/packaging/examples")
    add_dependencies(${test} cs_examples)
  endif()
endfunction()

cstudio_add_test(tst_mainwindow SOURCES app/window/tst_mainwindow.cpp LIBS cs::app)
cstudio_add_test(tst_autosave SOURCES app/window/tst_autosave.cpp LIBS cs::app)
# Runs the real collective-studio binary (--screenshot, exit codes): passes its path, builds it.
find_package(Qt6 REQUIRED COMPONENTS Gui)
cstudio_add_test(tst_studiocli SOURCES app/window/tst_studiocli.cpp LIBS Qt6::Gui)
target_compile_definitions(tst_studiocli PRIVATE
  COLLECTIVE_STUDIO="$<TARGET_FILE:collective-studio>" CSTUDIO_TEST_VERSION="${PROJECT_VERSION}")
add_dependencies(tst_studiocli collective-studio)
# Runs listed in the Library dock and replayed; files dropped on the window.
cstudio_add_test(tst_storedruns SOURCES app/window/tst_storedruns.cpp LIBS cs::app)
# Help › About: the versions found at run time.
cstudio_add_test(tst_aboutversions SOURCES app/window/tst_aboutversions.cpp LIBS cs::app)
# Teach › Gallery: cards, rank rules, thumbnails, opening in teaching mode.
cstudio_add_test(tst_gallery SOURCES app/window/tst_gallery.cpp LIBS cs::app)
# Teach › Presentation Mode: palettes, keys, pointer, giving the Teaching view back.
cstudio_add_test(tst_presentation SOURCES app/window/tst_presentation.cpp LIBS cs::app)
# File › New: the Empty tab's fields, its buffer preview and the buffers it creates.
cstudio_add_test(tst_newdocument SOURCES app/window/tst_newdocument.cpp LIBS cs::app)
# The Inspector follows the selection through delete, undo and tab changes, and fits its dock.
cstudio_add_test(tst_inspectorfollows SOURCES app/window/tst_inspectorfollows.cpp LIBS cs::app)
# Help › User Guide, and the guide's deadlock example generated at build time.
cstudio_add_test(tst_userguide SOURCES app/window/tst_userguide.cpp LIBS cs::app)
cstudio_use_examples(tst_userguide)
# docs/editor.md's "Drawing a ring all-reduce" followed step by step in the main window; the
# finished ring compared with the catalogue's and with the guide's example.
cstudio_add_test(tst_guidewalkthrough SOURCES app/window/tst_guidewalkthrough.cpp LIBS cs::app)
cstudio_use_examples(tst_guidewalkthrough)
# The guide's later chapters with the examples the build writes: fixing the deadlock, comparing
# two runs, a run that hangs. Without examples (sanitizer and fuzzing builds) it skips.
cstudio_add_test(tst_guidechapters SOURCES app/window/tst_guidechapters.cpp LIBS cs::app)
cstudio_use_examples(tst_guidechapters)
# Cut, Copy, Paste and Duplicate of transfers in the Edit menu, between windows, in the status bar.
cstudio_add_test(tst_windowclipboard SOURCES app/window/tst_windowclipboard.cpp LIBS cs::app)
# View › Fit Timeline to Window, Compact Rows, and the zoom remembered per document.
cstudio_add_test(tst_timelineroom SOURCES app/window/tst_timelineroom.cpp LIBS cs::app)
# Tool shortcuts wherever the focus is, text fields' own undo, default tools in new documents.
cstudio_add_test(tst_focusshortcuts SOURCES app/window/tst_focusshortcuts.cpp LIBS cs::app)
# One name per algorithm (start document, XML, library), Save As naming, the library example's
# topology, and the question before a Library topology replaces the document's.
cstudio_add_test(tst_documentnames SOURCES app/window/tst_documentnames.cpp LIBS cs::app)
cstudio_test_uses_cli(tst_documentnames)
