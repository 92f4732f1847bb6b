// `cstudio --version`: the version and the execution backends, from the registry that `run` and
// the About dialog use (engine/exec/backends.cpp).

#include "commands.h"

#include "exec/executor.h"

namespace cs::cli {

std::string versionText()
{
  std::string text = std::string("cstudio ") + CSTUDIO_VERSION + "\nbackends:";
  for (const BackendInfo& backend : executorBackends()) {
    text += "\n  " + backend.name + ": ";
    if (!backend.available) {
      text += "unavailable: " + backend.reason;
    } else if (backend.module.empty()) {
      text += "available (built in)";
    } else {
      text += "available, " + std::to_string(backend.devices) + " GPU" +
              (backend.devices == 1 ? "" : "s") + " (" + backend.module + ")";
    }
  }
  return text;
}

} // namespace cs::cli
