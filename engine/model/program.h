#pragma once

// The Program level of an algorithm: exactly what an MSCCL runtime loads from its XML
// (msccl-format.md §2). Per rank (<gpu>), threadblocks (<tb>), each with one send peer, one
// receive peer, one channel and an ordered list of instructions (<step>).
//
// Ids are stable and shared by every other part of Collective Studio: rank = Gpu::id,
// threadblock = ThreadBlock::id, step = position in ThreadBlock::steps. A Diagnostic, a trace
// event and a database row use the same triple. The reader keeps gpus and threadblocks sorted by
// id (the runtime addresses them by id, not by document order) and steps in document order (the
// runtime executes them in that order, whatever their `s` says).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs {

/// The three buffers an instruction can address: `i` (the user's send buffer), `o` (the user's
/// receive buffer) and `s` (MSCCL's scratch buffer).
enum class Buffer : std::uint8_t { Input, Output, Scratch };
inline constexpr int kBufferCount = 3;

/// `i`, `o` or `s`.
char bufferLetter(Buffer buffer);
/// "input", "output" or "scratch".
std::string_view bufferName(Buffer buffer);
/// Parses exactly `i`, `o` or `s`, the only names the runtimes accept.
std::optional<Buffer> parseBuffer(std::string_view text);

/// The nine instruction types of msccl-format.md §3.
enum class OpType : std::uint8_t {
  Send,               ///< `s`
  Recv,               ///< `r`
  RecvCopySend,       ///< `rcs`
  RecvReduceSend,     ///< `rrs`
  RecvReduceCopy,     ///< `rrc`
  RecvReduceCopySend, ///< `rrcs`
  Copy,               ///< `cpy`
  Reduce,             ///< `re`
  Nop,                ///< `nop`
};
inline constexpr int kOpTypeCount = 9;

/// What an instruction touches. `readsSrc` is the local operand; receive-reduce instructions read
/// it and combine it with what arrives (the runtime never looks at where the peer read its data).
struct OpTraits {
  bool sends = false;     ///< pushes a message to the threadblock's send peer
  bool receives = false;  ///< pops a message from the threadblock's receive peer
  bool readsSrc = false;  ///< reads srcbuf[srcoff .. srcoff+cnt)
  bool readsDst = false;  ///< reads dstbuf before writing it (local reduce)
  bool writesDst = false; ///< writes dstbuf[dstoff .. dstoff+cnt)
  bool reduces = false;   ///< combines values with the reduction operator
};

/// What `type` touches; constexpr because every pass asks it for every step.
constexpr OpTraits opTraits(OpType type)
{
  switch (type) {
  case OpType::Send:
    return {.sends = true, .readsSrc = true};
  case OpType::Recv:
    return {.receives = true, .writesDst = true};
  case OpType::RecvCopySend:
    return {.sends = true, .receives = true, .writesDst = true};
  case OpType::RecvReduceSend:
    return {.sends = true, .receives = true, .readsSrc = true, .reduces = true};
  case OpType::RecvReduceCopy:
    return {.receives = true, .readsSrc = true, .writesDst = true, .reduces = true};
  case OpType::RecvReduceCopySend:
    return {.sends = true, .receives = true, .readsSrc = true, .writesDst = true, .reduces = true};
  case OpType::Copy:
    return {.readsSrc = true, .writesDst = true};
  case OpType::Reduce:
    return {.readsSrc = true, .readsDst = true, .writesDst = true, .reduces = true};
  case OpType::Nop:
    return {};
  }
  return {};
}
/// The XML spelling: "s", "r", "rcs", "rrs", "rrc", "rrcs", "cpy", "re", "nop".
std::string_view opTypeName(OpType type);
std::optional<OpType> parseOpType(std::string_view text);

/// NCCL protocol the kernel uses; spelled exactly `Simple`, `LL`, `LL128`.
enum class Protocol : std::uint8_t { Simple, LL, LL128 };
std::string_view protocolName(Protocol protocol);
std::optional<Protocol> parseProtocol(std::string_view text);

/// The collective an algorithm implements. Spellings differ between runtime generations
/// (`reduce_scatter` vs `reducescatter`): see Dialect::collSpelling.
enum class Collective : std::uint8_t {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  Broadcast,
  Reduce,
  Custom,
  Send,
  Recv,
  Gather,
  Scatter,
  AllToAllV,
};
/// A human name ("all-reduce"), not an XML spelling.
std::string_view collectiveTitle(Collective collective);
/// Accepts every spelling any runtime generation knows.
std::optional<Collective> parseCollective(std::string_view text);
/// The `coll` spelling some runtime reads that is nearest to `text` (at most two edits away,
/// ASCII case ignored), for "did you mean"; nullopt when none is that near.
std::optional<std::string_view> nearestCollSpelling(std::string_view text);

