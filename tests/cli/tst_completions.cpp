// The shell completions `cstudio completions bash|zsh|fish` writes from the CLI definition name
// every subcommand and option that the program's own --help lists (read here independently, from
// the help text), and each shell, loading its script, offers exactly the subcommands of the
// command typed so far. The hidden completions command stays out of --help and of the scripts.

#include "support/cli.h"

#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using cs::test::cstudio;

namespace {

/// What --help lists for one command path.
struct HelpEntry {
  QStringList subcommands;
  QStringList options; ///< every spelling: --long and -s
};

/// The entries of `section` ("Subcommands:", "Options:") of a CLI11 help text: the first word of
/// each line indented by two spaces, up to the next section.
QStringList sectionWords(const QString& help, const QString& section)
{
  QStringList words;
  bool inside = false;
  for (const QString& line : help.split('\n')) {
    if (!line.startsWith(' ') && !line.isEmpty())
      inside = line == section;
    static const QRegularExpression entry(QStringLiteral("^  (\\S+)"));
    const QRegularExpressionMatch match = entry.match(line);
    if (inside && match.hasMatch())
      words << match.captured(1);
  }
  return words;
}

/// Every command path's --help, from `cstudio --help` down.
QMap<QString, HelpEntry> helpTree()
{
  QMap<QString, HelpEntry> tree;
  QStringList pending = {QString()};
  while (!pending.isEmpty()) {
    const QString path = pending.takeFirst();
    QStringList arguments = path.split(' ', Qt::SkipEmptyParts);
    const cs::test::CliRun run = cstudio(arguments << "--help");
    HelpEntry entry;
    entry.subcommands = sectionWords(run.out, "Subcommands:");
    for (const QString& names : sectionWords(run.out, "Options:"))
      entry.options << names.split(',');
    for (const QString& sub : entry.subcommands)
      pending << (path.isEmpty() ? sub : path + ' ' + sub);
    tree.insert(path, entry);
  }
  return tree;
}

/// Runs `program arguments` and returns its standard output; fails the test on an error.
QString runShell(const QString& program, const QStringList& arguments)
{
  QProcess process;
  process.start(program, arguments);
  if (!process.waitForFinished(60000) || process.exitCode() != 0)
    qWarning("%s failed: %s", qPrintable(program), process.readAllStandardError().constData());
  return QString::fromUtf8(process.readAllStandardOutput());
}

/// One row per shell the completions are written for.
void addShellRows()
{
  QTest::addColumn<QString>("shell");
  QTest::newRow("bash") << "bash";
  QTest::newRow("zsh") << "zsh";
  QTest::newRow("fish") << "fish";
}

QStringList sortedWords(const QString& text)
{
  QStringList words = text.split(QRegularExpression("\\s+"), Qt::SkipEmptyParts);
  words.sort();
  return words;
}

} // namespace

class TestCompletions : public QObject
{
  Q_OBJECT

private slots:
  void initTestCase();
  void completionsCommandIsHidden();
  void everyScriptNamesEverySubcommandAndOption_data();
  void everyScriptNamesEverySubcommandAndOption();
  void shellsOfferTheSubcommandsTyped_data();
  void shellsOfferTheSubcommandsTyped();

private:
  QMap<QString, HelpEntry> m_help;
  QTemporaryDir m_dir;
};

void TestCompletions::initTestCase()
{
  m_help = helpTree();
  // The walk reached the nested commands, so the checks below have something to check.
  QVERIFY(m_help.value("").subcommands.contains("library"));
  QVERIFY(m_help.value("library").subcommands.contains("list"));
  QVERIFY(m_help.value("validate").options.contains("--dialect"));
}

void TestCompletions::completionsCommandIsHidden()
{
  QVERIFY(!m_help.value("").subcommands.contains("completions"));
  for (const QString shell : {"bash", "zsh", "fish"}) {
    const cs::test::CliRun run = cstudio({"completions", shell});
    QCOMPARE(run.exitCode, 0);
    // Named once: in the header that says which command wrote the script.
    QVERIFY2(run.out.count("completions") == 1, qPrintable(shell));
  }
  QCOMPARE(cstudio({"completions", "tcsh"}).exitCode, 2);
}

