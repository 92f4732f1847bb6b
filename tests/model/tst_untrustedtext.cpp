// Text quoted from a file is made printable before any output shows it (engine/model/
// untrustedtext.h): ill-formed UTF-8 becomes U+FFFD per maximal subpart (Unicode §3.9), control
// characters other than tab and line feed too, and everything else is left exactly as it was.

#include "model/diagnostic.h"
#include "model/untrustedtext.h"

#include <QTest>

using namespace cs;

Q_DECLARE_METATYPE(std::string)

namespace {

const std::string kFffd = "\xef\xbf\xbd";

} // namespace

class Test_untrustedtext : public QObject
{
  Q_OBJECT

private slots:
  void printable_data();
  void printable();
  void diagnosticsAreKeptPrintable();
};

void Test_untrustedtext::printable_data()
{
  QTest::addColumn<std::string>("input");
  QTest::addColumn<std::string>("expected");
  QTest::addColumn<bool>("unchanged");
  QTest::newRow("ascii") << std::string("coll=\"allreduce\"") << std::string("coll=\"allreduce\"")
                         << true;
  QTest::newRow("tab and newline") << std::string("a\tb\nc") << std::string("a\tb\nc") << true;
  QTest::newRow("two to four bytes") << std::string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")
                                     << std::string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") << true;
  QTest::newRow("stray bytes") << std::string("all\xff\xfereduce")
                               << "all" + kFffd + kFffd + "reduce" << false;
  QTest::newRow("truncated at the end") << std::string("x\xe2\x82") << "x" + kFffd << false;
  QTest::newRow("truncated before ascii") << std::string("\xf0\x9f\x98y") << kFffd + "y" << false;
  QTest::newRow("overlong") << std::string("\xc0\xaf") << kFffd + kFffd << false;
  QTest::newRow("overlong three bytes")
      << std::string("\xe0\x80\xaf") << kFffd + kFffd + kFffd << false;
  QTest::newRow("surrogate") << std::string("\xed\xa0\x80") << kFffd + kFffd + kFffd << false;
  QTest::newRow("above U+10FFFF") << std::string("\xf4\x90\x80\x80")
                                  << kFffd + kFffd + kFffd + kFffd << false;
  QTest::newRow("escape sequence") << std::string("\x1b[31mred") << kFffd + "[31mred" << false;
  QTest::newRow("nul and delete") << std::string("a\0b\x7f", 4) << "a" + kFffd + "b" + kFffd
                                  << false;
  QTest::newRow("carriage return") << std::string("a\rb") << "a" + kFffd + "b" << false;
}

void Test_untrustedtext::printable()
{
  QFETCH(std::string, input);
  QFETCH(std::string, expected);
  QFETCH(bool, unchanged);
  QCOMPARE(isPrintableUtf8(input), unchanged);
  QCOMPARE(printableUtf8(input), expected);
  QVERIFY(isPrintableUtf8(printableUtf8(input)));
}

// Every diagnostic is recorded printable, whatever its message and location quote.
void Test_untrustedtext::diagnosticsAreKeptPrintable()
{
  Diagnostics diagnostics;
  Location location;
  location.element = "st\xff\xfe"
                     "ep";
  location.attribute = "c\x1bnt";
  diagnostics.warning("format.unknown-element",
                      "<st\xff\xfe"
                      "ep> is skipped",
                      location);
  const Diagnostic& d = diagnostics.items().front();
  QCOMPARE(d.message, "<st" + kFffd + kFffd + "ep> is skipped");
  QCOMPARE(d.location.element, "st" + kFffd + kFffd + "ep");
  QCOMPARE(d.location.attribute, "c" + kFffd + "nt");
}

QTEST_GUILESS_MAIN(Test_untrustedtext)
#include "tst_untrustedtext.moc"
