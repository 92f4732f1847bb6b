#include "wiremessages.h"

#include <bit>
#include <cstring>

namespace cs::launch {

namespace {

class Writer
{
public:
  void u8(std::uint8_t value) { m_bytes.push_back(static_cast<std::byte>(value)); }
  void u32(std::uint32_t value) { little(value, 4); }
  void u64(std::uint64_t value) { little(value, 8); }
  void i64(std::int64_t value) { u64(static_cast<std::uint64_t>(value)); }
  void f64(double value) { u64(std::bit_cast<std::uint64_t>(value)); }
  void bytes(const std::byte* data, std::size_t size)
  {
    u32(static_cast<std::uint32_t>(size));
    m_bytes.insert(m_bytes.end(), data, data + size);
  }
  void text(std::string_view value)
  {
    // Texts are cut at their bound rather than refused: a long failure message still arrives.
    const std::size_t size = std::min(value.size(), kMaxTextBytes);
    bytes(reinterpret_cast<const std::byte*>(value.data()), size);
  }
  std::vector<std::byte> framed() const
  {
    Writer frame;
    frame.u32(static_cast<std::uint32_t>(m_bytes.size()));
    frame.m_bytes.insert(frame.m_bytes.end(), m_bytes.begin(), m_bytes.end());
    return frame.m_bytes;
  }

private:
  void little(std::uint64_t value, int width)
  {
    for (int i = 0; i < width; ++i)
      m_bytes.push_back(static_cast<std::byte>(value >> (8 * i) & 0xffu));
  }
  std::vector<std::byte> m_bytes;
};

/// Reads fields with bounds checks; the first failure sticks and names the field.
class Reader
{
public:
  Reader(const std::byte* data, std::size_t size) : m_data(data), m_size(size) {}
  std::uint64_t little(int width, const char* field)
  {
    if (!take(static_cast<std::size_t>(width), field))
      return 0;
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i)
      value |= std::uint64_t{std::to_integer<std::uint8_t>(m_data[m_at - width + i])} << (8 * i);
    return value;
  }
  std::vector<std::byte> bytes(std::size_t bound, const char* field)
  {
    const std::uint64_t size = little(4, field);
    if (size > bound) {
      fail(std::string(field) + " is " + std::to_string(size) + " bytes, more than " +
           std::to_string(bound));
      return {};
    }
    if (!take(size, field))
      return {};
    return {m_data + m_at - size, m_data + m_at};
  }
  std::string text(const char* field)
  {
    const std::vector<std::byte> raw = bytes(kMaxTextBytes, field);
    return {reinterpret_cast<const char*>(raw.data()), raw.size()};
  }
  bool finish()
  {
    if (m_error.empty() && m_at != m_size)
      fail(std::to_string(m_size - m_at) + " unexpected bytes after the message");
    return m_error.empty();
  }
  const std::string& error() const { return m_error; }

private:
  bool take(std::size_t size, const char* field)
  {
    if (!m_error.empty())
      return false;
    if (size > m_size - m_at) {
      fail(std::string("the message ends inside its ") + field);
      return false;
    }
    m_at += size;
    return true;
  }
  void fail(std::string why)
  {
    if (m_error.empty())
      m_error = std::move(why);
  }

  const std::byte* m_data;
  std::size_t m_size;
  std::size_t m_at = 0;
  std::string m_error;
};

void writeReport(Writer& writer, const RankReport& report)
{
  writer.u32(static_cast<std::uint32_t>(report.rank));
  writer.text(report.status);
  writer.i64(report.wrong);
  writer.i64(report.checked);
  writer.f64(report.meanUs);
  writer.text(report.detail);
}

RankReport readReport(Reader& reader)
{
  RankReport report;
  report.rank = static_cast<std::int32_t>(reader.little(4, "rank"));
  report.status = reader.text("status");
  report.wrong = static_cast<std::int64_t>(reader.little(8, "wrong count"));
  report.checked = static_cast<std::int64_t>(reader.little(8, "checked count"));
  report.meanUs = std::bit_cast<double>(reader.little(8, "time"));
  report.detail = reader.text("detail");
  return report;
}

} // namespace

