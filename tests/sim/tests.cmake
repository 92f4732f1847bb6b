# Unit tests of the sim area; included by tests/CMakeLists.txt (paths relative to tests/).
