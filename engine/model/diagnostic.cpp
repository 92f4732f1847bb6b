#include "model/diagnostic.h"
#include "model/untrustedtext.h"

#include <algorithm>

namespace cs {

std::string_view severityName(Severity severity)
{
  switch (severity) {
  case Severity::Info:
    return "info";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "?";
}

std::string describe(const Location& location)
{
  std::string text;
  auto part = [&text](std::string_view label, int value) {
    if (value < 0)
      return;
    if (!text.empty())
      text += ' ';
    text += label;
    text += ' ';
    text += std::to_string(value);
  };
  part("rank", location.rank);
  part("tb", location.tb);
  part("step", location.step);
  part("transfer", location.transfer);
  part("link", location.link);
  return text;
}

bool codeInCategory(std::string_view code, std::string_view category)
{
  if (!code.starts_with(category))
    return false;
  return code.size() == category.size() || code[category.size()] == '.';
}

Diagnostic& Diagnostics::add(Severity severity, std::string code, std::string message,
                             Location location)
{
  // Messages and locations quote the file's own text, which may hold any bytes: keep what every
  // surface (JSON, a terminal, the Problems panel, the library) shows well-formed.
  if (!isPrintableUtf8(message))
    message = printableUtf8(message);
  if (!isPrintableUtf8(location.element))
    location.element = printableUtf8(location.element);
  if (!isPrintableUtf8(location.attribute))
    location.attribute = printableUtf8(location.attribute);
  m_items.push_back({severity, std::move(code), std::move(message), std::move(location), {}});
  return m_items.back();
}

Diagnostic& Diagnostics::error(std::string code, std::string message, Location location)
{
  return add(Severity::Error, std::move(code), std::move(message), std::move(location));
}

Diagnostic& Diagnostics::warning(std::string code, std::string message, Location location)
{
  return add(Severity::Warning, std::move(code), std::move(message), std::move(location));
}

Diagnostic& Diagnostics::info(std::string code, std::string message, Location location)
{
  return add(Severity::Info, std::move(code), std::move(message), std::move(location));
}

void Diagnostics::append(const std::vector<Diagnostic>& more)
{
  m_items.insert(m_items.end(), more.begin(), more.end());
}

bool Diagnostics::hasErrors() const
{
  return count(Severity::Error) > 0;
}

int Diagnostics::count(Severity severity) const
{
  return static_cast<int>(
      std::count_if(m_items.begin(), m_items.end(),
                    [severity](const Diagnostic& d) { return d.severity == severity; }));
}

bool Diagnostics::contains(std::string_view code) const
{
  return std::any_of(m_items.begin(), m_items.end(),
                     [code](const Diagnostic& d) { return codeInCategory(d.code, code); });
}

} // namespace cs
