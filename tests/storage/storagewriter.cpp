// storage_writer LIBRARY NAME MARKER COUNT: saves COUNT versions (0: until killed) of algorithm
// NAME into an existing LIBRARY, each a ring whose algo name is MARKER-<i>, and prints
// "saved <i> <version number>" after each save returned. Exit 0 when done, 1 on any failure.

#include "library.h"

#include "catalogue/ringallreduce.h"
#include "io/mscclxmlwriter.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
  if (argc != 5) {
    std::fprintf(stderr, "usage: storage_writer LIBRARY NAME MARKER COUNT\n");
    return 2;
  }
  cs::storage::OpenOptions options;
  options.create = false;
  cs::storage::Result<cs::storage::Library> library = cs::storage::Library::open(argv[1], options);
  if (!library) {
    std::fprintf(stderr, "%s\n", library.error().message.c_str());
    return 1;
  }
  const long count = std::stol(argv[4]);
  for (long i = 0; count == 0 || i < count; ++i) {
    cs::RingAllReduceOptions ring;
    ring.ranks = 2 + static_cast<int>(i % 7);
    cs::Program program = cs::makeRingAllReduce(ring);
    program.name = std::string(argv[3]) + "-" + std::to_string(i);
    cs::storage::SaveRequest request;
    request.name = argv[2];
    request.message = program.name;
    request.content.xml = cs::writeMscclXml(program, {}).text;
    cs::storage::Result<cs::storage::SaveOutcome> saved = library->save(request);
    if (!saved) {
      std::fprintf(stderr, "%s\n", saved.error().message.c_str());
      return 1;
    }
    std::printf("saved %ld %d\n", i, saved->number);
    std::fflush(stdout);
  }
  return 0;
}
