#pragma once

// Access to the shared MSCCL XML corpus (../shared/corpus), read in place and never modified.
// .ci/run points CSTUDIO_CORPUS_DIR at it; without that variable (a user's clone) corpus tests
// skip with a message instead of failing. A variable that names no corpus (a missing folder, or
// one without *.xml files) fails them: a broken CI setup must not pass as "skipped".

#include "model/diagnostic.h"
#include "model/program.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace cs::test {

/// The corpus directory from CSTUDIO_CORPUS_DIR, or an empty string.
QString corpusDir();
/// Why CSTUDIO_CORPUS_DIR, when set, names no usable corpus; empty when it does or is unset.
QString corpusProblem();
/// Absolute paths of the corpus's *.xml files, sorted by name.
QStringList corpusFiles();
/// The full path of a corpus file by its name.
QString corpusPath(const QString& name);

/// One row of corpus/MANIFEST.md: column title → cell text.
using ManifestRow = QMap<QString, QString>;
/// Rows of every table in MANIFEST.md, by file name.
QMap<QString, ManifestRow> readManifest();

/// Reads a program from a file or fails the current test with the reader's diagnostics.
Program loadProgram(const QString& path);

/// All codes in `diagnostics`, one per line, with their messages; for failure messages.
QString describeDiagnostics(const std::vector<Diagnostic>& diagnostics);
/// Whether some diagnostic of at least `minimum` severity has `code` or a code inside it.
bool hasCode(const std::vector<Diagnostic>& diagnostics, const char* code,
             Severity minimum = Severity::Info);

} // namespace cs::test

/// Skips the current test (or the whole data-driven test from its _data function) without the
/// corpus; fails it when CSTUDIO_CORPUS_DIR is set but names no corpus.
#define CS_REQUIRE_CORPUS()                                                                        \
  do {                                                                                             \
    if (const QString problem = cs::test::corpusProblem(); !problem.isEmpty())                     \
      QFAIL(qPrintable(problem));                                                                  \
    if (cs::test::corpusDir().isEmpty())                                                           \
      QSKIP("CSTUDIO_CORPUS_DIR is not set; .ci/run points it at ../shared/corpus");               \
  } while (false)
