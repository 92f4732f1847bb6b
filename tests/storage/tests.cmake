# Unit tests of the storage area; included by tests/CMakeLists.txt (paths relative to tests/).

# A child process for the crash and concurrency tests: saves versions in a loop and reports each
# one that returned, so a parent can kill it at random moments and check what survived.
add_executable(storage_writer storage/storagewriter.cpp)
target_link_libraries(storage_writer PRIVATE cs::storage)
cstudio_target_warnings(storage_writer)

cstudio_add_test(tst_storage SOURCES storage/tst_storage.cpp storage/storagetestutil.h
                 LIBS cs::storage)
cstudio_add_test(tst_storagefiles SOURCES storage/tst_storagefiles.cpp storage/storagetestutil.h
                 LIBS cs::storage)
cstudio_add_test(tst_storagecrash SOURCES storage/tst_storagecrash.cpp storage/storagetestutil.h
                 LIBS cs::storage)
target_compile_definitions(tst_storagecrash PRIVATE
  STORAGE_WRITER="$<TARGET_FILE:storage_writer>")
add_dependencies(tst_storagecrash storage_writer)
# A leak of QtTest's watchdog thread that LeakSanitizer sometimes reports at this test's exit
# (the file says which and why only here).
set_property(TEST tst_storagecrash APPEND PROPERTY ENVIRONMENT
  "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/storage/qtest-watchdog.supp")
cstudio_add_test(tst_librarycli SOURCES storage/tst_librarycli.cpp storage/storagetestutil.h
                 LIBS cs::storage)
cstudio_test_uses_cli(tst_librarycli)
