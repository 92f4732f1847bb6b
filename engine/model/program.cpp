#include "program.h"

#include <algorithm>
#include <array>
#include <vector>

namespace cs {

namespace {

constexpr std::array<std::string_view, kOpTypeCount> kOpNames = {"s",    "r",   "rcs", "rrs", "rrc",
                                                                 "rrcs", "cpy", "re",  "nop"};

} // namespace

char bufferLetter(Buffer buffer)
{
  switch (buffer) {
  case Buffer::Input:
    return 'i';
  case Buffer::Output:
    return 'o';
  case Buffer::Scratch:
    return 's';
  }
  return '?';
}

std::string_view bufferName(Buffer buffer)
{
  switch (buffer) {
  case Buffer::Input:
    return "input";
  case Buffer::Output:
    return "output";
  case Buffer::Scratch:
    return "scratch";
  }
  return "?";
}

std::optional<Buffer> parseBuffer(std::string_view text)
{
  if (text == "i")
    return Buffer::Input;
  if (text == "o")
    return Buffer::Output;
  if (text == "s")
    return Buffer::Scratch;
  return std::nullopt;
}

std::string_view opTypeName(OpType type)
{
  return kOpNames[static_cast<std::size_t>(type)];
}

std::optional<OpType> parseOpType(std::string_view text)
{
  for (std::size_t i = 0; i < kOpNames.size(); ++i) {
    if (kOpNames[i] == text)
      return static_cast<OpType>(i);
  }
  return std::nullopt;
}

std::string_view protocolName(Protocol protocol)
{
  switch (protocol) {
  case Protocol::Simple:
    return "Simple";
  case Protocol::LL:
    return "LL";
  case Protocol::LL128:
    return "LL128";
  }
  return "?";
}

std::optional<Protocol> parseProtocol(std::string_view text)
{
  if (text == "Simple")
    return Protocol::Simple;
  if (text == "LL")
    return Protocol::LL;
  if (text == "LL128")
    return Protocol::LL128;
  return std::nullopt;
}

std::string_view collectiveTitle(Collective collective)
{
  switch (collective) {
  case Collective::AllReduce:
    return "all-reduce";
  case Collective::AllGather:
    return "all-gather";
  case Collective::ReduceScatter:
    return "reduce-scatter";
  case Collective::AllToAll:
    return "all-to-all";
  case Collective::Broadcast:
    return "broadcast";
  case Collective::Reduce:
    return "reduce";
  case Collective::Custom:
    return "custom";
  case Collective::Send:
    return "send";
  case Collective::Recv:
    return "recv";
  case Collective::Gather:
    return "gather";
  case Collective::Scatter:
    return "scatter";
  case Collective::AllToAllV:
    return "all-to-all-v";
  }
  return "?";
}

namespace {

struct CollSpelling {
  std::string_view text;
  Collective collective;
};

// Every `coll` value some runtime reads (msccl-format §2.1).
constexpr std::array<CollSpelling, 13> kCollSpellings = {{
    {"allreduce", Collective::AllReduce},
    {"allgather", Collective::AllGather},
    {"reduce_scatter", Collective::ReduceScatter},
    {"reducescatter", Collective::ReduceScatter},
    {"alltoall", Collective::AllToAll},
    {"broadcast", Collective::Broadcast},
    {"reduce", Collective::Reduce},
    {"custom", Collective::Custom},
    {"send", Collective::Send},
    {"recv", Collective::Recv},
    {"gather", Collective::Gather},
    {"scatter", Collective::Scatter},
    {"alltoallv", Collective::AllToAllV},
}};

// Levenshtein distance, ignoring ASCII case: "AllReduce" and "allreduc" are both near "allreduce".
std::size_t editDistance(std::string_view a, std::string_view b)
{
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

} // namespace

std::optional<Collective> parseCollective(std::string_view text)
{
  for (const CollSpelling& spelling : kCollSpellings) {
    if (spelling.text == text)
      return spelling.collective;
  }
  return std::nullopt;
}

std::optional<std::string_view> nearestCollSpelling(std::string_view text)
{
  if (text.size() > 64) // no spelling is that long; spare the quadratic distance
    return std::nullopt;
  std::optional<std::string_view> nearest;
  std::size_t best = 3; // at most two edits away
  for (const CollSpelling& spelling : kCollSpellings) {
    const std::size_t distance = editDistance(text, spelling.text);
    if (distance < best) {
      best = distance;
      nearest = spelling.text;
    }
  }
  return nearest;
}

bool Step::operator==(const Step& other) const
{
  return s == other.s && type == other.type && srcBuf == other.srcBuf && srcOff == other.srcOff &&
         dstBuf == other.dstBuf && dstOff == other.dstOff && cnt == other.cnt &&
         depid == other.depid && deps == other.deps && hasdep == other.hasdep;
}

bool ThreadBlock::operator==(const ThreadBlock& other) const
{
  return id == other.id && send == other.send && recv == other.recv && chan == other.chan &&
         steps == other.steps;
}

int Gpu::chunks(Buffer buffer) const
{
  switch (buffer) {
  case Buffer::Input:
    return inputChunks;
  case Buffer::Output:
    return outputChunks;
  case Buffer::Scratch:
    return scratchChunks;
  }
  return 0;
}

bool Gpu::operator==(const Gpu& other) const
{
  return id == other.id && inputChunks == other.inputChunks && outputChunks == other.outputChunks &&
         scratchChunks == other.scratchChunks && threadblocks == other.threadblocks;
}

int Program::threadblockCount() const
{
  int count = 0;
  for (const Gpu& gpu : gpus)
    count += static_cast<int>(gpu.threadblocks.size());
  return count;
}

int Program::stepCount() const
{
  int count = 0;
  for (const Gpu& gpu : gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks)
      count += static_cast<int>(tb.steps.size());
  }
  return count;
}

int Program::maxThreadblocksPerRank() const
{
  int most = 0;
  for (const Gpu& gpu : gpus)
    most = std::max(most, static_cast<int>(gpu.threadblocks.size()));
  return most;
}

int Program::maxStepsPerThreadblock() const
{
  int most = 0;
  for (const Gpu& gpu : gpus) {
    for (const ThreadBlock& tb : gpu.threadblocks)
      most = std::max(most, static_cast<int>(tb.steps.size()));
  }
  return most;
}

const ThreadBlock* Program::threadblock(int rank, int tbId) const
{
  if (rank < 0 || rank >= static_cast<int>(gpus.size()))
    return nullptr;
  const std::vector<ThreadBlock>& tbs = gpus[static_cast<std::size_t>(rank)].threadblocks;
  if (tbId >= 0 && tbId < static_cast<int>(tbs.size()) &&
      tbs[static_cast<std::size_t>(tbId)].id == tbId)
    return &tbs[static_cast<std::size_t>(tbId)];
  for (const ThreadBlock& tb : tbs) {
    if (tb.id == tbId)
      return &tb;
  }
  return nullptr;
}

Program programOfRanks(int ranks, BufferChunks chunks)
{
  Program program;
  program.ngpus = ranks;
  program.gpus.resize(static_cast<std::size_t>(std::max(ranks, 0)));
  for (int r = 0; r < ranks; ++r) {
    Gpu& gpu = program.gpus[static_cast<std::size_t>(r)];
    gpu.id = r;
    gpu.inputChunks = chunks.input;
    gpu.outputChunks = chunks.output;
    gpu.scratchChunks = chunks.scratch;
  }
  return program;
}

ThreadBlock& appendThreadblock(Program& program, int rank, int sendPeer, int recvPeer, int channel)
{
  std::vector<ThreadBlock>& tbs = program.gpus[static_cast<std::size_t>(rank)].threadblocks;
  ThreadBlock& tb = tbs.emplace_back();
  tb.id = static_cast<int>(tbs.size()) - 1;
  tb.send = sendPeer;
  tb.recv = recvPeer;
  tb.chan = channel;
  return tb;
}

bool Program::operator==(const Program& other) const
{
  return name == other.name && proto == other.proto && nchannels == other.nchannels &&
         nchunksperloop == other.nchunksperloop && ngpus == other.ngpus &&
         collective == other.collective && collSpelling == other.collSpelling &&
         inplace == other.inplace && outofplace == other.outofplace && minBytes == other.minBytes &&
         maxBytes == other.maxBytes && nthreads == other.nthreads &&
         extraAttributes == other.extraAttributes && gpus == other.gpus;
}

} // namespace cs
