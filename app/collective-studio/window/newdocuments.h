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

/// The shape of an empty document.
struct EmptyDocumentOptions {
  Collective collective = Collective::AllReduce;
  int ranks = 4;
  /// Chunks each rank contributes (K); the collective's large buffers get K · ranks chunks.
  int chunksPerRank = 1;
  bool inPlace = true;
};

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
