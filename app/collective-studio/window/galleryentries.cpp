#include "galleryentries.h"

#include "check/topologyfit.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <bit>

namespace cs::editor {

namespace {

QString toQString(std::string_view text)
{
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

bool isPowerOfTwo(int n)
{
  return n > 0 && (n & (n - 1)) == 0;
}

/// The first three members of a rule and an ellipsis: "2, 4, 8, …".
QString firstFew(const std::vector<int>& ranks)
{
  QStringList shown;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, ranks.size()); ++i)
    shown << QString::number(ranks[i]);
  return shown.join(QStringLiteral(", ")) + (ranks.size() > 3 ? QStringLiteral(", …") : QString());
}

/// Whether `ranks` is exactly the multiples of `step` from ranks.front() up to `limit`.
bool isMultiplesOf(const std::vector<int>& ranks, int step, int limit)
{
  if (ranks.front() % step != 0)
    return false;
  std::size_t i = 0;
  for (int n = ranks.front(); n <= limit; n += step, ++i) {
    if (i >= ranks.size() || ranks[i] != n)
      return false;
  }
  return i == ranks.size();
}

} // namespace

std::vector<int> supportedRanks(const AlgorithmInfo& info, int limit)
{
  std::vector<int> ranks;
  for (int n = 2; n <= limit; ++n) {
    if (!info.unsupported({.ranks = n}))
      ranks.push_back(n);
  }
  return ranks;
}

QString describeRanks(const std::vector<int>& ranks, int limit)
{
  if (ranks.empty())
    return QObject::tr("no rank count up to %1").arg(limit);
  const int from = ranks.front();
  if (isMultiplesOf(ranks, 1, limit))
    return QObject::tr("any n ≥ %1").arg(from);
  if (std::ranges::all_of(ranks, isPowerOfTwo) &&
      ranks.size() == static_cast<std::size_t>(std::bit_width(static_cast<unsigned>(limit)) -
                                               std::bit_width(static_cast<unsigned>(from)) + 1))
    return QObject::tr("powers of two: %1").arg(firstFew(ranks));
  for (int step = 2; step <= limit / 2; ++step) {
    if (isMultiplesOf(ranks, step, limit))
      return QObject::tr("multiples of %1: %2").arg(step).arg(firstFew(ranks));
  }
  return QObject::tr("n in %1").arg(firstFew(ranks));
}

QString topologyMisfit(const QString& key, int ranks, const Topology& topology)
{
  const GenerateResult generated = generateAlgorithm(key.toStdString(), {.ranks = ranks});
  if (!generated.schedule)
    return {};
  Diagnostics diagnostics;
  checkTopologyFit(topology, ranks, scheduleExchanges(*generated.schedule), diagnostics);
  for (const Diagnostic& diagnostic : diagnostics.items()) {
    if (diagnostic.severity == Severity::Error)
      return QString::fromStdString(diagnostic.message);
  }
  return {};
}

std::vector<GalleryEntry> galleryEntries()
{
  std::vector<GalleryEntry> entries;
  for (const AlgorithmInfo& info : algorithmCatalog()) {
    GalleryEntry entry{.key = toQString(info.key),
                       .title = toQString(info.title),
                       .collective = toQString(collectiveTitle(info.collective)),
                       .summary = toQString(info.summary),
                       .costFormula = toQString(info.costFormula),
                       .allowedRanks = {}};
    const std::vector<int> ranks = supportedRanks(info);
    entry.allowedRanks = describeRanks(ranks);
    if (!ranks.empty()) {
      entry.smallestRanks = ranks.front();
      const auto atLeastFour = std::ranges::lower_bound(ranks, 4);
      entry.suggestedRanks = atLeastFour != ranks.end() ? *atLeastFour : ranks.back();
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

} // namespace cs::editor
