#pragma once

// "1 error", "3 errors": counted nouns without a translation catalogue (Qt's %n plural forms
// only pick the right English form when an English .qm is loaded, which this program ships none
// of).

#include <QLocale>
#include <QString>

namespace cs::editor {

/// `count` followed by `singular` when it is 1, else `plural`.
/// Numbers are grouped as the user's locale does ("11,904"; English grouping for the C locale).
inline QString counted(long long count, const QString& singular, const QString& plural)
{
  QLocale locale;
  if (locale.language() == QLocale::C)
    locale = QLocale(QLocale::English);
  return locale.toString(count) + QLatin1Char(' ') + (count == 1 ? singular : plural);
}

} // namespace cs::editor
