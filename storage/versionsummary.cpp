#include "versionsummary.h"

#include "check/checker.h"
#include "io/mscclxmlreader.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace cs::storage {

namespace {

std::string chunkText(const ChunkRef& chunk)
{
  return "r" + std::to_string(chunk.rank) + " " + bufferLetter(chunk.buffer) + "[" +
         std::to_string(chunk.index) + "]";
}

void summariseXml(const std::string& xml, ContentSummary& summary)
{
  const ReadResult read = readMscclXml(xml);
  std::vector<Diagnostic> diagnostics = read.diagnostics;
  if (read.program) {
    CheckOptions options;
    options.dialect = detectDialect(*read.program);
    // Values the reader had to default would only make the semantic passes report noise.
    options.semantic = !read.hasErrors();
    const std::vector<Diagnostic> found = checkProgram(*read.program, options);
    diagnostics.insert(diagnostics.end(), found.begin(), found.end());
    const Program& program = *read.program;
    summary.shape.collective = std::string(collectiveTitle(program.collective));
    summary.shape.ranks = program.ngpus;
    summary.shape.threadblocks = program.threadblockCount();
    summary.shape.steps = program.stepCount();
  }
  VerdictSummary& verdict = summary.verdict;
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::Error) {
      if (verdict.errors++ == 0)
        verdict.firstError = diagnostic.code + ": " + diagnostic.message;
    } else if (diagnostic.severity == Severity::Warning) {
      ++verdict.warnings;
    }
  }
  verdict.verdict = !read.program ? "unreadable" : verdict.errors > 0 ? "errors" : "ok";
}

} // namespace

std::string describeTransfer(const Transfer& transfer)
{
  return "step " + std::to_string(transfer.step) + ": " + chunkText(transfer.src) + " -> " +
         chunkText(transfer.dst) + " x" + std::to_string(transfer.count) + " " +
         std::string(transferOpName(transfer.op));
}

ContentSummary summariseContent(const VersionContent& content, const Schedule* schedule)
{
  ContentSummary summary;
  summary.hash = contentHash(content);
  if (!content.xml.empty())
    summariseXml(content.xml, summary);
  else
    summary.verdict.verdict = "no xml";
  if (schedule) {
    summary.shape.transfers = static_cast<int>(schedule->transfers.size());
    for (const Transfer& transfer : schedule->transfers)
      summary.transfers.push_back(describeTransfer(transfer));
    std::sort(summary.transfers.begin(), summary.transfers.end());
    if (content.xml.empty()) {
      summary.shape.collective = std::string(collectiveTitle(schedule->collective));
      summary.shape.ranks = schedule->ranks;
      summary.shape.steps = schedule->stepCount();
    }
  }
  if (summary.shape.collective.empty())
    summary.shape.collective = "unknown";
  return summary;
}

std::int64_t contentHash(const VersionContent& content)
{
  // FNV-1a over 8-byte words (then the tail bytes): a 1.4 MB version hashes in a fraction of a
  // millisecond. Only an index, so the word-wise variant's weaker mixing costs nothing.
  std::uint64_t hash = 14695981039346656037ull;
  const auto mix = [&hash](std::string_view text) {
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
      std::uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      hash = (hash ^ word) * 1099511628211ull;
    }
    for (; i < text.size(); ++i)
      hash = (hash ^ static_cast<unsigned char>(text[i])) * 1099511628211ull;
    hash = (hash ^ text.size()) * 1099511628211ull; // keeps ("ab", "") and ("a", "b") apart
  };
  mix(content.xml);
  mix(content.designJson);
  return static_cast<std::int64_t>(hash);
}

std::string joinLines(const std::vector<std::string>& lines)
{
  std::string text;
  for (const std::string& line : lines) {
    text += line;
    text += '\n';
  }
  return text;
}

std::vector<std::string> splitLines(const std::string& text)
{
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return lines;
}

void diffTransfers(const std::vector<std::string>& from, const std::vector<std::string>& to,
                   std::vector<std::string>& added, std::vector<std::string>& removed)
{
  // Both lists are sorted multisets, so a transfer that appears twice and then once counts once.
  std::set_difference(to.begin(), to.end(), from.begin(), from.end(), std::back_inserter(added));
  std::set_difference(from.begin(), from.end(), to.begin(), to.end(), std::back_inserter(removed));
}

} // namespace cs::storage
