#include "layeringrules.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace cs::test {

namespace {

/// A folder (or one file) of the tree and its rank in DESIGN.md §2's order (see the header).
struct Unit {
  const char* prefix;
  int rank;
};

constexpr Unit units[] = {
    {"engine/model", 0},
    {"engine/io", 1},
    {"engine/check", 1},
    {"engine/compile", 1},
    {"engine/catalogue", 1},
    {"engine/sim", 1},
    {"engine/exec", 1},
    {"engine/analysis", 2},
    {"engine/replay", 2}, // executes a recorded run with the checker's symbolic values
    {"engine/exec/plan", 2},
    {"engine/exec/block", 3}, // the block program the CUDA kernel runs and gpu/ emulates
    {"engine/exec/cudart", 3},
    {"engine/exec/cpu", 4},
    {"engine/exec/gpu", 4},
    {"engine/exec/cuda", 4},
    {"engine/exec/nccl", 4},
    {"engine/exec/backends.cpp", 5},
    {"engine/teach", 6}, // runs the CPU executor on a broken algorithm to show what it does
    {"storage", 10},
    {"editor/style", 20},
    {"editor/document", 20},
    {"editor/program", 21},
    {"editor/timeline", 21},
    {"editor/topology", 21},
    {"editor/panels", 22},
    {"visualizer", 30},
    {"app/collective-studio/window", 40},
    {"app/cstudio/bench", 40},
    {"app/collective-studio", 41},
    {"app/cstudio", 41},
};
constexpr int executorRank = 4;

/// The folders that hold product code; tests/ is read for the file length only.
const char* const productDirs[] = {"engine", "storage", "editor", "visualizer", "app"};
/// Where a quoted include is looked up after the including file's own folder (the targets'
/// public include directories).
const char* const includeRoots[] = {
    "engine", "storage", "editor", "visualizer", "app/collective-studio", "app/cstudio/bench"};
/// Headers of the libraries a public header must not expose (DESIGN.md §2, STYLE.md 9).
const char* const heavyPrefixes[] = {
    "cuda",      "cub/", "cublas", "curand", "thrust/", "cooperative_groups",
    "nccl",      "nvml", "nvrtc",  "nvtx",   "sqlite3", "pugi",
    "graphviz/", "gvc",  "cgraph", "cdt.h"};

struct Include {
  std::string name;
  int line = 0;
  bool angled = false;
  bool deviceOnly = false; // inside #if CS_DEVICE_PASS / __CUDACC__ / __CUDA_ARCH__
};

struct SourceFile {
  std::vector<Include> includes;
  int lines = 0;
};

bool startsWith(const std::string& text, const std::string& prefix)
{
  return text.compare(0, prefix.size(), prefix) == 0;
}

bool isSource(const fs::path& path)
{
  const std::string ext = path.extension().string();
  return ext == ".h" || ext == ".cpp" || ext == ".cu" || ext == ".cuh";
}

bool isPrivateHeader(const std::string& file)
{
  return file.size() > 4 && file.compare(file.size() - 4, 4, "_p.h") == 0;
}

std::string folderOf(const std::string& file)
{
  const auto slash = file.rfind('/');
  return slash == std::string::npos ? std::string() : file.substr(0, slash);
}

/// Reads the includes of one file, tracking which #if blocks are device-only.
SourceFile readSource(const fs::path& path)
{
  static const std::regex includeLine(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
  static const std::regex conditional(R"(^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*))");
  static const std::regex deviceMacro(R"(CS_DEVICE_PASS|__CUDACC__|__CUDA_ARCH__)");
  SourceFile source;
  std::vector<bool> device; // one entry per open #if: is its current branch device-only?
  std::ifstream in(path);
  std::string text;
  std::smatch match;
  while (std::getline(in, text)) {
    ++source.lines;
    if (std::regex_search(text, match, conditional)) {
      const std::string directive = match[1];
      const std::string condition = match[2];
      const bool mentions = std::regex_search(condition, deviceMacro);
      const bool negated = directive == "ifndef" || condition.find('!') != std::string::npos;
      if (directive == "if" || directive == "ifdef" || directive == "ifndef")
        device.push_back(mentions && !negated);
      else if (directive == "endif" && !device.empty())
        device.pop_back();
      else if (!device.empty()) // #else and #elif leave a device-only branch
        device.back() = directive == "elif" && mentions && !negated;
    } else if (std::regex_search(text, match, includeLine)) {
      const bool inDevice = std::find(device.begin(), device.end(), true) != device.end();
      source.includes.push_back({match[2], source.lines, match[1] == "<", inDevice});
    }
  }
  return source;
}

class Checker
{
public:
  explicit Checker(const fs::path& root) : m_root(root) {}

  std::vector<Violation> run()
  {
    for (const char* dir : productDirs)
      read(dir, true);
    read("tests", false);
    for (const auto& [file, source] : m_files) {
      checkLength(file, source);
      if (isProduct(file))
        checkIncludes(file, source);
    }
    for (const auto& [file, source] : m_files) {
      if (isPublicHeader(file))
        checkPublicHeader(file);
    }
    std::sort(m_violations.begin(), m_violations.end(), [](const auto& a, const auto& b) {
      return std::tie(a.file, a.line, a.rule) < std::tie(b.file, b.line, b.rule);
    });
    return m_violations;
  }

private:
  void read(const char* dir, bool product)
  {
    const fs::path top = m_root / dir;
    if (!fs::is_directory(top))
      return;
    for (const auto& entry : fs::recursive_directory_iterator(top)) {
      if (!entry.is_regular_file() || !isSource(entry.path()))
        continue;
      const std::string file = fs::relative(entry.path(), m_root).generic_string();
      m_files[file] = readSource(entry.path());
      if (product)
        m_product.insert(file);
    }
  }

  bool isProduct(const std::string& file) const { return m_product.count(file) > 0; }

  bool isPublicHeader(const std::string& file) const
  {
    // engine/exec/cudart describes the CUDA runtime's own status type to the two targets that
    // link it (exec/cuda, exec/nccl); it is compiled only into them, never into cs_engine.
    return (startsWith(file, "engine/") || startsWith(file, "storage/")) &&
           !startsWith(file, "engine/exec/cudart/") && fs::path(file).extension() == ".h" &&
           !isPrivateHeader(file);
  }

  /// The file a quoted include names, as the compiler would find it, or "" (a generated file).
  std::string resolve(const std::string& from, const std::string& name) const
  {
    std::vector<fs::path> candidates{fs::path(folderOf(from)) / name};
    for (const char* root : includeRoots)
      candidates.push_back(fs::path(root) / name);
    for (const fs::path& candidate : candidates) {
      const std::string file = candidate.lexically_normal().generic_string();
      if (m_files.count(file))
        return file;
    }
    return {};
  }

  static std::optional<Unit> unitOf(const std::string& file)
  {
    std::optional<Unit> best;
    for (const Unit& unit : units) {
      const std::string prefix = unit.prefix;
      const bool inside = file == prefix || startsWith(file, prefix + "/");
      if (inside && (!best || prefix.size() > std::string(best->prefix).size()))
        best = unit;
    }
    return best;
  }

  /// "collective-studio" or "cstudio" for a file under app/, else "".
  static std::string programOf(const std::string& file)
  {
    if (!startsWith(file, "app/"))
      return {};
    const std::string rest = file.substr(4);
    return rest.substr(0, rest.find('/'));
  }

  void report(const char* rule, const std::string& file, int line, const std::string& message,
              int fileLines = 0)
  {
    m_violations.push_back({rule, file, line, message, fileLines});
  }

  void checkLength(const std::string& file, const SourceFile& source)
  {
    if (source.lines > maxFileLines) {
      report(rules::fileLength, file, maxFileLines + 1,
             std::to_string(source.lines) + " lines, the limit is " + std::to_string(maxFileLines),
             source.lines);
    }
  }

  void checkIncludes(const std::string& file, const SourceFile& source)
  {
    const std::optional<Unit> from = unitOf(file);
    if (!from)
      report(rules::order, file, 1, "folder has no rank in the layering table (tst_layering)");
    for (const Include& include : source.includes) {
      const bool engineOrStorage = startsWith(file, "engine/") || startsWith(file, "storage/");
      if (include.angled && engineOrStorage && include.name.size() > 1 && include.name[0] == 'Q' &&
          std::isalpha(static_cast<unsigned char>(include.name[1])))
        report(rules::qt, file, include.line, "includes <" + include.name + ">");
      if (include.angled)
        continue;
      const std::string target = resolve(file, include.name);
      if (target.empty())
        continue;
      if (isPrivateHeader(target) && folderOf(target) != folderOf(file))
        report(rules::privateHeader, file, include.line,
               "includes " + target + ", private to " + folderOf(target) + "/");
      checkOrder(file, from, include, target);
    }
  }

  void checkOrder(const std::string& file, const std::optional<Unit>& from, const Include& include,
                  const std::string& target)
  {
    const std::optional<Unit> to = unitOf(target);
    if (!from || !to || std::string(from->prefix) == to->prefix)
      return;
    const std::string what = "includes " + target + " (" + to->prefix + ", rank " +
                             std::to_string(to->rank) + ") from " + from->prefix + ", rank " +
                             std::to_string(from->rank);
    if (from->rank == executorRank && to->rank == executorRank)
      report(rules::executors, file, include.line, what + ": executors never include each other");
    else if (to->rank > from->rank)
      report(rules::order, file, include.line, what + ": an upward dependency");
    else if (to->rank == from->rank)
      report(rules::order, file, include.line, what + ": a sideways dependency");
    else if (programOf(file) != programOf(target) && !programOf(target).empty())
      report(rules::order, file, include.line, what + ": the two programs are apart");
  }

  /// Walks every header `header` includes, directly or not, for a heavy library's header.
  void checkPublicHeader(const std::string& header)
  {
    std::vector<std::string> pending{header};
    std::set<std::string> seen{header};
    while (!pending.empty()) {
      const std::string file = pending.back();
      pending.pop_back();
      for (const Include& include : m_files.at(file).includes) {
        // A quoted include that names a file of the tree is ours, whatever its name.
        const std::string target = include.angled ? "" : resolve(file, include.name);
        if (!target.empty()) {
          if (seen.insert(target).second)
            pending.push_back(target);
        } else if (isHeavy(include) && m_reported.insert({file, include.line}).second) {
          const std::string via =
              file == header ? "" : " (reached from public header " + header + ")";
          report(rules::thirdParty, file, include.line,
                 "includes " + include.name + " in the public face of the engine or storage" + via);
        }
      }
    }
  }

  static bool isHeavy(const Include& include)
  {
    if (include.deviceOnly)
      return false;
    return std::any_of(std::begin(heavyPrefixes), std::end(heavyPrefixes),
                       [&](const char* prefix) { return startsWith(include.name, prefix); });
  }

  fs::path m_root;
  std::map<std::string, SourceFile> m_files;
  std::set<std::string> m_product;
  std::set<std::pair<std::string, int>> m_reported;
  std::vector<Violation> m_violations;
};

} // namespace

std::vector<Violation> checkTree(const fs::path& root)
{
  return Checker(root).run();
}

std::string describe(const std::vector<Violation>& violations)
{
  std::ostringstream out;
  for (const Violation& v : violations)
    out << v.file << ':' << v.line << ": [" << v.rule << "] " << v.message << '\n';
  return out.str();
}

} // namespace cs::test
