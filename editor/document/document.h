#pragma once

// The open algorithm (STYLE.md 3, 5): its DocumentState, the undo stack every edit goes through,
// the selection shared by all views, and the checker's Analysis, recomputed after each change.
//
// Invariants: only QUndoCommands call the mutators below (views push commands, never mutate);
// the modified flag is the undo stack's clean state; every mutation emits changed() and then
// analysisChanged() once the new Analysis is in place. Start with the commands in
// editor/document/commands when adding an edit.

#include "analysis.h"
#include "changeevent.h"
#include "documentstate.h"
#include "selection.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QUndoStack>

#include <optional>
#include <vector>

namespace cs::editor {

/// Where a document was loaded from or last saved to, so Save and the title know it.
struct DocumentOrigin {
  QString filePath = {};    ///< design document (.json) or MSCCL XML file; empty for new ones
  QString libraryName = {}; ///< algorithm name in the SQLite library, when opened from there
  int libraryVersion = 0;   ///< version number opened from the library (0: none)
};

class Document : public QObject
{
  Q_OBJECT

public:
  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  // Reading.
  const DocumentState& state() const { return m_state; }
  const Schedule& schedule() const { return m_state.design.schedule; }
  const std::optional<Topology>& topology() const { return m_state.design.topology; }
  const LowerOptions& lowering() const { return m_state.lowering; }
  Source source() const { return m_state.source(); }
  const Analysis& analysis() const { return m_analysis; }
  /// The Schedule the timeline shows: the document's or the lifted Program's (may be absent).
  const std::optional<Schedule>& shownSchedule() const { return m_analysis.schedule; }
  /// The Program the program view shows: the imported one or the lowered Schedule.
  const std::optional<Program>& shownProgram() const { return m_analysis.program; }

  QUndoStack* undoStack() { return &m_undoStack; }
  bool isModified() const { return !m_undoStack.isClean(); }
  const DocumentOrigin& origin() const { return m_origin; }
  void setOrigin(const DocumentOrigin& origin);
  /// The name the document came with (from its file, generator or library; set by reset) or was
  /// last given by Save As or Save to Library: a different Name was typed by the user.
  const std::string& givenName() const { return m_givenName; }
  void setGivenName(std::string name) { m_givenName = std::move(name); }
  /// "ring-allreduce-4" or the file name; "Untitled" for a new document.
  QString displayName() const;

  const Selection& selection() const { return m_selection; }
  void setSelection(const Selection& selection);
  /// Selects exactly one transfer (and the first instruction it became).
  void selectTransfer(int transferId);

  /// Replaces everything (New, Open, recovery): clears the undo stack and marks it clean unless
  /// `modified` (a recovered document is unsaved work).
  void reset(DocumentState state, const DocumentOrigin& origin, bool modified = false);
  /// Marks the current state as saved.
  void markSaved();

  // Mutators: called by commands only. Each emits changed() and re-runs the analysis.

  /// Inserts or replaces transfers by id (the Schedule becomes the source).
  void putTransfers(const std::vector<Transfer>& transfers);
  void removeTransfers(const std::vector<int>& ids);
  /// Replaces the whole Schedule (shape edits, generated algorithms); the Schedule becomes the
  /// source.
  void setSchedule(Schedule schedule);
  void setTopology(std::optional<Topology> topology, std::vector<int> changedNodes = {});
  /// Makes `program` the source (or, with nullopt, the Schedule again).
  void setProgram(std::optional<Program> program);
  void setLowering(const LowerOptions& options);
  void setNotes(std::string notes);
  /// Restores a whole state (undo of edits that switch the source).
  void setState(DocumentState state);

  /// Blocks until a background analysis (large Schedules, see analysisIsExpensive) is in place;
  /// returns at once when none runs. For tests, exports and saves that need the Program.
  void waitForAnalysis();

signals:
  void changed(const cs::editor::ChangeEvent& event);
  void analysisChanged();
  void selectionChanged();
  void modifiedChanged(bool modified);
  void originChanged();
  /// reset() replaced the document (New, Open, recovery): views go back to their default tools.
  /// Emitted after changed() and before originChanged(), so a Save As (originChanged() alone)
  /// can be told from an Open.
  void replaced();

private:
  void commit(const ChangeEvent& event);
  /// Once an edit makes the Schedule the source, the imported Program no longer is.
  void adoptScheduleAsSource();
  /// After an edit or an undo: drops selected items that no longer exist, and the instruction of
  /// a selected transfer that is gone (it would name an unrelated instruction after lowering).
  void pruneSelection();
  void applyBackgroundAnalysis();

  DocumentState m_state;
  Analysis m_analysis;
  Selection m_selection;
  DocumentOrigin m_origin;
  std::string m_givenName;
  QUndoStack m_undoStack;
  QFutureWatcher<Analysis> m_background;
  /// Incremented by every change; a background result for an older generation is dropped.
  quint64 m_generation = 0;
  quint64 m_backgroundGeneration = 0;
  bool m_backgroundApplied = true;
};

} // namespace cs::editor
