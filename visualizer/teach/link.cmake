# The libraries of visualizer/teach (included by visualizer/CMakeLists.txt after cs_visualizer
# exists): the Break it tab finds its exercises in the background (breakitpanel.cpp).
find_package(Qt6 REQUIRED COMPONENTS Concurrent)
target_link_libraries(cs_visualizer PRIVATE Qt6::Concurrent)