/// One `<step>`: an instruction. All ten attributes are mandatory in the XML, so all are fields.
struct Step {
  int s = 0; ///< position as written in the file; must equal the index in ThreadBlock::steps
  OpType type = OpType::Nop;
  Buffer srcBuf = Buffer::Input;
  int srcOff = -1;
  Buffer dstBuf = Buffer::Output;
  int dstOff = -1;
  int cnt = 0;
  int depid = -1;      ///< threadblock on the same rank this step waits for, or -1
  int deps = -1;       ///< position in `depid` that must have been published, or -1
  bool hasdep = false; ///< this step publishes its position after executing (others wait on it)
  int line = 0;        ///< 1-based line in the source file; 0 when not read from a file

  bool hasDependency() const { return depid >= 0; }
  /// Equality of what the runtime sees; the source line is not part of it.
  bool operator==(const Step& other) const;
};

/// One `<tb>`: a CUDA block on its rank with at most one send and one receive peer.
struct ThreadBlock {
  int id = 0;
  int send = -1; ///< peer rank this block sends to, or -1
  int recv = -1; ///< peer rank this block receives from, or -1
  int chan = 0;
  std::vector<Step> steps;
  int line = 0;

  bool operator==(const ThreadBlock& other) const;
};

/// One `<gpu>`: a rank, the chunk counts of its three buffers, and its threadblocks.
struct Gpu {
  int id = 0;
  int inputChunks = 0;   ///< i_chunks
  int outputChunks = 0;  ///< o_chunks
  int scratchChunks = 0; ///< s_chunks
  std::vector<ThreadBlock> threadblocks;
  int line = 0;

  int chunks(Buffer buffer) const;
  bool operator==(const Gpu& other) const;
};

/// An attribute the model has no field for; kept so that reading and writing loses nothing.
struct Attribute {
  std::string name;
  std::string value;
  bool operator==(const Attribute&) const = default;
};

/// The root `<algo>` and everything below it.
struct Program {
  std::string name;
  Protocol proto = Protocol::Simple;
  int nchannels = 1;
  int nchunksperloop = 1;
  int ngpus = 0;
  Collective collective = Collective::AllReduce;
  std::string collSpelling; ///< `coll` exactly as written (runtimes differ in what they accept)
  bool inplace = false;
  std::optional<bool> outofplace;         ///< required by the current executor and RCCL only
  std::optional<std::int64_t> minBytes;   ///< optional in the classic runtime (default 0)
  std::optional<std::int64_t> maxBytes;   ///< optional in the classic runtime (default 128 MiB)
  std::optional<int> nthreads;            ///< classic runtime only
  std::vector<Attribute> extraAttributes; ///< unknown `<algo>` attributes, in file order
  std::vector<Gpu> gpus;                  ///< sorted by id; gpus[r].id == r when well formed
  int line = 0;

  /// Whether the algorithm is meant for in-place calls (i and o alias, §4.1).
  bool usableInPlace() const { return inplace; }
  /// Whether it is meant for out-of-place calls. Without an `outofplace` attribute (classic
  /// files), `inplace="0"` means "for out-of-place calls".
  bool usableOutOfPlace() const { return outofplace.value_or(!inplace); }

  int threadblockCount() const;
  int stepCount() const;
  int maxThreadblocksPerRank() const;
  int maxStepsPerThreadblock() const;

  /// Finds a rank's threadblock by id, or nullptr.
  const ThreadBlock* threadblock(int rank, int tbId) const;

  bool operator==(const Program& other) const;
};

/// Chunks per rank of each buffer, for programs built in code.
struct BufferChunks {
  int input = 0;
  int output = 0;
  int scratch = 0;
};

/// The start of a program built in code (calibration probes, tests): GPUs 0..ranks-1 with
/// `chunks` chunks each and no threadblocks; the caller names the collective and call modes.
Program programOfRanks(int ranks, BufferChunks chunks);

/// Appends a threadblock with the next id to `rank` (a valid index) and returns it.
ThreadBlock& appendThreadblock(Program& program, int rank, int sendPeer, int recvPeer,
                               int channel = 0);

} // namespace cs
