#include "programedits.h"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace cs::editor {

namespace {

Gpu* findGpu(Program& program, int rank)
{
  for (Gpu& gpu : program.gpus)
    if (gpu.id == rank)
      return &gpu;
  return nullptr;
}

ThreadBlock* findTb(Gpu& gpu, int tb)
{
  for (ThreadBlock& block : gpu.threadblocks)
    if (block.id == tb)
      return &block;
  return nullptr;
}

void renumber(ThreadBlock& tb)
{
  for (std::size_t i = 0; i < tb.steps.size(); ++i)
    tb.steps[i].s = static_cast<int>(i);
}

QString peerText(int rank)
{
  return rank >= 0 ? QStringLiteral("r%1").arg(rank) : QObject::tr("no peer");
}

} // namespace

const Step* stepAt(const Program& program, const InstructionRef& at)
{
  const ThreadBlock* tb = program.threadblock(at.rank, at.tb);
  if (!tb || at.step < 0 || at.step >= static_cast<int>(tb->steps.size()))
    return nullptr;
  return &tb->steps[static_cast<std::size_t>(at.step)];
}

std::optional<Program> withStep(const Program& program, const InstructionRef& at, Step step)
{
  if (!stepAt(program, at))
    return std::nullopt;
  Program edited = program;
  ThreadBlock* tb = findTb(*findGpu(edited, at.rank), at.tb);
  step.s = at.step;
  step.line = tb->steps[static_cast<std::size_t>(at.step)].line;
  tb->steps[static_cast<std::size_t>(at.step)] = step;
  return edited;
}

std::optional<Program> insertNopAfter(const Program& program, const InstructionRef& at)
{
  if (!stepAt(program, at))
    return std::nullopt;
  Program edited = program;
  Gpu& gpu = *findGpu(edited, at.rank);
  ThreadBlock& tb = *findTb(gpu, at.tb);
  Step nop;
  nop.type = OpType::Nop;
  nop.srcBuf = Buffer::Input;
  nop.srcOff = -1;
  nop.dstBuf = Buffer::Output;
  nop.dstOff = -1;
  nop.cnt = 0;
  tb.steps.insert(tb.steps.begin() + at.step + 1, nop);
  renumber(tb);
  // Waiters on a later step of this threadblock must keep waiting for the same instruction.
  for (ThreadBlock& other : gpu.threadblocks)
    for (Step& step : other.steps)
      if (step.depid == at.tb && step.deps > at.step)
        ++step.deps;
  return edited;
}

std::optional<Program> deleteInstruction(const Program& program, const InstructionRef& at)
{
  if (!stepAt(program, at))
    return std::nullopt;
  Program edited = program;
  Gpu& gpu = *findGpu(edited, at.rank);
  ThreadBlock& tb = *findTb(gpu, at.tb);
  tb.steps.erase(tb.steps.begin() + at.step);
  renumber(tb);
  bool someoneWaitsOnPrevious = false;
  for (ThreadBlock& other : gpu.threadblocks) {
    for (Step& step : other.steps) {
      if (step.depid != at.tb)
        continue;
      if (step.deps > at.step) {
        --step.deps;
      } else if (step.deps == at.step) {
        // Waiting for the step before is the closest ordering that still exists.
        if (at.step > 0) {
          step.deps = at.step - 1;
          someoneWaitsOnPrevious = true;
        } else {
          step.depid = -1;
          step.deps = -1;
        }
      }
    }
  }
  if (someoneWaitsOnPrevious)
    tb.steps[static_cast<std::size_t>(at.step - 1)].hasdep = true;
  return edited;
}

std::optional<Program> moveInstruction(const Program& program, const InstructionRef& at, int delta)
{
  const InstructionRef other{at.rank, at.tb, at.step + delta};
  if ((delta != -1 && delta != 1) || !stepAt(program, at) || !stepAt(program, other))
    return std::nullopt;
  Program edited = program;
  Gpu& gpu = *findGpu(edited, at.rank);
  ThreadBlock& tb = *findTb(gpu, at.tb);
  std::swap(tb.steps[static_cast<std::size_t>(at.step)],
            tb.steps[static_cast<std::size_t>(other.step)]);
  renumber(tb);
  for (ThreadBlock& waiter : gpu.threadblocks) {
    for (Step& step : waiter.steps) {
      if (step.depid != at.tb)
        continue;
      if (step.deps == at.step)
        step.deps = other.step;
      else if (step.deps == other.step)
        step.deps = at.step;
    }
  }
  return edited;
}

