#include "newdocuments.h"

#include "style/textformat.h"

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

namespace {

/// Whether the output is the input itself (same size) when the call is in place; the gathering
/// and scattering collectives keep both buffers, of different sizes.
bool outputAliasesInput(Collective collective)
{
  return collective != Collective::AllGather && collective != Collective::ReduceScatter &&
         collective != Collective::AllToAll;
}

/// Whether the input is split into one block per rank.
bool inputSplitAmongRanks(Collective collective)
{
  return collective == Collective::ReduceScatter || collective == Collective::AllToAll;
}

} // namespace

RankBuffers emptyDocumentBuffers(const EmptyDocumentOptions& options)
{
  const int ranks = std::max(1, options.ranks);
  const int input = std::max(1, options.inputChunks);
  RankBuffers buffers{.input = input, .output = input, .scratch = 0};
  if (options.collective == Collective::AllGather)
    buffers.output = input * ranks;
  if (options.collective == Collective::ReduceScatter)
    buffers.output = std::max(1, input / ranks);
  if (options.inPlace && outputAliasesInput(options.collective))
    buffers.output = 0;
  return buffers;
}

QString emptyDocumentProblem(const EmptyDocumentOptions& options)
{
  const int ranks = std::max(1, options.ranks);
  if (inputSplitAmongRanks(options.collective) && options.inputChunks % ranks != 0) {
    const std::string_view title = collectiveTitle(options.collective);
    return QObject::tr("%1 splits each input among the %2 ranks: choose a multiple of %2 input "
                       "chunks per rank.")
        .arg(QString::fromUtf8(title.data(), static_cast<qsizetype>(title.size())))
        .arg(ranks);
  }
  return {};
}

QString describeEmptyDocument(const EmptyDocumentOptions& options)
{
  const RankBuffers buffers = emptyDocumentBuffers(options);
  const int ranks = std::max(1, options.ranks);
  const int rows = buffers.input + buffers.output + buffers.scratch;
  const auto chunks = [](int count) {
    return countText(count, QObject::tr("chunk"), QObject::tr("chunks"));
  };
  const QString output = buffers.output == 0 ? QObject::tr("o = i (in place)")
                                             : QStringLiteral("o ") + chunks(buffers.output);
  return QObject::tr("Per rank: i %1, %2, s %3 — %4 timeline rows (%5 ranks × %6)")
      .arg(chunks(buffers.input), output)
      .arg(buffers.scratch)
      .arg(rows * ranks)
      .arg(ranks)
      .arg(rows);
}

DocumentState emptyDocumentState(const EmptyDocumentOptions& options)
{
  const int ranks = std::max(1, options.ranks);
  const RankBuffers buffers = emptyDocumentBuffers(options);

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
  state.design.schedule = std::move(*generated.schedule); // named as the library names it
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
