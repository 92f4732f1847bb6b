#pragma once

// Helpers shared by the storage tests: generated MSCCL XML with a marker.

#include "catalogue/ringallreduce.h"
#include "io/mscclxmlwriter.h"
#include "support/files.h"

#include <QString>

#include <string>

namespace cs::test {

/// A correct ring all-reduce on `ranks` ranks whose algo name is `name` (so contents differ).
inline std::string ringXml(int ranks, const std::string& name = "ring", int channels = 1)
{
  RingAllReduceOptions options;
  options.ranks = ranks;
  options.channels = channels;
  Program program = makeRingAllReduce(options);
  program.name = name;
  return writeMscclXml(program, {}).text;
}

} // namespace cs::test
