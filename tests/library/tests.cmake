# Unit tests of the library area; included by tests/CMakeLists.txt (paths relative to tests/).
