#include "passes_p.h"

#include "../model/buffergeometry.h"
#include "staticcheckutil_p.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <tuple>

namespace cs::passes {

namespace {

// Missing members of a sorted list of ids within [0, end): "3", "3, 5..7", shortened after a
// few ranges. Linear in the list, whatever `end` is (ids and counts may be huge when fuzzed).
struct MissingIds {
  long long count = 0;
  std::string text;
};

MissingIds missingIds(const std::vector<int>& sortedIds, long long end)
{
  constexpr int kMaxRanges = 8;
  MissingIds missing;
  int ranges = 0;
  long long next = 0;
  auto gap = [&](long long first, long long last) {
    if (first > last)
      return;
    missing.count += last - first + 1;
    if (ranges < kMaxRanges) {
      if (!missing.text.empty())
        missing.text += ", ";
      missing.text += rangeText(first, last);
    } else if (ranges == kMaxRanges) {
      missing.text += ", …";
    }
    ++ranges;
  };
  for (const int id : sortedIds) {
    if (id < next || id >= end)
      continue;
    gap(next, static_cast<long long>(id) - 1);
    next = static_cast<long long>(id) + 1;
  }
  gap(next, end - 1);
  return missing;
}

// structure.nchannels and structure.nchunksperloop.
void checkAlgo(const Program& program, Reporter& report)
{
  if (program.nchannels < 1) {
    report.error("structure.nchannels", algoLocation(program, "nchannels"), [&] {
      return cat("nchannels is ", program.nchannels,
                 "; an algorithm needs at least one channel (every tb's chan must be below it)");
    });
  }
  if (program.nchunksperloop < 1) {
    report.error("structure.nchunksperloop", algoLocation(program, "nchunksperloop"), [&] {
      return cat("nchunksperloop is ", program.nchunksperloop,
                 "; the runtime splits the buffer into nchunksperloop chunks, so it must be at "
                 "least 1 (msccl-format §4.1)");
    });
    return;
  }
  const int mult = sizeMultiplier(program.collective, program.ngpus);
  if (mult > 1 && program.nchunksperloop % mult != 0) {
    report.error("structure.nchunksperloop", algoLocation(program, "nchunksperloop"), [&] {
      return cat("nchunksperloop is ", program.nchunksperloop, " but the ",
                 collectiveTitle(program.collective), " collective on ngpus=", program.ngpus,
                 " ranks needs a multiple of ", program.ngpus,
                 ": every rank's share is nchunksperloop / ngpus chunks (msccl-format §4.1)");
    });
  }
}

// structure.ngpus: one <gpu> per rank, ids exactly 0..ngpus-1.
void checkRanks(const Program& program, Reporter& report)
{
  const long long count = static_cast<long long>(program.gpus.size());
  if (program.ngpus < 1) {
    report.error("structure.ngpus", algoLocation(program, "ngpus"), [&] {
      return cat("ngpus is ", program.ngpus, "; an algorithm needs at least one rank");
    });
  } else if (program.ngpus != count) {
    report.error("structure.ngpus", algoLocation(program, "ngpus"), [&] {
      return cat("ngpus is ", program.ngpus, " but the file has ", count, " <gpu> element",
                 count == 1 ? "" : "s",
                 "; the runtime expects exactly one <gpu> per rank, ids 0..ngpus-1");
    });
  }

  std::vector<std::pair<int, int>> ids; // (id, index)
  ids.reserve(program.gpus.size());
  for (std::size_t i = 0; i < program.gpus.size(); ++i)
    ids.emplace_back(program.gpus[i].id, static_cast<int>(i));
  std::sort(ids.begin(), ids.end());

  for (std::size_t k = 0; k < ids.size(); ++k) {
    const Gpu& gpu = program.gpus[static_cast<std::size_t>(ids[k].second)];
    if (k > 0 && ids[k - 1].first == gpu.id) {
      const Gpu& first = program.gpus[static_cast<std::size_t>(ids[k - 1].second)];
      if (Diagnostic* d = report.error("structure.ngpus", gpuLocation(gpu, "id"), [&] {
            return cat("gpu id ", gpu.id,
                       " appears more than once; every rank must have exactly one <gpu>");
          }))
        d->related.push_back(gpuLocation(first, "id"));
      continue;
    }
    if (program.ngpus >= 1 && (gpu.id < 0 || gpu.id >= program.ngpus)) {
      report.error("structure.ngpus", gpuLocation(gpu, "id"), [&] {
        return cat("gpu id ", gpu.id, " is outside 0..", program.ngpus - 1,
                   " (ngpus=", program.ngpus, ")");
      });
    }
  }

  if (program.ngpus >= 1) {
    std::vector<int> sorted;
    sorted.reserve(ids.size());
    for (const auto& [id, index] : ids)
      sorted.push_back(id);
    const MissingIds missing = missingIds(sorted, program.ngpus);
    if (missing.count > 0) {
      report.error("structure.ngpus", algoLocation(program, "ngpus"), [&] {
        return cat("no <gpu> for rank", missing.count == 1 ? " " : "s ", missing.text,
                   "; with ngpus=", program.ngpus, " the ids must be exactly 0..",
                   program.ngpus - 1);
      });
    }
  }
}

// One past the last chunk of `buffer` that a step of `gpu` reads or writes.
long long addressedChunks(const Gpu& gpu, Buffer buffer)
{
  long long end = 0;
  for (const ThreadBlock& tb : gpu.threadblocks) {
    for (const Step& step : tb.steps) {
      const OpTraits traits = traitsOf(step.type);
      const long long count = std::max(step.cnt, 1);
      if (traits.readsSrc && step.srcBuf == buffer)
        end = std::max(end, step.srcOff + count);
      if ((traits.writesDst || traits.readsDst) && step.dstBuf == buffer)
        end = std::max(end, step.dstOff + count);
    }
  }
  return end;
}

// structure.buffer-capacity: chunk counts that address more than the user's buffer holds.
void checkCapacity(const Program& program, const Gpu& gpu, Reporter& report)
{
  static constexpr std::pair<Buffer, std::string_view> kBuffers[] = {
      {Buffer::Input, "i_chunks"}, {Buffer::Output, "o_chunks"}, {Buffer::Scratch, "s_chunks"}};
  // Plain variables rather than a structured binding: clang 14 (the fuzz build) cannot capture
  // bindings in the lambdas below.
  for (const auto& entry : kBuffers) {
    const Buffer buffer = entry.first;
    const std::string_view attribute = entry.second;
    const int chunks = gpu.chunks(buffer);
    if (chunks < 0) {
      report.error("structure.buffer-capacity", gpuLocation(gpu, attribute), [&] {
        return cat("rank ", gpu.id, " has ", attribute, "=", chunks,
                   "; a chunk count cannot be negative");
      });
      continue;
    }
    if (buffer == Buffer::Scratch || program.nchunksperloop < 1)
      continue;
    const std::optional<int> capacity = userBufferChunks(program, buffer);
    if (capacity && chunks > *capacity && addressedChunks(gpu, buffer) <= *capacity) {
      // The runtime bounds-checks offsets against i_chunks/o_chunks only; headroom no step
      // uses is never touched.
      report.warning("structure.buffer-capacity", gpuLocation(gpu, attribute), [&] {
        return cat("rank ", gpu.id, " has ", attribute, "=", chunks, " but the ",
                   bufferName(buffer), " buffer of the ", collectiveTitle(program.collective),
                   " collective holds only ", *capacity, " chunk", *capacity == 1 ? "" : "s",
                   "; no step addresses past chunk ", *capacity - 1,
                   ", so the executor runtimes load and run it as if ", attribute, "=", *capacity,
                   " (the classic runtime's i_chunks/o_chunks rule is checked separately)");
      });
    } else if (capacity && chunks > *capacity) {
      report.error("structure.buffer-capacity", gpuLocation(gpu, attribute), [&] {
        return cat("rank ", gpu.id, " has ", attribute, "=", chunks, " but the ",
                   bufferName(buffer), " buffer of the ", collectiveTitle(program.collective),
                   " collective", " holds only ", *capacity, " chunk", *capacity == 1 ? "" : "s",
                   " (nchunksperloop=", program.nchunksperloop, ", ngpus=", program.ngpus,
                   "); the runtime would address memory past the user's buffer");
      });
    }
  }
}

// structure.tb-ids: the runtime stores threadblocks by id and requires 0..n-1 without gaps
// ("threadblock %d is missing", msccl-format §2.3).
void checkThreadblockIds(const Gpu& gpu, Reporter& report)
{
  std::vector<std::pair<int, int>> ids; // (id, index)
  ids.reserve(gpu.threadblocks.size());
  for (std::size_t i = 0; i < gpu.threadblocks.size(); ++i)
    ids.emplace_back(gpu.threadblocks[i].id, static_cast<int>(i));
  std::sort(ids.begin(), ids.end());
  if (ids.empty())
    return;

  for (std::size_t k = 0; k < ids.size(); ++k) {
    const ThreadBlock& tb = gpu.threadblocks[static_cast<std::size_t>(ids[k].second)];
    if (tb.id < 0) {
      report.error("structure.tb-ids", tbLocation(gpu, tb, "id"), [&] {
        return cat("rank ", gpu.id, " has a threadblock with id ", tb.id,
                   "; threadblock ids must be 0..n-1");
      });
    } else if (k > 0 && ids[k - 1].first == tb.id) {
      const ThreadBlock& first = gpu.threadblocks[static_cast<std::size_t>(ids[k - 1].second)];
      if (Diagnostic* d = report.error("structure.tb-ids", tbLocation(gpu, tb, "id"), [&] {
            return cat("rank ", gpu.id, " has more than one threadblock with id ", tb.id,
                       "; ids must be unique");
          }))
        d->related.push_back(tbLocation(gpu, first, "id"));
    }
  }

  const int maxId = ids.back().first;
  if (maxId < 0)
    return;
  std::vector<int> sorted;
  sorted.reserve(ids.size());
  for (const auto& [id, index] : ids)
    sorted.push_back(id);
  const MissingIds missing = missingIds(sorted, static_cast<long long>(maxId) + 1);
  if (missing.count > 0) {
    report.error("structure.tb-ids", gpuLocation(gpu), [&] {
      return cat("threadblock", missing.count == 1 ? " " : "s ", missing.text,
                 missing.count == 1 ? " is" : " are", " missing on rank ", gpu.id,
                 ": ids must be dense 0..", maxId,
                 " because the runtime launches one CUDA "
                 "block per id and rejects the file otherwise");
    });
  }
}

// structure.peer and structure.channel for one threadblock.
void checkThreadblockHeader(const Program& program, const Gpu& gpu, const ThreadBlock& tb,
                            Reporter& report)
{
  auto peer = [&](int value, std::string_view attribute) {
    if (value < -1 || value >= program.ngpus) {
      report.error("structure.peer", tbLocation(gpu, tb, attribute), [&] {
        return cat(tbName(gpu, tb), " has ", attribute, "=", value, ", outside -1..",
                   static_cast<long long>(program.ngpus) - 1, " (ngpus=", program.ngpus,
                   "; -1 means no peer)");
      });
    } else if (value == gpu.id) {
      report.error("structure.peer", tbLocation(gpu, tb, attribute), [&] {
        return cat(tbName(gpu, tb), " has ", attribute, "=", value,
                   ", its own rank; peers must be other ranks (use cpy or re for local "
                   "work)");
      });
    }
  };
  peer(tb.send, "send");
  peer(tb.recv, "recv");
  if (tb.chan < 0 || tb.chan >= program.nchannels) {
    report.error("structure.channel", tbLocation(gpu, tb, "chan"), [&] {
      return cat(tbName(gpu, tb), " uses chan=", tb.chan, " but nchannels=", program.nchannels,
                 "; channels must be 0..", static_cast<long long>(program.nchannels) - 1);
    });
  }
}

// structure.duplicate-connection: one FIFO per (channel, peer, direction) on a rank
// (msccl-format §4.5, pitfall P8).
void checkConnections(const Gpu& gpu, Reporter& report)
{
  std::vector<std::tuple<int, int, int>> ends; // (chan, peer, tb index)
  auto scan = [&](bool sending) {
    ends.clear();
    for (std::size_t i = 0; i < gpu.threadblocks.size(); ++i) {
      const ThreadBlock& tb = gpu.threadblocks[i];
      const int peer = sending ? tb.send : tb.recv;
      if (peer >= 0)
        ends.emplace_back(tb.chan, peer, static_cast<int>(i));
    }
    std::sort(ends.begin(), ends.end());
    for (std::size_t k = 1; k < ends.size(); ++k) {
      const int chan = std::get<0>(ends[k]);
      const int peer = std::get<1>(ends[k]);
      const int index = std::get<2>(ends[k]);
      const int prevChan = std::get<0>(ends[k - 1]);
      const int prevPeer = std::get<1>(ends[k - 1]);
      const int prevIndex = std::get<2>(ends[k - 1]);
      if (chan != prevChan || peer != prevPeer)
        continue;
      const ThreadBlock& tb = gpu.threadblocks[static_cast<std::size_t>(index)];
      const ThreadBlock& other = gpu.threadblocks[static_cast<std::size_t>(prevIndex)];
      const std::string_view attribute = sending ? "send" : "recv";
      if (Diagnostic* d =
              report.error("structure.duplicate-connection", tbLocation(gpu, tb, attribute), [&] {
                return cat("rank ", gpu.id, " tb ", tb.id, " and tb ", other.id, " both ",
                           sending ? "send to" : "receive from", " rank ", peer, " on channel ",
                           chan, "; each (channel, peer) connection has one ",
                           sending ? "send" : "receive",
                           " FIFO and two threadblocks driving it corrupt or deadlock it "
                           "(msccl-format §4.5, pitfall P8)");
              }))
        d->related.push_back(tbLocation(gpu, other, attribute));
    }
  };
  scan(true);
  scan(false);
}

// Which operands the runtime's parser range-checks (-1 <= off < X_chunks), msccl-format §3.
bool parserChecksSrc(OpType type)
{
  return type == OpType::Send || type == OpType::RecvReduceSend ||
         type == OpType::RecvReduceCopySend || type == OpType::Copy || type == OpType::Reduce;
}

bool parserChecksDst(OpType type)
{
  return type == OpType::Recv || type == OpType::RecvCopySend ||
         type == OpType::RecvReduceCopySend || type == OpType::Copy || type == OpType::Reduce;
}

// structure.offset for one operand the instruction really touches.
void checkOperand(const Gpu& gpu, const ThreadBlock& tb, int position, bool source,
                  Reporter& report)
{
  const Step& step = tb.steps[static_cast<std::size_t>(position)];
  const Buffer buffer = source ? step.srcBuf : step.dstBuf;
  const long long offset = source ? step.srcOff : step.dstOff;
  const long long count = std::max(step.cnt, 1);
  const long long chunks = gpu.chunks(buffer);
  if (offset >= 0 && offset + count <= chunks)
    return;

  const OpTraits traits = traitsOf(step.type);
  const bool parserChecks = source ? parserChecksSrc(step.type) : parserChecksDst(step.type);
  const std::string_view access = source            ? "reads"
                                  : traits.readsDst ? "reads and writes"
                                                    : "writes";
  const std::string_view verb = source || traits.readsDst ? "read" : "write";
  const std::string_view counter = buffer == Buffer::Input    ? "i_chunks"
                                   : buffer == Buffer::Output ? "o_chunks"
                                                              : "s_chunks";
  report.error(
      "structure.offset", stepLocation(gpu, tb, position, source ? "srcoff" : "dstoff"), [&] {
        std::string consequence;
        if (offset < -1 || (offset >= chunks && parserChecks)) {
          consequence = "the runtime rejects the file";
        } else if (offset < 0) {
          consequence = cat("the runtime's parser accepts -1 but the step would ", verb,
                            " before the buffer");
        } else if (offset >= chunks) {
          consequence = cat("the runtime does not check this operand of ", opTypeName(step.type),
                            " and would ", verb, " past the buffer");
        } else {
          consequence = cat("the runtime checks only the offset, never off+cnt, and "
                            "would ",
                            verb, " past the buffer");
        }
        return cat(stepName(gpu, tb, position), " ", access, " ", bufferLetter(buffer), "[", offset,
                   "..", offset + count, ") but rank ", gpu.id, " has ", counter, "=", chunks,
                   " (valid chunks ", chunks > 0 ? rangeText(0, chunks - 1) : std::string("none"),
                   "); ", consequence, " (msccl-format §3)");
      });
}

bool fusesWith(const Step& previous, const Step& step)
{
  // msccl-format §3 "Fused local reductions".
  return previous.type == OpType::Reduce && step.type == OpType::Reduce &&
         step.dstBuf == previous.dstBuf && step.dstOff == previous.dstOff &&
         step.srcBuf == previous.srcBuf && !step.hasDependency() && !previous.hasdep;
}

// The runtime reads `s` only to refuse it outside 0..MSCCL_MAX_NUM_STEPS-1 ("too many steps are
// requested", "step must be positive"); it runs steps in document order, so a permuted or
// repeated s loads and only misleads the reader of the file.
void checkStepNumber(const Dialect& dialect, const Gpu& gpu, const ThreadBlock& tb, int position,
                     Reporter& report)
{
  const Step& step = tb.steps[static_cast<std::size_t>(position)];
  if (step.s < 0 || step.s >= dialect.maxStepsPerThreadblock) {
    report.error("structure.step-position", stepLocation(gpu, tb, position, "s"), [&] {
      return cat(stepName(gpu, tb, position), " has s=", step.s, "; ", dialect.title,
                 " refuses s outside 0..", dialect.maxStepsPerThreadblock - 1,
                 " (MSCCL_MAX_NUM_STEPS, msccl-format §2.4)");
    });
  } else if (step.s != position) {
    report.warning("structure.step-position", stepLocation(gpu, tb, position, "s"), [&] {
      return cat(stepName(gpu, tb, position), " has s=", step.s, " but is at position ", position,
                 ": the runtime loads it, runs steps in document order and never reorders by s, "
                 "so it treats this step as step ",
                 position,
                 " (what deps on other threadblocks and its published progress refer to, "
                 "msccl-format §2.4)");
    });
  }
}

void checkSteps(const Dialect& dialect, const Gpu& gpu, const ThreadBlock& tb, Reporter& report)
{
  int chainHead = -1;
  int chainLength = 0;
  for (int position = 0; position < static_cast<int>(tb.steps.size()); ++position) {
    const Step& step = tb.steps[static_cast<std::size_t>(position)];
    checkStepNumber(dialect, gpu, tb, position, report);
    const OpTraits traits = traitsOf(step.type);
    if (traits.sends && tb.send < 0) {
      report.error("structure.no-peer", stepLocation(gpu, tb, position, "type"), [&] {
        return cat(stepName(gpu, tb, position), " sends, but ", tbName(gpu, tb),
                   " has send=-1; a threadblock can only send to its send peer");
      });
    }
    if (traits.receives && tb.recv < 0) {
      report.error("structure.no-peer", stepLocation(gpu, tb, position, "type"), [&] {
        return cat(stepName(gpu, tb, position), " receives, but ", tbName(gpu, tb),
                   " has recv=-1; a threadblock can only receive from its recv peer");
      });
    }

    if (step.type != OpType::Nop) {
      if (step.cnt == 0) {
        // The runtime checks only `count < 0 || count >= MSCCL_MAX_COUNT`.
        report.warning("structure.count", stepLocation(gpu, tb, position, "cnt"), [&] {
          return cat(stepName(gpu, tb, position), " is a ", opTypeName(step.type),
                     " with cnt=0: the runtimes load it (they check only 0 <= cnt < ",
                     dialect.maxCount + 1, ") and the instruction moves no data");
        });
      } else if (step.cnt < 0 || step.cnt > dialect.maxCount) {
        report.error("structure.count", stepLocation(gpu, tb, position, "cnt"), [&] {
          return cat(stepName(gpu, tb, position), " has cnt=", step.cnt,
                     "; an instruction moves 1..", dialect.maxCount,
                     " chunks (MSCCL_MAX_COUNT=", dialect.maxCount + 1, ", msccl-format §2.4)");
        });
      }
      if (traits.readsSrc)
        checkOperand(gpu, tb, position, true, report);
      if (traits.writesDst || traits.readsDst)
        checkOperand(gpu, tb, position, false, report);
    } else if (step.cnt < 0 || step.cnt > dialect.maxCount) {
      report.error("structure.count", stepLocation(gpu, tb, position, "cnt"), [&] {
        return cat(stepName(gpu, tb, position), " has cnt=", step.cnt,
                   "; the runtime's parser requires 0..", dialect.maxCount,
                   " even on a nop (write 0)");
      });
    }

    // Fused `re` chains: the runtime applies the last step's cnt to every source.
    if (chainHead >= 0 && chainLength < dialect.maxReduceFusion &&
        fusesWith(tb.steps[static_cast<std::size_t>(position - 1)], step)) {
      ++chainLength;
      const Step& previous = tb.steps[static_cast<std::size_t>(position - 1)];
      if (step.cnt != previous.cnt) {
        if (Diagnostic* d = report.warning(
                "structure.reduce-fusion", stepLocation(gpu, tb, position, "cnt"), [&] {
                  return cat(stepName(gpu, tb, position), " has cnt=", step.cnt,
                             " but the runtime fuses it with step ", position - 1,
                             " (cnt=", previous.cnt, ") into one reduction into ",
                             bufferLetter(step.dstBuf), "[", step.dstOff,
                             "] (same destination and source buffer, no dependency in "
                             "between) and uses the last step's cnt for all of them; give "
                             "the fused steps equal cnt or separate them (msccl-format §3)");
                }))
          d->related.push_back(stepLocation(gpu, tb, chainHead));
      }
    } else if (step.type == OpType::Reduce) {
      chainHead = position;
      chainLength = 1;
    } else {
      chainHead = -1;
      chainLength = 0;
    }
  }
}

} // namespace

void checkStructure(const Program& program, const Dialect& dialect, Diagnostics& out)
{
  Reporter report(out);
  checkAlgo(program, report);
  checkRanks(program, report);
  for (const Gpu& gpu : program.gpus) {
    checkCapacity(program, gpu, report);
    checkThreadblockIds(gpu, report);
    checkConnections(gpu, report);
    for (const ThreadBlock& tb : gpu.threadblocks) {
      checkThreadblockHeader(program, gpu, tb, report);
      checkSteps(dialect, gpu, tb, report);
    }
  }
}

} // namespace cs::passes
