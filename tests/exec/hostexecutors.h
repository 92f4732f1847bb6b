#pragma once

// The executors that run on every machine, for tests that hold on all of them: the CPU reference
// and the GPU executor's host emulation (its block interpreter on host threads).

#include "exec/executor.h"
#include "exec/gpu/emulatedexecutor.h"

#include <QString>
#include <QTest>

#include <memory>

namespace cs::test {

/// "cpu" or "emulation".
inline std::unique_ptr<Executor> hostExecutor(const QString& name)
{
  if (name == QLatin1String("emulation"))
    return std::make_unique<gpu::EmulatedGpuExecutor>();
  return makeExecutor(name.toStdString());
}

/// Rows "cpu" and "gpu emulation" of a column "backend" naming hostExecutor()'s choice.
inline void addHostExecutorRows()
{
  QTest::addColumn<QString>("backend");
  QTest::newRow("cpu") << QString("cpu");
  QTest::newRow("gpu emulation") << QString("emulation");
}

} // namespace cs::test
