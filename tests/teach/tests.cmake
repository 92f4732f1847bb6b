# Unit tests of engine/teach (issue 19: narration, break-it exercises, predict rounds).
# Narration: exact against the Schedule for the whole catalogue at 4, 8 and 16 ranks, the lifted
# corpus and a hand-drawn Schedule; `cstudio narrate` text, JSON and errors.
cstudio_add_test(tst_narration SOURCES teach/tst_narration.cpp teach/narrationclaims.h
  teach/narrationclaims.cpp)
cstudio_add_test(tst_narratecli SOURCES teach/tst_narratecli.cpp)
cstudio_test_uses_cli(tst_narratecli)
