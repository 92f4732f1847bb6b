#include "staticcheckutil_p.h"

#include <algorithm>
#include <array>

namespace cs::passes {

Reporter::~Reporter()
{
  for (const Count& c : m_counts) {
    if (c.count <= kMaxPerCode)
      continue;
    const int suppressed = c.count - kMaxPerCode;
    m_out.info("check.truncated", cat(suppressed, " more ", c.code, " diagnostic",
                                      suppressed == 1 ? "" : "s", " suppressed after the first ",
                                      kMaxPerCode, "; fix those and check again to see the rest"));
  }
}

bool Reporter::admit(std::string_view code)
{
  for (Count& c : m_counts) {
    if (c.code == code)
      return ++c.count <= kMaxPerCode;
  }
  m_counts.push_back({code, 1});
  return true;
}

IdIndex::IdIndex(const std::vector<int>& ids)
{
  const int n = static_cast<int>(ids.size());
  m_first.assign(ids.size(), -1);
  m_many.assign(ids.size(), 0);
  for (int i = 0; i < n; ++i) {
    const int id = ids[static_cast<std::size_t>(i)];
    if (id >= 0 && id < n) {
      int& first = m_first[static_cast<std::size_t>(id)];
      if (first < 0)
        first = i;
      else
        m_many[static_cast<std::size_t>(id)] = 1;
    } else {
      m_sparse.emplace_back(id, i);
    }
  }
  std::sort(m_sparse.begin(), m_sparse.end());
}

int IdIndex::find(int id) const
{
  if (id >= 0 && id < static_cast<int>(m_first.size()))
    return m_first[static_cast<std::size_t>(id)];
  const auto it = std::lower_bound(m_sparse.begin(), m_sparse.end(), std::pair<int, int>(id, -1));
  return it != m_sparse.end() && it->first == id ? it->second : -1;
}

bool IdIndex::isUnique(int id) const
{
  if (id >= 0 && id < static_cast<int>(m_first.size()))
    return m_first[static_cast<std::size_t>(id)] >= 0 && !m_many[static_cast<std::size_t>(id)];
  const auto it = std::lower_bound(m_sparse.begin(), m_sparse.end(), std::pair<int, int>(id, -1));
  return it != m_sparse.end() && it->first == id &&
         (it + 1 == m_sparse.end() || (it + 1)->first != id);
}

namespace {

std::vector<int> gpuIds(const Program& program)
{
  std::vector<int> ids;
  ids.reserve(program.gpus.size());
  for (const Gpu& gpu : program.gpus)
    ids.push_back(gpu.id);
  return ids;
}

std::vector<int> tbIds(const Gpu& gpu)
{
  std::vector<int> ids;
  ids.reserve(gpu.threadblocks.size());
  for (const ThreadBlock& tb : gpu.threadblocks)
    ids.push_back(tb.id);
  return ids;
}

} // namespace

ProgramIndex::ProgramIndex(const Program& program) : ranks(gpuIds(program))
{
  threadblocks.reserve(program.gpus.size());
  firstTb.reserve(program.gpus.size() + 1);
  int tbs = 0;
  for (const Gpu& gpu : program.gpus) {
    threadblocks.emplace_back(tbIds(gpu));
    firstTb.push_back(tbs);
    tbs += static_cast<int>(gpu.threadblocks.size());
  }
  firstTb.push_back(tbs);
  firstStep.reserve(static_cast<std::size_t>(tbs) + 1);
  tbGpu.reserve(static_cast<std::size_t>(tbs));
  tbIndex.reserve(static_cast<std::size_t>(tbs));
  int steps = 0;
  for (std::size_t g = 0; g < program.gpus.size(); ++g) {
    const std::vector<ThreadBlock>& list = program.gpus[g].threadblocks;
    for (std::size_t t = 0; t < list.size(); ++t) {
      firstStep.push_back(steps);
      tbGpu.push_back(static_cast<int>(g));
      tbIndex.push_back(static_cast<int>(t));
      steps += static_cast<int>(list[t].steps.size());
    }
  }
  firstStep.push_back(steps);
  stepCount = steps;
}

int ProgramIndex::uniqueGpu(int rankId) const
{
  return ranks.isUnique(rankId) ? ranks.find(rankId) : -1;
}

int ProgramIndex::uniqueThreadblock(int gpu, int tbId) const
{
  if (gpu < 0 || gpu >= static_cast<int>(threadblocks.size()))
    return -1;
  const IdIndex& index = threadblocks[static_cast<std::size_t>(gpu)];
  return index.isUnique(tbId) ? index.find(tbId) : -1;
}

const OpTraits& traitsOf(OpType type)
{
  static const std::array<OpTraits, kOpTypeCount> table = [] {
    std::array<OpTraits, kOpTypeCount> traits{};
    for (std::size_t i = 0; i < traits.size(); ++i)
      traits[i] = opTraits(static_cast<OpType>(i));
    return traits;
  }();
  const auto index = static_cast<std::size_t>(type);
  static const OpTraits none{};
  return index < table.size() ? table[index] : none;
}

Location algoLocation(const Program& program, std::string_view attribute)
{
  Location location;
  location.line = program.line;
  location.element = "algo";
  location.attribute = std::string(attribute);
  return location;
}

Location gpuLocation(const Gpu& gpu, std::string_view attribute)
{
  Location location;
  location.rank = gpu.id;
  location.line = gpu.line;
  location.element = "gpu";
  location.attribute = std::string(attribute);
  return location;
}

Location tbLocation(const Gpu& gpu, const ThreadBlock& tb, std::string_view attribute)
{
  Location location;
  location.rank = gpu.id;
  location.tb = tb.id;
  location.line = tb.line;
  location.element = "tb";
  location.attribute = std::string(attribute);
  return location;
}

Location stepLocation(const Gpu& gpu, const ThreadBlock& tb, int position,
                      std::string_view attribute)
{
  Location location;
  location.rank = gpu.id;
  location.tb = tb.id;
  location.step = position;
  location.line = tb.steps[static_cast<std::size_t>(position)].line;
  location.element = "step";
  location.attribute = std::string(attribute);
  return location;
}

std::string tbName(const Gpu& gpu, const ThreadBlock& tb)
{
  return cat("rank ", gpu.id, " tb ", tb.id);
}

std::string stepName(const Gpu& gpu, const ThreadBlock& tb, int position)
{
  return cat("rank ", gpu.id, " tb ", tb.id, " step ", position, " (",
             opTypeName(tb.steps[static_cast<std::size_t>(position)].type), ")");
}

std::string rangeText(long long first, long long last)
{
  if (first == last)
    return cat(first);
  return cat(first, "..", last);
}

} // namespace cs::passes
