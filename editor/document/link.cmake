# The Program-level analysis of large Schedules runs in the background (document.cpp).
find_package(Qt6 REQUIRED COMPONENTS Concurrent)
target_link_libraries(cs_editor PRIVATE Qt6::Concurrent)
