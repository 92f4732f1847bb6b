# Unit tests of visualizer/ (QTest offscreen); each area keeps its own list.
foreach(area session playback views run compare sweep)
  include(visualizer/${area}.cmake OPTIONAL)
endforeach()
