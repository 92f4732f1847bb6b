#include "runbackends.h"

#include "exec/executor.h"

#if CSTUDIO_HAVE_CUDA
#include "exec/cuda/cudaexecutor.h"
#endif

#include <QCoreApplication>

namespace cs::visualizer {

namespace {

QString tr(const char* text)
{
  return QCoreApplication::translate("cs::visualizer::RunBackends", text);
}

QString labelOf(const std::string& name)
{
  if (name == "cpu")
    return QStringLiteral("CPU");
  if (name == "cuda")
    return QStringLiteral("CUDA");
  if (name == "nccl")
    return QStringLiteral("NCCL");
  return QString::fromStdString(name);
}

/// A built GPU backend still needs GPUs: CUDA one, NCCL one per rank.
void judgeGpus([[maybe_unused]] RunBackendChoice& choice, [[maybe_unused]] int ranks)
{
#if CSTUDIO_HAVE_CUDA
  const std::optional<int> devices = visibleCudaDevices();
  const int count = devices.value_or(0);
  if (count == 0) {
    choice.available = false;
    // The CUDA runtime's own words are long; the panel's line stays short.
    choice.reason = tr("no GPU visible");
  } else if (choice.id == QLatin1String("nccl") && count < ranks) {
    choice.available = false;
    choice.reason = tr("NCCL needs %1 GPUs, %2 found").arg(ranks).arg(count);
  }
#endif
}

} // namespace

std::vector<RunBackendChoice> runBackendChoices(int ranks)
{
  std::vector<RunBackendChoice> choices{
      {QString::fromLatin1(kSimulateBackend), tr("Simulate"), true, {}}};
  for (const BackendInfo& backend : executorBackends()) {
    RunBackendChoice choice{QString::fromStdString(backend.name), labelOf(backend.name),
                            backend.available, QString::fromStdString(backend.reason)};
    if (!backend.available && backend.name == "cuda")
      choice.reason = tr("not built with CUDA");
    else if (!backend.available && backend.name == "nccl")
      choice.reason = tr("not built with NCCL");
    if (choice.available && backend.name != "cpu")
      judgeGpus(choice, ranks);
    choices.push_back(std::move(choice));
  }
  return choices;
}

} // namespace cs::visualizer
