#include "textformat.h"

#include <QLocale>

namespace cs::editor {

QString groupedNumber(long long n)
{
  QLocale locale;
  // The C locale (tests, minimal systems) omits group separators; English keeps them readable.
  if (locale.language() == QLocale::C)
    locale = QLocale(QLocale::English, QLocale::UnitedStates);
  return locale.toString(n);
}

QString countText(long long n, const QString& singular, const QString& plural)
{
  return groupedNumber(n) + QLatin1Char(' ') + (n == 1 ? singular : plural);
}

} // namespace cs::editor