void TestCompletions::everyScriptNamesEverySubcommandAndOption_data()
{
  addShellRows();
}

void TestCompletions::everyScriptNamesEverySubcommandAndOption()
{
  QFETCH(QString, shell);
  const QString script = cstudio({"completions", shell}).out;
  for (auto it = m_help.begin(); it != m_help.end(); ++it) {
    const QString path = it.key();
    // Each script keys what it offers by the command path, quoted for the shell.
    const QString bashLine = "'" + path + "') echo '";
    const QString fishAt = "complete -c cstudio -n '__cstudio_at \\'" + path + "\\''";
    for (const QString& sub : it->subcommands) {
      bool named = false;
      if (shell == "bash")
        named = script.contains(
            QRegularExpression(QRegularExpression::escape(bashLine) + "[^']*\\b" + sub + "\\b"));
      else if (shell == "zsh")
        named = script.contains("'" + sub + ":");
      else
        named = script.contains(fishAt + " -a '" + sub + "'");
      QVERIFY2(named, qPrintable(shell + ": " + path + " " + sub));
    }
    for (const QString& option : it->options) {
      bool named = false;
      if (shell == "bash")
        named = script.contains(QRegularExpression(QRegularExpression::escape(bashLine) +
                                                   "[^']*(?<=['\\s])" + option + "(\\s|')"));
      else if (shell == "zsh")
        named = script.contains("'" + option + ":");
      else
        named = script.contains(QRegularExpression(
            QRegularExpression::escape(fishAt) + ".* -" + (option.startsWith("--") ? "l " : "s ") +
            QRegularExpression::escape(option.mid(option.startsWith("--") ? 2 : 1)) + " "));
      QVERIFY2(named, qPrintable(shell + ": " + path + " " + option));
    }
  }
}

void TestCompletions::shellsOfferTheSubcommandsTyped_data()
{
  addShellRows();
}

void TestCompletions::shellsOfferTheSubcommandsTyped()
{
  QFETCH(QString, shell);
  const QString program = QStandardPaths::findExecutable(shell);
  if (program.isEmpty())
    QSKIP(qPrintable(shell + " is not installed (scripts/install-deps.sh installs it)"));
  const QString script = m_dir.filePath("cstudio." + shell);
  QVERIFY(cs::test::writeFile(script, cstudio({"completions", shell}).out.toUtf8()));
  for (auto it = m_help.begin(); it != m_help.end(); ++it) {
    if (it->subcommands.isEmpty())
      continue;
    const QString typed = ("cstudio " + it.key()).trimmed();
    QString offered;
    if (shell == "bash") {
      offered = runShell(program, {"-c", QString("source '%1'; COMP_WORDS=(%2 ''); "
                                                 "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                                                 "_cstudio; printf '%s\\n' \"${COMPREPLY[@]}\"")
                                             .arg(script, typed)});
    } else if (shell == "zsh") {
      // The completion system's helpers replaced by ones that print what they are given.
      offered = runShell(program, {"-fc", QString("_describe() { print -l -- ${(P)4%%:*}; }; "
                                                  "_files() { print FILES; }; words=(%2 ''); "
                                                  "CURRENT=${#words}; source '%1'")
                                              .arg(script, typed)});
      offered.replace(QRegularExpression(":[^\\n]*"), QString());
    } else {
      offered =
          runShell(program, {"-c", QString("source '%1'; complete -C '%2 '").arg(script, typed)});
      offered.replace(QRegularExpression("\\t[^\\n]*"), QString());
    }
    QStringList expected = it->subcommands;
    expected.sort();
    QCOMPARE(sortedWords(offered), expected);
  }
}

QTEST_MAIN(TestCompletions)
#include "tst_completions.moc"
