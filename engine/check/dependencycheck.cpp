#include "passes.h"

namespace cs::passes {

// Placeholder until the pass lands.
void checkDependencies(const Program&, Diagnostics&)
{
}

} // namespace cs::passes
