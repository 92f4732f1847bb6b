# One small QTest executable per unit (STYLE.md 14). Tests get the source directory as a define,
# never rely on the working directory, and run GUI code on the offscreen platform.
#
#   cstudio_add_test(tst_reader SOURCES io/tst_reader.cpp [LIBS ...] [LABELS gpu ...])

function(cstudio_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test cs_testsupport cs::engine ${ARG_LIBS})
  target_compile_definitions(${name} PRIVATE
    CSTUDIO_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    CSTUDIO_TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}")
  if(CSTUDIO_SANITIZE)
    # Tests that run real work under a time limit (the executors' watchdog) allow for the
    # sanitizers' slowdown.
    target_compile_definitions(${name} PRIVATE CSTUDIO_SANITIZED)
  endif()
  cstudio_target_warnings(${name})
  add_test(NAME ${name} COMMAND ${name})
  set(labels unit ${ARG_LABELS})
  # ctest reports a test whose every case skipped (no GPU, no corpus) as skipped, not passed: QTest
  # counts initTestCase and cleanupTestCase as two passes (none when initTestCase skips). One where
  # only some cases skip still passes; scripts/test.sh prints its skipped-case count.
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen"
    LABELS "${labels}"
    SKIP_REGULAR_EXPRESSION "Totals: [02] passed, 0 failed, [1-9][0-9]* skipped"
    TIMEOUT 600)
endfunction()

# A test that runs the cstudio binary (tests/support/cli.h): passes its path and builds it first.
function(cstudio_test_uses_cli name)
  target_compile_definitions(${name} PRIVATE CSTUDIO_CLI="$<TARGET_FILE:cstudio>")
  add_dependencies(${name} cstudio)
endfunction()
