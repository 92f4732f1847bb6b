#pragma once

// Cancelling a run far too long to finish (16 MiB, 100,000 iterations, an hour's timeout) once
// its first launch is done, as the app's Cancel does: what the cancel tests of every executor
// (tst_execcancel, and on GPU machines tst_gpuexecutor and tst_ncclexecutor) check.

#include "exec/executor.h"
#include "support/cancelling.h"

#include <QTest>

#include <algorithm>
#include <atomic>

namespace cs::test {

/// The options of the endless run, with its cancel flag and launch counter.
inline ExecOptions endlessRun(const std::atomic<bool>* cancel, std::atomic<int>* launches)
{
  ExecOptions options;
  options.bytes = 16 << 20;
  options.iterations = 100000;
  options.timeoutSeconds = 3600;
  options.trace = true;
  options.cancel = cancel;
  options.launchesDone = launches;
  return options;
}

/// Whether `result` is a cancelled run: Failed, `cancelled`, an exec.cancelled error, and
/// nothing of a finished or hung run (trace, verification, blocked positions).
inline bool isCancelled(const ExecResult& result)
{
  const bool said =
      std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                  [](const Diagnostic& diagnostic) { return diagnostic.code == "exec.cancelled"; });
  return said && result.cancelled && result.status == ExecStatus::Failed &&
         result.trace.events.empty() && !result.trace.verification && result.blocked.empty();
}

/// Runs `program` endlessly on `executor`, cancels it after its first launch and checks that it
/// returned as a cancelled run that started no launch after the one in flight at the cancel
/// (counted, not timed: the waits only bound a run that never stops).
inline void checkCancelStops(Executor& executor, const Program& program)
{
  std::atomic<bool> cancel{false};
  std::atomic<int> launches{0};
  int atCancel = 0;
  const ExecOptions options = endlessRun(&cancel, &launches);
  const auto cancelled =
      cancelWhileRunning([&] { return executor.run(program, options); },
                         [&] {
                           atCancel = launches.load();
                           return atCancel >= 1;
                         },
                         cancel, std::chrono::seconds(60), std::chrono::seconds(30));
  QVERIFY2(cancelled, "the run did not start, or did not stop after the cancel");
  QVERIFY(isCancelled(cancelled->result));
  QVERIFY2(
      launches.load() <= atCancel + 1,
      qPrintable(QString("%1 launches, cancelled after %2").arg(launches.load()).arg(atCancel)));
  QVERIFY(launches.load() < options.iterations);
}

} // namespace cs::test
