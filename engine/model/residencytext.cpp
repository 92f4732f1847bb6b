#include "residencytext.h"

namespace cs {

std::string gpuWithArticle(const GpuModel& model)
{
  const char first = model.title.front();
  return std::string(first == 'V' || first == 'B' ? "a " : "an ") + std::string(model.title);
}

std::string residencyFigure(const GpuModel& model, DialectId dialect)
{
  const RuntimeBlock& block = runtimeBlock(dialect);
  return std::to_string(residentThreadblocks(model, dialect)) + " of " +
         std::string(cs::dialect(dialect).title) + "'s blocks resident (" +
         std::to_string(model.computeUnits) + " " + std::string(model.unitName()) + "s x " +
         std::to_string(block.blocksPerUnit) + ": " + std::string(block.why) + ")";
}

std::string residencySubject(const GpuModel& model, bool chosen)
{
  if (chosen)
    return gpuWithArticle(model);
  return "no GPU was chosen, and even " + gpuWithArticle(model) +
         ", the known GPU of this vendor with the most " + std::string(model.unitName()) + "s,";
}

} // namespace cs
