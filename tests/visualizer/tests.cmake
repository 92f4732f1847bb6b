# Unit tests of visualizer/ (QTest offscreen); each area keeps its own list.
foreach(area session playback views run compare follow sweep teach export)
  include(visualizer/${area}.cmake OPTIONAL)
endforeach()
