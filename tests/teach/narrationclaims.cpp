#include "narrationclaims.h"

#include <QRegularExpression>

namespace cs::test {

namespace {

/// Recursive descent over the formula's tokens: xor := sum ('XOR' sum)*,
/// sum := term (('+'|'-') term)*, term := atom ('mod' atom)*, atom := int | r | (xor) | -atom.
class FormulaReader
{
public:
  FormulaReader(const QString& text, int r) : m_r(r)
  {
    static const QRegularExpression token(QStringLiteral("\\s*(\\d+|r|XOR|mod|[-+()])"));
    int at = 0;
    while (at < text.size()) {
      const QRegularExpressionMatch m = token.match(text, at, QRegularExpression::NormalMatch,
                                                    QRegularExpression::AnchorAtOffsetMatchOption);
      if (!m.hasMatch()) {
        if (text.mid(at).trimmed().isEmpty())
          break;
        m_bad = true;
        return;
      }
      m_tokens << m.captured(1);
      at = m.capturedEnd(0);
    }
  }

  std::optional<int> read()
  {
    const std::optional<int> value = xorExpression();
    if (m_bad || m_at != m_tokens.size())
      return std::nullopt;
    return value;
  }

private:
  bool accept(const QString& token)
  {
    if (m_at < m_tokens.size() && m_tokens[m_at] == token) {
      ++m_at;
      return true;
    }
    return false;
  }
  std::optional<int> xorExpression()
  {
    std::optional<int> value = sum();
    while (value && accept("XOR")) {
      const std::optional<int> right = sum();
      value = right ? std::optional<int>(*value ^ *right) : std::nullopt;
    }
    return value;
  }
  std::optional<int> sum()
  {
    std::optional<int> value = term();
    while (value) {
      const bool plus = accept("+");
      if (!plus && !accept("-"))
        break;
      const std::optional<int> right = term();
      value = right ? std::optional<int>(plus ? *value + *right : *value - *right) : std::nullopt;
    }
    return value;
  }
  std::optional<int> term()
  {
    std::optional<int> value = atom();
    while (value && accept("mod")) {
      const std::optional<int> right = atom();
      if (!right || *right <= 0)
        return std::nullopt;
      value = ((*value % *right) + *right) % *right;
    }
    return value;
  }
  std::optional<int> atom()
  {
    if (m_at >= m_tokens.size())
      return std::nullopt;
    if (accept("r"))
      return m_r;
    if (accept("-")) {
      const std::optional<int> inner = atom();
      return inner ? std::optional<int>(-*inner) : std::nullopt;
    }
    if (accept("(")) {
      const std::optional<int> inner = xorExpression();
      return accept(")") ? inner : std::nullopt;
    }
    bool ok = false;
    const int value = m_tokens[m_at].toInt(&ok);
    if (!ok)
      return std::nullopt;
    ++m_at;
    return value;
  }

