# Editor tests (QTest, offscreen); each area keeps its own list (paths relative to tests/).
foreach(area document timeline topology program panels window)
  include(editor/${area}/tests.cmake)
endforeach()
