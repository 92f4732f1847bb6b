# Unit tests of the storage area; included by tests/CMakeLists.txt (paths relative to tests/).
