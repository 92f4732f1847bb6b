// The per-rank operation order shared by every lowering stage (see lowerplan_p.h): rounds split a
// step's messages on one connection so that sending and receiving alternate.

#include "lowerplan_p.h"

#include <cstdint>
#include <unordered_map>

namespace cs::lowering {

void numberRounds(Plan& plan)
{
  plan.rounds.assign(plan.transfers.size(), 0);
  std::unordered_map<std::uint64_t, int> perConnection; // (src, dst) → transfers seen this step
  int step = -1;
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) { // sorted by (step, id)
    const Transfer& t = plan.transfers[i];
    if (t.step != step) {
      perConnection.clear();
      step = t.step;
    }
    if (t.isLocal())
      continue;
    const std::uint64_t key =
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(t.src.rank)) << 32) |
        static_cast<std::uint32_t>(t.dst.rank);
    plan.rounds[i] = perConnection[key]++;
  }
}

OpKey opKey(const Plan& plan, std::size_t index, int phase)
{
  const Transfer& t = plan.transfers[index];
  return {t.step, plan.rounds[index], t.isLocal() ? 0 : phase, t.id};
}

} // namespace cs::lowering
