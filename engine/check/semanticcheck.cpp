#include "passes.h"

namespace cs::passes {

// Placeholder until the pass lands.
void checkSemantics(const Program&, const CheckOptions&, Diagnostics&)
{
}

} // namespace cs::passes