  QStringList m_tokens;
  qsizetype m_at = 0;
  int m_r;
  bool m_bad = false;
};

std::optional<Buffer> bufferOf(const QString& letter)
{
  if (letter == "i")
    return Buffer::Input;
  if (letter == "o")
    return Buffer::Output;
  if (letter == "s")
    return Buffer::Scratch;
  return std::nullopt;
}

/// "i[3]", "i[4..7]" or "2 chunks from i[r XOR 2]" at sender r: the first slot and the count.
std::optional<std::pair<ChunkRef, int>> readSlot(const QString& text, int rank, int r)
{
  static const QRegularExpression slot(
      QStringLiteral("^(?:(\\d+) chunks from )?([ios])\\[([^\\]]+)\\]$"));
  static const QRegularExpression range(QStringLiteral("^(\\d+)\\.\\.(\\d+)$"));
  const QRegularExpressionMatch m = slot.match(text);
  if (!m.hasMatch())
    return std::nullopt;
  const std::optional<Buffer> buffer = bufferOf(m.captured(2));
  const QRegularExpressionMatch constant = range.match(m.captured(3));
  if (constant.hasMatch())
    return std::pair{ChunkRef{rank, *buffer, constant.captured(1).toInt()},
                     constant.captured(2).toInt() - constant.captured(1).toInt() + 1};
  const std::optional<int> index = evaluateFormula(m.captured(3), r);
  if (!index)
    return std::nullopt;
  const int count = m.captured(1).isEmpty() ? 1 : m.captured(1).toInt();
  return std::pair{ChunkRef{rank, *buffer, *index}, count};
}

/// The senders "every rank r", "each rank r in A–B", "each rank r in {a, b}", "rank A" name.
std::vector<int> readWho(const QRegularExpressionMatch& m, int ranks)
{
  std::vector<int> who;
  if (m.captured(1) == "every rank r") {
    for (int r = 0; r < ranks; ++r)
      who.push_back(r);
  } else if (!m.captured(2).isEmpty()) {
    for (int r = m.captured(2).toInt(); r <= m.captured(3).toInt(); ++r)
      who.push_back(r);
  } else if (!m.captured(4).isEmpty()) {
    for (const QString& rank : m.captured(4).split(", "))
      who.push_back(rank.toInt());
  } else {
    who.push_back(m.captured(5).toInt());
  }
  return who;
}

} // namespace

std::optional<int> evaluateFormula(const QString& text, int r)
{
  return FormulaReader(text, r).read();
}

ClaimedTransfer claimOf(const Transfer& t)
{
  return {t.src, t.dst, t.count, t.op};
}

std::optional<SentenceClaims> parseSentence(const QString& text, int ranks, QString& why)
{
  static const QString slot = QStringLiteral("((?:\\d+ chunks from )?[ios]\\[[^\\]]+\\])");
  static const QRegularExpression sentence(
      QStringLiteral("^(every rank r|each rank r in (\\d+)\u2013(\\d+)|each rank r in "
                     "\\{([\\d, ]+)\\}|rank (\\d+)) (sends|copies|adds) ") +
      slot +
      QStringLiteral(", (each )?holding ([^,]+), (?:to rank ([^,]+), which (stores it "
                     "in|adds it to) its ") +
      slot + QStringLiteral("|into its own ") + slot + QStringLiteral(")\\.$"));
  const QRegularExpressionMatch m = sentence.match(text);
  if (!m.hasMatch()) {
    why = "does not follow the grammar: " + text;
    return std::nullopt;
  }
  SentenceClaims claims;
  claims.content = m.captured(9);
  claims.each = !m.captured(8).isEmpty();
  const bool local = m.captured(6) != "sends";
  for (const int r : readWho(m, ranks)) {
    const auto source = readSlot(m.captured(7), r, r);
    const std::optional<int> dstRank =
        local ? std::optional<int>(r) : evaluateFormula(m.captured(10), r);
    const auto target = dstRank ? readSlot(m.captured(local ? 13 : 12), *dstRank, r) : std::nullopt;
    if (!source || !target || source->second != target->second) {
      why = "cannot expand for r = " + QString::number(r) + ": " + text;
      return std::nullopt;
    }
    const bool reduce = local ? m.captured(6) == "adds" : m.captured(11) == "adds it to";
    claims.transfers.push_back({source->first, target->first, source->second,
                                reduce ? TransferOp::Reduce : TransferOp::Copy});
  }
  return claims;
}

namespace {

/// The summary of chunk `offset` of `first` in `column`; nullptr when the slot has no row.
const CellSummary* slotSummary(const ChunkStates& states, ChunkRef first, int offset, int column)
{
  first.index += offset;
  const int row = states.rowOf(first);
  return row < 0 ? nullptr : &states.summary(states.value(row, column));
}

/// Whether `s` is what `content` claims for the chunk `offset` chunks into the source at r.
bool slotHolds(const QString& content, const CellSummary& s, const ChunkRef& source, int offset,
               int r, const std::vector<int>& holders)
{
  static const QRegularExpression own(QStringLiteral("^its own input i\\[(.+)\\]$"));
  static const QRegularExpression other(QStringLiteral("^the input i\\[(.+)\\] of rank (.+)$"));
  static const QRegularExpression partial(
      QStringLiteral("^(\\d+) of the (\\d+) contributions(?: of chunk (.+))?$"));
  static const QRegularExpression complete(QStringLiteral("^the fully reduced chunk(?: (.+))?$"));
  const auto chunkOr = [&](const QString& formula) {
    return formula.isEmpty() ? std::optional<int>(source.index) : evaluateFormula(formula, r);
  };
  if (content == "nothing yet (uninitialised)")
    return s.kind == CellKind::Uninitialised;
  if (content == "a wrong value (double counted)")
    return s.kind == CellKind::Wrong && s.chunk >= 0;
  if (content == "a wrong value (chunks mixed)")
    return s.kind == CellKind::Wrong && s.chunk < 0;
  if (const QRegularExpressionMatch m = own.match(content); m.hasMatch()) {
    const std::optional<int> chunk = evaluateFormula(m.captured(1), r);
    return s.kind == CellKind::Single && s.ranks.front() == r && chunk &&
           s.chunk == *chunk + offset;
  }
  if (const QRegularExpressionMatch m = other.match(content); m.hasMatch()) {
    const std::optional<int> chunk = evaluateFormula(m.captured(1), r);
    const std::optional<int> rank = evaluateFormula(m.captured(2), r);
    return s.kind == CellKind::Single && rank && s.ranks.front() == *rank && chunk &&
           s.chunk == *chunk + offset;
  }
  if (const QRegularExpressionMatch m = partial.match(content); m.hasMatch()) {
    const std::optional<int> chunk = chunkOr(m.captured(3));
    return s.kind == CellKind::Partial && chunk && s.chunk == *chunk + offset &&
           static_cast<int>(s.ranks.size()) == m.captured(1).toInt() &&
           holders.at(static_cast<std::size_t>(s.chunk)) == m.captured(2).toInt();
  }
  if (const QRegularExpressionMatch m = complete.match(content); m.hasMatch()) {
    const std::optional<int> chunk = chunkOr(m.captured(1));
    return s.kind == CellKind::Complete && chunk && s.chunk == *chunk + offset;
  }
  return false;
}

/// Whether chunk `offset` differs from the first beyond the index (for "differ from chunk to
/// chunk").
bool differs(const CellSummary& first, const CellSummary& other, int offset)
{
  const int firstRank = first.ranks.empty() ? -1 : first.ranks.front();
  const int otherRank = other.ranks.empty() ? -1 : other.ranks.front();
  return first.kind != other.kind || first.ranks.size() != other.ranks.size() ||
         firstRank != otherRank || (first.chunk < 0) != (other.chunk < 0) ||
         (first.chunk >= 0 && other.chunk - offset != first.chunk) ||
         first.maxCount != other.maxCount;
}

} // namespace

bool contentHolds(const SentenceClaims& claims, const ChunkStates& states, int column,
                  const std::vector<int>& holders, QString& why)
{
  for (const ClaimedTransfer& t : claims.transfers) {
    const int r = t.src.rank;
    why = QString("rank %1's source does not hold \"%2\"").arg(r).arg(claims.content);
    const CellSummary* first = slotSummary(states, t.src, 0, column);
    if (!first)
      return false;
    if (claims.content == "contents that differ from chunk to chunk") {
      bool varies = false;
      for (int j = 1; j < t.count && !varies; ++j) {
        const CellSummary* next = slotSummary(states, t.src, j, column);
        varies = !next || differs(*first, *next, j);
      }
      if (!varies || !claims.each)
        return false;
      continue;
    }
    static const QRegularExpression perChunk(
        QStringLiteral("^the inputs i\\[(.+)\\] of ranks (.+) onward \\(one rank per chunk\\)$"));
    if (const QRegularExpressionMatch m = perChunk.match(claims.content); m.hasMatch()) {
      // Slot j holds input chunk C of rank Q + j, the chunk the same in every slot.
      const std::optional<int> chunk = evaluateFormula(m.captured(1), r);
      const std::optional<int> rank = evaluateFormula(m.captured(2), r);
      for (int j = 0; j < t.count; ++j) {
        const CellSummary* s = slotSummary(states, t.src, j, column);
        if (!s || !chunk || !rank || claims.each || s->kind != CellKind::Single ||
            s->ranks.front() != *rank + j || s->chunk != *chunk)
          return false;
      }
      continue;
    }
    if (t.count > 1 && !claims.each)
      return false;
    for (int j = 0; j < t.count; ++j) {
      const CellSummary* s = slotSummary(states, t.src, j, column);
      if (!s || !slotHolds(claims.content, *s, t.src, j, r, holders))
        return false;
    }
  }
  why.clear();
  return true;
}

} // namespace cs::test
