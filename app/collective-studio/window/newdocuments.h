#pragma once

// How New makes a document: an empty Schedule shaped for a collective, or a classic algorithm
// from the catalogue (library/catalog.h) with a topology preset sized to its ranks. No widgets:
// the New dialog, MainWindow::newFromAlgorithm and tests share these.

#include "document/documentstate.h"

#include "catalogue/catalogue.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace cs::editor {

/// The shape of an empty document, as docs/editor.md describes the New dialog's fields.
struct EmptyDocumentOptions {
  Collective collective = Collective::AllReduce;
  int ranks = 4;
  /// Chunks in each rank's input buffer (the guide's "4 input chunks per rank"). The output
  /// follows from the collective: as many for all-reduce, broadcast, reduce and all-to-all,
  /// ranks times as many for all-gather, a ranks-th for reduce-scatter.
  int inputChunks = 4;
  /// In place: the output is the input (no separate o[k] rows) where the two have one size.
  bool inPlace = true;
};

/// The chunk counts each rank of an empty document gets for `options`.
RankBuffers emptyDocumentBuffers(const EmptyDocumentOptions& options);

/// Why `options` cannot make a document ("reduce-scatter splits the input among the 4 ranks:
/// choose a multiple of 4 input chunks"), or an empty string.
QString emptyDocumentProblem(const EmptyDocumentOptions& options);

/// The New dialog's preview of the buffers: "Per rank: i 4 chunks, o 4 chunks, s 0 — 32
/// timeline rows (4 ranks × 8)"; "o = i (in place)" when the output is the input.
QString describeEmptyDocument(const EmptyDocumentOptions& options);

/// The collectives an empty document can be made for, in the order the dialog lists them.
std::vector<Collective> newDocumentCollectives();

/// An empty Schedule with the buffers `options.collective` needs and no transfers.
DocumentState emptyDocumentState(const EmptyDocumentOptions& options);

/// The catalogue algorithm `key` generated for `options`, with the topology `presetName`
/// (empty: none). nullopt with the reason in `error` when the algorithm does not exist for the
/// options or the preset cannot be built.
std::optional<DocumentState> algorithmDocumentState(const QString& key,
                                                    const GeneratorOptions& options,
                                                    const QString& presetName,
                                                    QString* error = nullptr);

/// Topology presets that fit `ranks` GPUs: "ring-N", "fully-connected-N", the square-ish torus when
/// ranks factorises, and the fixed machines with exactly that many GPUs.
QStringList presetsForRanks(int ranks);

} // namespace cs::editor
