# Unit tests of the compile area; included by tests/CMakeLists.txt (paths relative to tests/).
