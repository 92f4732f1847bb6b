#pragma once

// The messages of the launcher rendezvous (rendezvous.h) and how they travel: a frame is a 4-byte
// little-endian payload length, then the payload, whose first byte is the message kind. Every
// length is bounded (kMaxFrameBytes, kMaxTextBytes, kMaxIdBytes) and checked before anything is
// allocated, so a garbage or hostile peer gets a clear error, never a crash, a huge allocation or
// a read past the end. Plain C++, no sockets: FrameReader takes bytes from wherever they came.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cs::launch {

/// Bumped when a message changes: ranks of different builds then refuse each other by name.
inline constexpr std::uint32_t kRendezvousProtocol = 2;
inline constexpr std::size_t kMaxFrameBytes = 64 * 1024;
inline constexpr std::size_t kMaxTextBytes = 4096;
inline constexpr std::size_t kMaxIdBytes = 1024; ///< NCCL's unique id is 128 bytes

enum class MessageKind : std::uint8_t {
  Hello = 1,  ///< rank → 0: who I am (Hello)
  Id = 2,     ///< 0 → rank: the communicator's opaque id
  Report = 3, ///< rank → 0: how my share of the run went (RankReport)
  Done = 4,   ///< 0 → rank: every report arrived; exit with your own verdict
  Stop = 5,   ///< 0 → rank: the run failed (the text says why); exit non-zero
  Lost = 6,   ///< 0 → rank, during the run: rank `lostRank` went away; cancel and exit non-zero
};

struct Hello {
  std::uint32_t protocol = kRendezvousProtocol;
  std::int32_t rank = 0;
  std::int32_t world = 0;
  std::uint64_t program = 0; ///< programFingerprint() of the file every rank runs
  /// Why this rank cannot take part (no GPU, …); empty when it is ready. Rank 0 then stops every
  /// rank before any of them waits inside NCCL for it.
  std::string cannotStart;
};

/// One rank's share of the run, gathered at rank 0.
struct RankReport {
  std::int32_t rank = 0;
  std::string status;     ///< execStatusName(): "verified", "wrong", "hung", "failed", …
  std::int64_t wrong = 0; ///< wrong elements in this rank's results
  std::int64_t checked = 0;
  double meanUs = 0;  ///< this rank's mean time per iteration
  std::string detail; ///< the first wrong element, or why it failed; may be empty
};

/// A decoded message: `kind` and the fields that kind carries.
struct Message {
  MessageKind kind = MessageKind::Stop;
  Hello hello;
  std::vector<std::byte> id;
  RankReport report;
  std::string text; ///< Stop's reason
  /// Lost's rank; the receiver checks it against the world size (decoding cannot know it).
  std::int32_t lostRank = 0;
};

/// The frame (length prefix included) that carries `message`.
std::vector<std::byte> encodeMessage(const Message& message);

/// Decodes one payload; nullopt with `error` set when it is malformed (unknown kind, a field
/// past the end, a length over its bound, trailing bytes).
std::optional<Message> decodePayload(const std::byte* data, std::size_t size, std::string* error);

/// FNV-1a over the program file's bytes: ranks that read different files refuse to run together.
std::uint64_t programFingerprint(std::string_view bytes);

/// Splits a byte stream into payloads.
class FrameReader
{
public:
  /// Adds bytes received; false (and error()) as soon as a length prefix exceeds kMaxFrameBytes
  /// or is zero.
  bool append(const std::byte* data, std::size_t size);
  /// The next complete payload, if one has arrived.
  std::optional<std::vector<std::byte>> next();
  const std::string& error() const { return m_error; }

private:
  bool checkLength();

  std::vector<std::byte> m_buffer;
  std::string m_error;
};

} // namespace cs::launch
