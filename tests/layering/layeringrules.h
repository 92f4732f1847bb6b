#pragma once

// The include rules of DESIGN.md §2, checked on a source tree read from disk (no compiler, no
// build). Each unit of the tree (a folder, or one registry file) has a rank; a file may include
// files of its own unit or of a unit of lower rank, never of a higher rank (upward) nor of another
// unit of the same rank (sideways). The ranks, lowest first:
//
//    0  engine/model                    the floor: includes nothing else of the engine
//    1  engine/io, check, compile, catalogue, sim, and engine/exec itself (the Executor
//       interface and what every backend polls with)
//    2  engine/analysis (check + compile + model), engine/replay (a recorded run executed with
//       the checker's symbolic values), engine/exec/plan (what every backend shares)
//    3  engine/exec/block (the block program the CUDA kernel runs and exec/gpu emulates),
//       engine/exec/cudart (the CUDA runtime's status type for exec/cuda and exec/nccl)
//    4  engine/exec/cpu, gpu, cuda, nccl (the executors: never each other)
//    5  engine/exec/backends.cpp (the registry: the one file that names every executor)
//   10  storage
//   20  editor/style, editor/document
//   21  editor/program, editor/timeline, editor/topology
//   22  editor/panels (the inspector edits program rows through program/programedits.h)
//   30  visualizer
//   40  app/collective-studio/window, app/cstudio/bench
//   41  app/collective-studio, app/cstudio (the two mains)
// The two programs under app/ never include each other. Besides the order:
//  - a header named *_p.h is included only from its own folder (tests/ may include any);
//  - engine/ and storage/ include no Qt header;
//  - a public header of engine/ or storage/ (a .h not named *_p.h), and every header it includes
//    directly or not, includes no CUDA, NCCL, SQLite, pugixml or Graphviz header outside a
//    device-only block (#if CS_DEVICE_PASS, __CUDACC__ or __CUDA_ARCH__);
//  - no source file (.h .cpp .cu .cuh) is longer than 600 lines.

#include <filesystem>
#include <string>
#include <vector>

namespace cs::test {

/// One broken rule: `rule` is one of the names in ruleNames(), `file` is relative to the tree's
/// root with '/' separators, `line` is 1-based (for a file length, the first line over the limit).
struct Violation {
  std::string rule;
  std::string file;
  int line = 0;
  std::string message;
  int fileLines = 0; ///< for a file length: the file's length in lines
};

/// The rule names a Violation carries.
namespace rules {
inline constexpr const char* order = "layer order";
inline constexpr const char* executors = "executors apart";
inline constexpr const char* privateHeader = "private header";
inline constexpr const char* qt = "no Qt";
inline constexpr const char* thirdParty = "public header";
inline constexpr const char* fileLength = "file length";
} // namespace rules

/// The longest source file allowed, in lines.
inline constexpr int maxFileLines = 600;

/// Checks every source under engine/ storage/ editor/ visualizer/ app/ (and tests/, for the file
/// length only) of the tree at `root`, in a stable order (by file, then line).
std::vector<Violation> checkTree(const std::filesystem::path& root);

/// "file:line: [rule] message", one violation per line; for failure messages.
std::string describe(const std::vector<Violation>& violations);

} // namespace cs::test
