#include "passes.h"

namespace cs::passes {

// Placeholder until the pass lands.
void checkMatching(const Program&, Diagnostics&)
{
}

} // namespace cs::passes
