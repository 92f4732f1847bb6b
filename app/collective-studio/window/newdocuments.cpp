#include "newdocuments.h"

#include "model/topologypresets.h"

#include <QObject>

#include <cmath>

namespace cs::editor {

std::vector<Collective> newDocumentCollectives()
{
  return {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter,
          Collective::AllToAll,  Collective::Broadcast, Collective::Reduce,
          Collective::Custom};
}

DocumentState emptyDocumentState(const EmptyDocumentOptions& options)
{
  const int ranks = std::max(1, options.ranks);
  const int share = std::max(1, options.chunksPerRank);
  const int whole = share * ranks;
  RankBuffers buffers{.input = whole, .output = whole, .scratch = 0};
  // The small side of the gathering and scattering collectives holds one rank's share.
  if (options.collective == Collective::AllGather)
    buffers.input = share;
  if (options.collective == Collective::ReduceScatter)
    buffers.output = share;

  DocumentState state;
  Schedule& schedule = state.design.schedule;
  schedule.name = "untitled";
  schedule.collective = options.collective;
  schedule.ranks = ranks;
  schedule.setUniformBuffers(buffers);
  schedule.inplace = options.inPlace;
  schedule.outofplace = !options.inPlace;
  if (options.collective == Collective::Broadcast || options.collective == Collective::Reduce)
    schedule.root = 0;
  return state;
}

std::optional<DocumentState> algorithmDocumentState(const QString& key,
                                                    const GeneratorOptions& options,
                                                    const QString& presetName, QString* error)
{
  const auto fail = [error](const QString& why) -> std::optional<DocumentState> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  GenerateResult generated = generateAlgorithm(key.toStdString(), options);
  if (!generated.schedule) {
    return fail(generated.diagnostics.empty()
                    ? QObject::tr("%1 cannot be generated").arg(key)
                    : QString::fromStdString(generated.diagnostics.front().message));
  }
  DocumentState state;
  state.design.schedule = std::move(*generated.schedule);
  state.design.schedule.name = key.toStdString() + "-" + std::to_string(options.ranks);
  if (const AlgorithmInfo* info = findAlgorithm(key.toStdString()))
    state.design.notes = std::string(info->explanation);
  if (!presetName.isEmpty()) {
    std::string reason;
    state.design.topology = makePresetTopology(presetName.toStdString(), {}, &reason);
    if (!state.design.topology)
      return fail(QString::fromStdString(reason));
  }
  return state;
}

QStringList presetsForRanks(int ranks)
{
  QStringList names;
  if (ranks < 2)
    return names;
  names << QStringLiteral("ring-%1").arg(ranks) << QStringLiteral("fully-connected-%1").arg(ranks);
  // The most square factorisation with both sides at least 2.
  for (int rows = static_cast<int>(std::sqrt(ranks)); rows >= 2; --rows) {
    if (ranks % rows == 0) {
      names << QStringLiteral("torus-%1x%2").arg(rows).arg(ranks / rows);
      break;
    }
  }
  for (const PresetInfo& preset : topologyPresets()) {
    if (preset.name.find('N') != std::string::npos || preset.name.find("RxC") != std::string::npos)
      continue;
    const std::optional<Topology> machine = makePresetTopology(preset.name);
    if (machine && machine->rankCount() == ranks)
      names << QString::fromStdString(preset.name);
  }
  return names;
}

} // namespace cs::editor
