#pragma once

// A small valid MSCCL document for the reader's tests, and the helpers that break it in one
// place: tests/io/tst_reader.cpp and tst_runtimereader.cpp start from it.

#include "io/mscclxmlreader.h"

#include <QByteArray>
#include <QString>
#include <QtGlobal>

namespace cs::test {

/// Two ranks, one threadblock each, two steps each; line numbers in the comments.
inline const char* const kSmallAlgo =
    "<algo name=\"t\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"2\" ngpus=\"2\" "
    "coll=\"allreduce\" inplace=\"1\">\n"                             // 1
    "  <gpu id=\"0\" i_chunks=\"2\" o_chunks=\"0\" s_chunks=\"0\">\n" // 2
    "    <tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">\n"            // 3
    "      <step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\" "
    "cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n" // 4
    "      <step s=\"1\" type=\"rrc\" srcbuf=\"i\" srcoff=\"1\" dstbuf=\"i\" dstoff=\"1\" "
    "cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n" // 5
    "    </tb>\n"
    "  </gpu>\n"
    "  <gpu id=\"1\" i_chunks=\"2\" o_chunks=\"0\" s_chunks=\"0\">\n"
    "    <tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">\n"
    "      <step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"1\" dstbuf=\"i\" dstoff=\"1\" "
    "cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n"
    "      <step s=\"1\" type=\"rrc\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"i\" dstoff=\"0\" "
    "cnt=\"1\" depid=\"-1\" deps=\"-1\" hasdep=\"0\"/>\n"
    "    </tb>\n"
    "  </gpu>\n"
    "</algo>\n";

/// `document` with the first `before` replaced by `after`; a test that names text the document
/// lacks stops at once.
inline QByteArray replacedIn(QByteArray document, const QByteArray& before, const QByteArray& after)
{
  const qsizetype at = document.indexOf(before);
  if (at < 0)
    qFatal("test document lacks \"%s\"", before.constData());
  document.replace(at, before.size(), after);
  return document;
}

/// The first diagnostic with `code`, or nullptr.
inline const Diagnostic* findCode(const ReadResult& result, const QString& code)
{
  for (const Diagnostic& d : result.diagnostics) {
    if (QString::fromStdString(d.code) == code)
      return &d;
  }
  return nullptr;
}

} // namespace cs::test
