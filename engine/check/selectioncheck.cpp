#include "passes.h"

namespace cs::passes {

// Placeholder until the pass lands.
void checkSelection(const Program&, const Dialect&, Diagnostics&)
{
}

} // namespace cs::passes
