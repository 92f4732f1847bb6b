#include "runbackends.h"

#include "exec/executor.h"

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

/// The panel's short line for a backend that cannot run; the registry's own words (the module
/// path, the loader's or the CUDA runtime's error) are long.
QString shortReason(const BackendInfo& backend)
{
  switch (backend.state) {
  case BackendState::NoModule:
    return tr("GPU module not installed");
  case BackendState::ModuleUnusable:
    return tr("GPU module cannot load");
  case BackendState::NoDevice:
    return tr("no GPU visible");
  case BackendState::Ready:
    break;
  }
  return QString::fromStdString(backend.reason);
}

} // namespace

std::vector<RunBackendChoice> runBackendChoices(int ranks)
{
  std::vector<RunBackendChoice> choices{
      {QString::fromLatin1(kSimulateBackend), tr("Simulate"), true, {}}};
  for (const BackendInfo& backend : executorBackends()) {
    RunBackendChoice choice{
        QString::fromStdString(backend.name), labelOf(backend.name), backend.available, {}};
    if (!backend.available) {
      choice.reason = shortReason(backend);
    } else if (backend.name == "nccl" && backend.devices < ranks) {
      // NCCL runs one rank per GPU.
      choice.available = false;
      choice.reason = tr("NCCL needs %1 GPUs, %2 found").arg(ranks).arg(backend.devices);
    }
    choices.push_back(std::move(choice));
  }
  return choices;
}

} // namespace cs::visualizer