Step withType(Step step, OpType type)
{
  step.type = type;
  const OpTraits traits = opTraits(type);
  if (traits.readsSrc && step.srcOff < 0)
    step.srcOff = 0;
  if (!traits.readsSrc)
    step.srcOff = -1;
  if (traits.writesDst && step.dstOff < 0)
    step.dstOff = 0;
  if (!traits.writesDst)
    step.dstOff = -1;
  if (type != OpType::Nop && step.cnt < 1)
    step.cnt = 1;
  return step;
}

QString slotText(Buffer buffer, int offset)
{
  if (offset < 0)
    return {};
  return QStringLiteral("%1[%2]").arg(QChar::fromLatin1(bufferLetter(buffer))).arg(offset);
}

std::optional<std::pair<Buffer, int>> parseSlot(const QString& text, Buffer keepBuffer)
{
  const QString trimmed = text.trimmed();
  if (trimmed.isEmpty() || trimmed == QStringLiteral("-") || trimmed == QStringLiteral("–"))
    return std::pair{keepBuffer, -1};
  static const QRegularExpression pattern(QStringLiteral("^([ios])\\s*\\[\\s*(-?\\d+)\\s*\\]$"));
  const QRegularExpressionMatch match = pattern.match(trimmed);
  if (!match.hasMatch())
    return std::nullopt;
  const std::optional<Buffer> buffer = parseBuffer(match.captured(1).toStdString());
  bool ok = false;
  const int offset = match.captured(2).toInt(&ok);
  if (!buffer || !ok || offset < -1)
    return std::nullopt;
  return std::pair{*buffer, offset};
}

QString dependencyText(int depid, int deps)
{
  if (depid < 0)
    return {};
  return QStringLiteral("tb %1 s %2").arg(depid).arg(deps);
}

std::optional<std::pair<int, int>> parseDependency(const QString& text)
{
  const QString trimmed = text.trimmed();
  if (trimmed.isEmpty())
    return std::pair{-1, -1};
  static const QRegularExpression pattern(
      QStringLiteral("^(?:tb)?\\s*(-?\\d+)\\s*(?:s|:|,|\\s)\\s*(-?\\d+)$"));
  const QRegularExpressionMatch match = pattern.match(trimmed);
  if (!match.hasMatch())
    return std::nullopt;
  const int depid = match.captured(1).toInt();
  const int deps = match.captured(2).toInt();
  if (depid < -1 || deps < -1 || (depid < 0) != (deps < 0))
    return std::nullopt;
  return std::pair{depid, deps};
}

QString describeStep(const Step& step, const ThreadBlock& tb)
{
  const QString src = slotText(step.srcBuf, std::max(step.srcOff, 0));
  const QString dst = slotText(step.dstBuf, std::max(step.dstOff, 0));
  QStringList parts;
  switch (step.type) {
  case OpType::Send:
    parts << QObject::tr("sends %1 to %2").arg(src, peerText(tb.send));
    break;
  case OpType::Recv:
    parts << QObject::tr("receives from %1 into %2").arg(peerText(tb.recv), dst);
    break;
  case OpType::RecvCopySend:
    parts << QObject::tr("receives from %1, stores %2, forwards to %3")
                 .arg(peerText(tb.recv), dst, peerText(tb.send));
    break;
  case OpType::RecvReduceSend:
    parts << QObject::tr("receives from %1, adds %2, forwards the sum to %3")
                 .arg(peerText(tb.recv), src, peerText(tb.send));
    break;
  case OpType::RecvReduceCopy:
    parts << QObject::tr("receives from %1, adds %2, stores the sum in %3")
                 .arg(peerText(tb.recv), src, dst);
    break;
  case OpType::RecvReduceCopySend:
    parts << QObject::tr("receives from %1, adds %2, stores the sum in %3, forwards it to %4")
                 .arg(peerText(tb.recv), src, dst, peerText(tb.send));
    break;
  case OpType::Copy:
    parts << QObject::tr("copies %1 to %2").arg(src, dst);
    break;
  case OpType::Reduce:
    parts << QObject::tr("adds %1 into %2").arg(src, dst);
    break;
  case OpType::Nop:
    parts << QObject::tr("does nothing but wait");
    break;
  }
  if (step.type != OpType::Nop && step.cnt != 1)
    parts.back() += QObject::tr(" (%1 chunks)").arg(step.cnt);
  if (step.depid >= 0)
    parts << QObject::tr("first waits for tb %1 to finish step %2").arg(step.depid).arg(step.deps);
  if (step.hasdep)
    parts << QObject::tr("publishes its completion for waiters");
  return QStringLiteral("%1: %2").arg(QString::fromUtf8(opTypeName(step.type)),
                                      parts.join(QStringLiteral("; ")));
}

} // namespace cs::editor
