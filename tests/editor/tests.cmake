# Editor tests (QTest, offscreen); each area keeps its own list (paths relative to tests/).
foreach(area document timeline topology program panels)
  include(editor/${area}/tests.cmake)
endforeach()
include(app/window/tests.cmake)
