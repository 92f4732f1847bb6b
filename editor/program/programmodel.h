#pragma once

// The tree the program view shows: rank -> threadblock -> instruction, straight over
// Document::shownProgram() (the imported Program, or the one lowered from the timeline).
//
// Lazy by construction: no item objects. An index's row is the position in Program::gpus,
// Gpu::threadblocks or ThreadBlock::steps and its internal id names its parent, so the view only
// ever asks for what it paints. The model caches nothing but the tree's shape (how many rows
// each parent has, so row counts stay consistent until it is told the document changed) and
// lookup tables derived from the Analysis (which transfer an instruction came from, which
// problems point at it); cell values are read from the document on every data() call.
//
// Editing a cell (setData) builds the whole new Program with that one instruction changed and
// pushes a ReplaceProgramCommand; consecutive edits of the same cell of the same instruction
// merge into one undo step. Start in programedits.h for the edits themselves.

#include "model/diagnostic.h"
#include "model/program.h"
// After the engine headers: moc cannot parse <compare> when it comes first.
#include "document/playbackmarks.h"
#include "document/selection.h"

#include <QAbstractItemModel>
#include <QColor>
#include <QHash>
#include <QIcon>

#include <cstdint>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace cs::editor {

class Document;

class ProgramModel : public QAbstractItemModel
{
  Q_OBJECT

public:
  enum Column : int {
    StepColumn,        ///< `s` (the tree column; rank and threadblock rows span the row)
    TypeColumn,        ///< rcs, s, r, … (combo editor)
    SourceColumn,      ///< "i[3]", empty when the type reads no local operand
    DestinationColumn, ///< "o[0]", empty when the type writes nothing
    CountColumn,       ///< cnt
    DependsColumn,     ///< "tb 1 s 4" (double-click jumps there)
    HasDepColumn,      ///< check box
    TransferColumn,    ///< "#12": the timeline transfer the instruction was lowered from
    ColumnCount
  };
  enum class RowKind { None, Rank, ThreadBlock, Instruction };
  /// Why a row is tinted while an instruction is the focus.
  enum class Highlight { None, Focus, WaitedFor, Waiter };
  enum Role : int {
    HighlightRole = Qt::UserRole + 1, ///< Highlight as int (instruction rows)
    SeverityRole,                     ///< worst problem severity as int, or -1
    ProblemCountRole,                 ///< problems located in the row (rank rows: in the rank)
    TitleRole,                        ///< rank rows: "rank 3" (DisplayRole is title · detail)
    DetailRole,                       ///< rank rows: "24 threadblocks · 744 instructions · …"
    PlaybackRole,                     ///< instruction rows: Playback as int
  };
  /// Where an instruction stands in a replay following the document (setPlaybackMarks).
  enum class Playback { None, Pending, Running, Done, Blocked };

  explicit ProgramModel(Document* document, QObject* parent = nullptr);

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  RowKind rowKind(const QModelIndex& index) const;
  /// The instruction an instruction row shows, or nullopt for other rows.
  std::optional<InstructionRef> instructionAt(const QModelIndex& index) const;
  /// (rank id, threadblock id) of a threadblock row or of an instruction row's parent.
  std::optional<std::pair<int, int>> threadBlockAt(const QModelIndex& index) const;
  /// Rank id of any row.
  std::optional<int> rankAt(const QModelIndex& index) const;
  QModelIndex rankIndex(int rank) const;
  QModelIndex threadBlockIndex(int rank, int tb) const;
  QModelIndex instructionIndex(const InstructionRef& at, int column = StepColumn) const;

  /// Whether instructions may be edited now: a Program is shown and it is not the previous one
  /// standing in while a large Schedule is lowered in the background.
  bool isEditable() const;

  /// The transfer an instruction was lowered from, or -1.
  int transferAt(const InstructionRef& at) const;
  /// The instruction `at` waits for (its depid/deps), when that instruction exists.
  std::optional<InstructionRef> dependencyOf(const InstructionRef& at) const;
  /// The instructions on the same rank whose depid/deps name `at`.
  std::vector<InstructionRef> waitersOn(const InstructionRef& at) const;

  /// Tints the focus instruction, what it waits for and who waits on it.
  void setFocusInstruction(std::optional<InstructionRef> focus);
  std::optional<InstructionRef> focusInstruction() const { return m_focus; }

  /// The row tint of a highlight in the application's palette (for the view's legend too).
  static QColor highlightColor(Highlight highlight);

  /// A replay's marks: tints each threadblock's running instruction, the ones done and a stopped
  /// run's blocked ones (programplayback.cpp). Only the rows whose state changed are repainted.
  void setPlaybackMarks(const PlaybackMarks& marks);
  bool hasPlaybackMarks() const { return m_playback.active; }
  Playback playbackOf(const InstructionRef& at) const;
  /// The row tint of a playback state (for the view's legend too); invalid for None and Pending.
  static QColor playbackColor(Playback state);

  /// Re-reads the document after an edit: same shape -> dataChanged, otherwise a reset. Runs
  /// on every Document::analysisChanged by itself, before the slots of views created later.
  void refresh();

private:
  /// (rank, tb, step) packed for the lookup tables; tb or step -1 stand for "the whole".
  static std::uint64_t positionKey(int rank, int tb, int step);
  /// The rank row a threadblock row belongs to (from its internal id).
  static int rankRowOf(const QModelIndex& threadBlock);
  const Program* program() const;
  const Gpu* gpuAtRow(int row) const;
  const ThreadBlock* tbAtRow(int rankRow, int tbRow) const;
  QVariant rankData(int rankRow, int column, int role) const;
  QVariant threadBlockData(int rankRow, int tbRow, int column, int role) const;
  QVariant instructionData(const QModelIndex& index, int role) const;
  /// The text (display) or value (edit) of one instruction cell.
  QVariant instructionText(const Step& step, const InstructionRef& at, int column, int role) const;
  QVariant instructionBackground(const InstructionRef& at) const;
  QString problemText(std::uint64_t key) const;
  bool editInstruction(const QModelIndex& index, const QVariant& value, int role);
  void rebuildLookups();
  void emitRowChanged(const InstructionRef& at);
  /// A threadblock's place in the replay for its row: "running s 3", "blocked at s 1", "done";
  /// empty without marks.
  QString playbackText(int rank, int tb) const;
  /// dataChanged over the rows of threadblock (rank, tb) from instruction `first` to `last`.
  void emitRowsChanged(int rank, int tb, int first, int last);

  Document* m_document;
  /// m_shape[rankRow][tbRow] = number of steps; what rowCount answers until refresh().
  std::vector<std::vector<int>> m_shape;
  /// Problem indices per (rank, tb, step); tb or step -1 aggregate a threadblock or a rank.
  std::unordered_map<std::uint64_t, std::vector<int>> m_problemsAt;
  std::optional<InstructionRef> m_focus;
  std::optional<InstructionRef> m_waitedFor;
  std::set<InstructionRef> m_waiters;
  PlaybackMarks m_playback; ///< only `active` and `lanes` are kept
  mutable QHash<int, QIcon> m_rankIcons;
};

} // namespace cs::editor
