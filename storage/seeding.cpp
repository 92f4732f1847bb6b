// The examples a new library starts with. They come from the program's own generators, so they
// are correct by construction and need no data files.

#include "libraryimpl.h"

#include "io/mscclxmlwriter.h"
#include "library/ringallreduce.h"

namespace cs::storage {

namespace {

std::vector<SaveRequest> ringExamples()
{
  std::vector<SaveRequest> requests;
  for (int ranks : {2, 4, 8}) {
    RingAllReduceOptions options;
    options.ranks = ranks;
    SaveRequest request;
    request.name = "ring-allreduce-" + std::to_string(ranks);
    request.provenance = Provenance::Generated;
    request.tags = std::vector<std::string>{"example", "ring", "classic"};
    request.notes = "Ring all-reduce on " + std::to_string(ranks) +
                    " ranks: n-1 reduce-scatter steps, then n-1 all-gather steps around the ring.";
    request.message = "shipped example";
    request.content.xml = writeMscclXml(makeRingAllReduce(options), {}).text;
    requests.push_back(std::move(request));
  }
  return requests;
}

} // namespace

// SEEDING HOOK: when engine/library/catalog.h (algorithmCatalog()) is linked, add one request
// per catalogue algorithm and supported rank count here (generate the Schedule, lower it, store
// the XML with the Schedule so diffs compare transfers). Everything else stays as it is: saving
// is idempotent, so existing libraries can call seedExamples() again to gain new examples.
Status Library::seedExamples()
{
  Result<std::vector<SaveOutcome>> saved = saveAll(ringExamples());
  if (!saved)
    return saved.error();
  return {};
}

} // namespace cs::storage
