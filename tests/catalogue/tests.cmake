# Unit tests of the catalogue area; included by tests/CMakeLists.txt (paths relative to tests/).
cstudio_add_test(tst_catalogue SOURCES catalogue/tst_catalogue.cpp)
cstudio_add_test(tst_schedulecheck SOURCES catalogue/tst_schedulecheck.cpp)
cstudio_add_test(tst_cataloguelowering SOURCES catalogue/tst_cataloguelowering.cpp
  LIBS cs_compiletestsupport)
cstudio_add_test(tst_generatecommand SOURCES catalogue/tst_generatecommand.cpp)
cstudio_test_uses_cli(tst_generatecommand)
cstudio_add_test(tst_cataloguescale SOURCES catalogue/tst_cataloguescale.cpp
  LIBS cs_compiletestsupport)
# The gallery's examples (resources/gallery.cmake), where the build writes them.
if(TARGET cs_gallery_examples)
  target_compile_definitions(tst_generatecommand PRIVATE
    CSTUDIO_GALLERY_DIR="${CSTUDIO_GALLERY_DIR}")
  add_dependencies(tst_generatecommand cs_gallery_examples)
endif()
