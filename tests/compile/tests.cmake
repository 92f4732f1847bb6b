# Unit tests of the compile area; included by tests/CMakeLists.txt (paths relative to tests/).
add_library(cs_compiletestsupport STATIC
  compile/schedules.h compile/schedules.cpp
  compile/compileutil.h compile/compileutil.cpp
)
target_link_libraries(cs_compiletestsupport PUBLIC cs_testsupport)
cstudio_target_warnings(cs_compiletestsupport)

cstudio_add_test(tst_lower SOURCES compile/tst_lower.cpp LIBS cs_compiletestsupport)
cstudio_add_test(tst_lift SOURCES compile/tst_lift.cpp LIBS cs_compiletestsupport)
cstudio_add_test(tst_designdocument SOURCES compile/tst_designdocument.cpp
  LIBS cs_compiletestsupport)
cstudio_add_test(tst_exportcli SOURCES compile/tst_exportcli.cpp LIBS cs_compiletestsupport)
cstudio_test_uses_cli(tst_exportcli)
cstudio_add_test(tst_catalogcompile SOURCES compile/tst_catalogcompile.cpp
  LIBS cs_compiletestsupport)
# Residency packing: the largest direct all-to-all each GPU model keeps resident, fully checked,
# and one packed program verified on the CPU executor.
cstudio_add_test(tst_tbpacking SOURCES compile/tst_tbpacking.cpp
  LIBS cs_compiletestsupport cs::executors)