std::vector<std::byte> encodeMessage(const Message& message)
{
  Writer writer;
  writer.u8(static_cast<std::uint8_t>(message.kind));
  switch (message.kind) {
  case MessageKind::Hello:
    writer.u32(message.hello.protocol);
    writer.u32(static_cast<std::uint32_t>(message.hello.rank));
    writer.u32(static_cast<std::uint32_t>(message.hello.world));
    writer.u64(message.hello.program);
    writer.text(message.hello.cannotStart);
    break;
  case MessageKind::Id:
    writer.bytes(message.id.data(), std::min(message.id.size(), kMaxIdBytes));
    break;
  case MessageKind::Report:
    writeReport(writer, message.report);
    break;
  case MessageKind::Done:
    break;
  case MessageKind::Stop:
    writer.text(message.text);
    break;
  case MessageKind::Lost:
    writer.u32(static_cast<std::uint32_t>(message.lostRank));
    break;
  }
  return writer.framed();
}

std::optional<Message> decodePayload(const std::byte* data, std::size_t size, std::string* error)
{
  Reader reader(data, size);
  Message message;
  const auto kind = static_cast<std::uint8_t>(reader.little(1, "kind"));
  message.kind = static_cast<MessageKind>(kind);
  switch (message.kind) {
  case MessageKind::Hello:
    message.hello.protocol = static_cast<std::uint32_t>(reader.little(4, "protocol"));
    message.hello.rank = static_cast<std::int32_t>(reader.little(4, "rank"));
    message.hello.world = static_cast<std::int32_t>(reader.little(4, "world"));
    message.hello.program = reader.little(8, "program fingerprint");
    message.hello.cannotStart = reader.text("reason it cannot start");
    break;
  case MessageKind::Id:
    message.id = reader.bytes(kMaxIdBytes, "id");
    break;
  case MessageKind::Report:
    message.report = readReport(reader);
    break;
  case MessageKind::Done:
    break;
  case MessageKind::Stop:
    message.text = reader.text("reason");
    break;
  case MessageKind::Lost:
    message.lostRank = static_cast<std::int32_t>(reader.little(4, "lost rank"));
    break;
  default:
    if (error)
      *error =
          reader.error().empty() ? "unknown message kind " + std::to_string(kind) : reader.error();
    return std::nullopt;
  }
  if (!reader.finish()) {
    if (error)
      *error = reader.error();
    return std::nullopt;
  }
  return message;
}

std::uint64_t programFingerprint(std::string_view bytes)
{
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;
  }
  return hash;
}

bool FrameReader::append(const std::byte* data, std::size_t size)
{
  m_buffer.insert(m_buffer.end(), data, data + size);
  return checkLength();
}

bool FrameReader::checkLength()
{
  if (!m_error.empty())
    return false;
  if (m_buffer.size() < 4)
    return true;
  std::uint32_t length = 0;
  for (int i = 0; i < 4; ++i)
    length |= std::uint32_t{std::to_integer<std::uint8_t>(m_buffer[static_cast<std::size_t>(i)])}
              << (8 * i);
  if (length == 0 || length > kMaxFrameBytes) {
    m_error = "a frame announces " + std::to_string(length) + " bytes (allowed: 1 to " +
              std::to_string(kMaxFrameBytes) + ")";
    return false;
  }
  return true;
}

std::optional<std::vector<std::byte>> FrameReader::next()
{
  if (!m_error.empty() || m_buffer.size() < 4 || !checkLength())
    return std::nullopt;
  std::size_t length = 0;
  for (int i = 0; i < 4; ++i)
    length |= std::size_t{std::to_integer<std::uint8_t>(m_buffer[static_cast<std::size_t>(i)])}
              << (8 * i);
  if (m_buffer.size() < 4 + length)
    return std::nullopt;
  std::vector<std::byte> payload(m_buffer.begin() + 4,
                                 m_buffer.begin() + 4 + static_cast<std::ptrdiff_t>(length));
  m_buffer.erase(m_buffer.begin(), m_buffer.begin() + 4 + static_cast<std::ptrdiff_t>(length));
  // The next frame's length is checked as soon as its prefix is here.
  checkLength();
  return payload;
}

} // namespace cs::launch
