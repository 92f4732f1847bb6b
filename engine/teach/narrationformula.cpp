#include "narration_p.h"

#include <algorithm>

namespace cs::narration {

namespace {

int floorMod(int value, int n)
{
  const int m = value % n;
  return m < 0 ? m + n : m;
}

/// The multiple of n at or below `value`: the block a chunk index sits in (channel copies of a
/// ring use chunks [ch·n, ch·n + n)).
int blockBase(int value, int n)
{
  return value - floorMod(value, n);
}

std::string signedTerm(int offset)
{
  if (offset == 0)
    return {};
  return (offset > 0 ? "+" : "-") + std::to_string(offset > 0 ? offset : -offset);
}

std::string withBase(int base, const std::string& text)
{
  return base == 0 ? text : std::to_string(base) + " + " + text;
}

std::string plusText(const Formula& f, const std::vector<int>& ranks)
{
  const bool noneWrap =
      std::all_of(ranks.begin(), ranks.end(), [&](int r) { return r + f.c >= 0 && r + f.c < f.n; });
  const bool allWrap = std::all_of(
      ranks.begin(), ranks.end(), [&](int r) { return r + f.c - f.n >= 0 && r + f.c - f.n < f.n; });
  if (noneWrap)
    return "r" + signedTerm(f.base + f.c);
  if (allWrap)
    return "r" + signedTerm(f.base + f.c - f.n);
  const int shown = f.c > f.n / 2 ? f.c - f.n : f.c;
  return withBase(f.base, "(r" + signedTerm(shown) + ") mod " + std::to_string(f.n));
}

std::string minusText(const Formula& f, const std::vector<int>& ranks)
{
  const bool noneWrap =
      std::all_of(ranks.begin(), ranks.end(), [&](int r) { return f.c - r >= 0 && f.c - r < f.n; });
  const bool allWrap = std::all_of(
      ranks.begin(), ranks.end(), [&](int r) { return f.c - r + f.n >= 0 && f.c - r + f.n < f.n; });
  if (noneWrap)
    return std::to_string(f.base + f.c) + "-r";
  if (allWrap)
    return std::to_string(f.base + f.c + f.n) + "-r";
  return withBase(f.base, "(" + std::to_string(f.c) + "-r) mod " + std::to_string(f.n));
}

} // namespace

int Formula::evaluate(int r) const
{
  switch (form) {
  case Form::Const:
    return base;
  case Form::Plus:
    return base + floorMod(r + c, n);
  case Form::Minus:
    return base + floorMod(c - r, n);
  case Form::Xor:
    return base + (r ^ c);
  }
  return base;
}

std::vector<Formula> formulasThrough(int value, int r, int n)
{
  std::vector<Formula> formulas{{Form::Const, value, 0, n}};
  if (n < 2 || r < 0 || r >= n || value < 0)
    return formulas;
  const int base = blockBase(value, n);
  const int within = value - base;
  formulas.push_back({Form::Plus, base, floorMod(within - r, n), n});
  formulas.push_back({Form::Minus, base, floorMod(within + r, n), n});
  formulas.push_back({Form::Xor, base, within ^ r, n});
  return formulas;
}

std::string formulaText(const Formula& formula, const std::vector<int>& ranks)
{
  if (formula.form == Form::Const || ranks.size() == 1)
    return std::to_string(formula.evaluate(ranks.empty() ? 0 : ranks.front()));
  switch (formula.form) {
  case Form::Const:
    break;
  case Form::Plus:
    return plusText(formula, ranks);
  case Form::Minus:
    return minusText(formula, ranks);
  case Form::Xor:
    return withBase(formula.base, formula.base == 0 ? "r XOR " + std::to_string(formula.c)
                                                    : "(r XOR " + std::to_string(formula.c) + ")");
  }
  return {};
}

} // namespace cs::narration
