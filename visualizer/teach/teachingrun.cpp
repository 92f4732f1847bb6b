#include "teachingrun.h"

#include "document/document.h"
#include "export/animationsource.h"

namespace cs::visualizer {

TeachingRun simulateForTeaching(const editor::Document& document, std::int64_t bytes)
{
  TeachingRun run;
  // The export's source is the same run: the program simulated and indexed by Schedule step.
  // Teaching falls back to a ring (the picture a class knows) where the export uses a full mesh.
  QString preset;
  run.topologyName = QObject::tr("the document's topology");
  if (!document.topology() && document.shownProgram()) {
    preset = QStringLiteral("ring-%1").arg(document.shownProgram()->ngpus);
    run.topologyName = preset;
  }
  AnimationSourceResult made = makeAnimationSource(document, preset, bytes);
  if (!made.source) {
    run.error = made.error;
    return run;
  }
  for (const StepSpan& span : made.source->steps)
    run.stepEnds.push_back(span.endUs);
  run.session = std::move(made.source->session);
  return run;
}

} // namespace cs::visualizer
