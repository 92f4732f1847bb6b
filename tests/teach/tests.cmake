# Unit tests of engine/teach (issue 19: narration, break-it exercises, predict rounds).
