#pragma once

// What the Run panel's and the Sweep window's tests start from: the catalogue's 4-rank ring as a
// document with its analysis finished, and an unseeded library in a temporary folder to store
// runs in. Header-only: only tests that link the visualizer include it.

#include "catalogue/ringallreduce.h"
#include "document/document.h"
#include "library.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace cs::test {

struct RingWithLibrary {
  std::unique_ptr<QTemporaryDir> dir;
  std::unique_ptr<storage::Library> library;
  std::unique_ptr<editor::Document> document;

  /// Opens both afresh; QVERIFY fails the calling test when either cannot be made.
  void open()
  {
    dir = std::make_unique<QTemporaryDir>();
    QVERIFY(dir->isValid());
    storage::OpenOptions options;
    options.seed = false;
    auto opened = storage::Library::open(dir->filePath("library.sqlite").toStdString(), options);
    QVERIFY(opened.ok());
    library = std::make_unique<storage::Library>(std::move(opened.value()));
    document = std::make_unique<editor::Document>();
    document->setProgram(makeRingAllReduce({4, 1, Protocol::Simple}));
    document->waitForAnalysis();
    QVERIFY(document->shownProgram().has_value());
  }
};

} // namespace cs::test
