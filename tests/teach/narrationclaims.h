#pragma once

// Reads a narration sentence back (the grammar of engine/teach/narration.h) independently of the
// code that wrote it: expands "every rank r", "each rank r in 0–3", "rank (r+1) mod 4",
// "r XOR 2" and the slot notation into the transfers the sentence claims, and checks the contents
// it claims against the chunk states. The tests compare these claims with the Schedule.

#include "analysis/chunkstates.h"
#include "model/schedule.h"

#include <QString>

#include <optional>
#include <vector>

namespace cs::test {

/// Evaluates a formula in r as the narration writes it ("(r-2) mod 4", "8 + (r XOR 1)", "3-r");
/// mod is the mathematical (non-negative) one. nullopt when the text is not such a formula.
std::optional<int> evaluateFormula(const QString& text, int r);

/// One transfer a sentence claims, in comparable form.
struct ClaimedTransfer {
  ChunkRef src;
  ChunkRef dst;
  int count = 1;
  TransferOp op = TransferOp::Copy;
  auto operator<=>(const ClaimedTransfer&) const = default;
};

/// A parsed transfer sentence: the transfers and the content phrase with the sender of each.
struct SentenceClaims {
  std::vector<ClaimedTransfer> transfers;
  QString content;   ///< the phrase after "holding"
  bool each = false; ///< "each holding": every chunk of a multi-chunk slot holds it
};

/// Parses a transfer sentence; nullopt (with the reason in `why`) when it does not follow the
/// grammar.
std::optional<SentenceClaims> parseSentence(const QString& text, int ranks, QString& why);

/// Whether the content phrase is true of every claimed source in `column` of `states`; `why`
/// names the first sender for which it is not.
bool contentHolds(const SentenceClaims& claims, const ChunkStates& states, int column,
                  const std::vector<int>& holders, QString& why);

/// The transfer in comparable form.
ClaimedTransfer claimOf(const Transfer& transfer);

} // namespace cs::test
