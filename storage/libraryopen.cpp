// Opening a library: recognising files that are not one before SQLite may write to them,
// creating new libraries atomically, migrating old ones and refusing to touch newer ones.

#include "libraryimpl_p.h"
#include "schema.h"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>

namespace cs::storage {

namespace {

std::uint32_t bigEndian32(const unsigned char* bytes)
{
  return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
         (std::uint32_t{bytes[2]} << 8) | std::uint32_t{bytes[3]};
}

std::string printablePrefix(const unsigned char* bytes, std::size_t size)
{
  std::string text;
  for (std::size_t i = 0; i < size && i < 16; ++i)
    text += (bytes[i] >= 32 && bytes[i] < 127) ? static_cast<char>(bytes[i]) : '.';
  return text;
}

// Reads the 100-byte SQLite header ourselves: opening a non-database with SQLite is harmless,
// but an empty file is a valid empty database to SQLite, which would then write a schema into
// a file the user never meant as a library. Checking first keeps every refused file untouched.
std::optional<Error> checkHeader(const std::filesystem::path& path, const std::string& file)
{
  const auto corrupt = [&file](const std::string& why) {
    return Error{ErrorKind::Corrupt, file + ": not a Collective Studio library: " + why};
  };
  std::error_code sizeError;
  const std::uintmax_t size = std::filesystem::file_size(path, sizeError);
  if (sizeError)
    return Error{ErrorKind::Io, file + ": cannot read the file: " + sizeError.message()};
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{errno == EACCES ? ErrorKind::ReadOnly : ErrorKind::Io,
                 file + ": cannot read the file: " + std::strerror(errno)};
  std::array<unsigned char, 100> header{};
  in.read(reinterpret_cast<char*>(header.data()), header.size());
  const auto got = static_cast<std::size_t>(in.gcount());
  if (got == 0)
    return corrupt("the file is empty");
  if (got < header.size() || std::memcmp(header.data(), "SQLite format 3", 16) != 0)
    return corrupt("it is not an SQLite database (it starts with \"" +
                   printablePrefix(header.data(), got) + "\")");
  std::uint32_t pageSize = (std::uint32_t{header[16]} << 8) | header[17];
  if (pageSize == 1)
    pageSize = 65536;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) != 0)
    return corrupt("its SQLite header is damaged (page size " + std::to_string(pageSize) + ")");
  if (size % pageSize != 0)
    return corrupt("the file is truncated or damaged: " + std::to_string(size) +
                   " bytes is not a whole number of " + std::to_string(pageSize) + "-byte pages");
  // The header's page count is valid only when its "version valid for" matches the change
  // counter. With a write-ahead log beside the file, SQLite's recovery may still grow the file
  // from the log (a process killed during a checkpoint), so only judge a file without one.
  const std::uint32_t pages = bigEndian32(&header[28]);
  std::error_code walError;
  const auto walSize = std::filesystem::file_size(file + "-wal", walError);
  const bool hasWal = !walError && walSize > 0;
  if (!hasWal && pages > 0 && bigEndian32(&header[92]) == bigEndian32(&header[24]) &&
      size < std::uintmax_t{pages} * pageSize)
    return corrupt("the file is truncated: its header counts " + std::to_string(pages) +
                   " pages of " + std::to_string(pageSize) + " bytes, but it has only " +
                   std::to_string(size) + " bytes");
  return std::nullopt;
}

// Opens a file that exists and looks like SQLite: recognises the library, migrates or refuses.
Result<std::unique_ptr<Library::Impl>> openExisting(const std::filesystem::path& path,
                                                    const OpenOptions& options)
{
  auto impl = std::make_unique<Library::Impl>();
  impl->path = path;
  impl->file = path.string();
  impl->options = options;
  impl->readOnly = options.readOnly;
  if (auto bad = checkHeader(path, impl->file))
    return *bad;

  const auto connect = [&impl](sql::OpenMode mode) -> std::optional<Error> {
    if (!impl->db.open(impl->file, mode))
      return impl->fail("opening the library");
    if (!impl->db.exec("PRAGMA busy_timeout = " + std::to_string(impl->options.busyTimeoutMs)))
      return impl->fail("setting the busy timeout");
    return std::nullopt;
  };
  if (auto failed = connect(impl->readOnly ? sql::OpenMode::ReadOnly : sql::OpenMode::ReadWrite))
    return *failed;

  // The first read makes SQLite parse the header and schema: NOTADB and CORRUPT show up here.
  const std::int64_t applicationId = impl->db.queryInt("PRAGMA application_id", -1);
  const std::int64_t version = impl->db.queryInt("PRAGMA user_version", -1);
  if (applicationId < 0 || version < 0) {
    Error error = impl->fail("reading the library's header");
    if (error.kind == ErrorKind::Corrupt)
      error.message = impl->file + ": not a Collective Studio library: the file is damaged (" +
                      impl->db.lastMessage() + ")";
    return error;
  }
  if (applicationId != kApplicationId)
    return Error{ErrorKind::Corrupt, impl->file +
                                         ": not a Collective Studio library: an SQLite database of "
                                         "another program (application id " +
                                         std::to_string(applicationId) + ")"};
  impl->fileSchema = static_cast<int>(version);

  if (version > kSchemaVersion) {
    // Never downgrade or even open for writing: a newer program may rely on anything it wrote.
    impl->readOnly = true;
    impl->tooNew = true;
    impl->notice = "written by a newer Collective Studio (schema version " +
                   std::to_string(version) + "; this program knows up to " +
                   std::to_string(kSchemaVersion) + "): opened read-only";
    if (!options.readOnly)
      if (auto failed = connect(sql::OpenMode::ReadOnly))
        return *failed;
  } else if (version < kSchemaVersion) {
    if (impl->readOnly)
      return Error{ErrorKind::ReadOnly,
                   impl->file + ": schema version " + std::to_string(version) +
                       " must be upgraded before use; open it once without read-only"};
    if (Status migrated =
            migrateSchema(impl->db, static_cast<int>(version), kSchemaVersion, impl->file);
        !migrated)
      return migrated.error();
    impl->notice = "upgraded from schema version " + std::to_string(version) + " to " +
                   std::to_string(kSchemaVersion);
  }

  if (!impl->db.exec("PRAGMA foreign_keys = ON"))
    return impl->fail("enabling foreign keys");
  if (!impl->readOnly) {
    // WAL: readers never block the writer and a commit is one append to the log. With WAL,
    // synchronous=NORMAL makes a commit a write(2) into the log without fsync; the data is then
    // in the kernel's page cache, which a killed process cannot lose, so a save that returned
    // survives SIGKILL. Only power loss can undo the last commits (never corrupting the file);
    // FULL would pay an fsync per save for that alone.
    sql::Statement mode(impl->db, "PRAGMA journal_mode = WAL");
    if (mode.step() != sql::StepResult::Row)
      return impl->fail("switching to write-ahead logging");
    if (!impl->db.exec("PRAGMA synchronous = NORMAL"))
      return impl->fail("setting synchronous mode");
    if (options.maxPageCount > 0 &&
        !impl->db.exec("PRAGMA max_page_count = " + std::to_string(options.maxPageCount)))
      return impl->fail("setting the page limit");
  }
  return impl;
}

std::string temporaryName(const std::filesystem::path& path)
{
  std::random_device random;
  return "." + path.filename().string() + ".new-" + std::to_string(::getpid()) + "-" +
         std::to_string(random());
}

// Builds a new library beside `path` under a temporary name and links it into place, so no
// process ever sees a half-created library, and two processes creating it at once both end up
// with the same, complete file.
std::optional<Error>
createLibrary(const std::filesystem::path& path, const OpenOptions& options,
              const std::function<Status(std::unique_ptr<Library::Impl>)>& seed)
{
  const std::string file = path.string();
  std::error_code error;
  const std::filesystem::path directory =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::filesystem::create_directories(directory, error);
  if (error)
    return Error{error == std::errc::permission_denied || error == std::errc::read_only_file_system
                     ? ErrorKind::ReadOnly
                     : ErrorKind::Io,
                 file + ": cannot create the directory " + directory.string() + ": " +
                     error.message()};
  const std::filesystem::path temporary = directory / temporaryName(path);
  const auto discard = [&temporary] {
    std::error_code ignored;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
      std::filesystem::remove(temporary.string() + suffix, ignored);
  };
  if (Status created = createLibraryFileAtVersion(temporary.string(), kSchemaVersion); !created) {
    discard();
    Error failure = created.error();
    failure.message = file + ": cannot create the library: " + failure.message;
    return failure;
  }
  {
    OpenOptions building = options;
    building.create = false;
    Result<std::unique_ptr<Library::Impl>> impl = openExisting(temporary, building);
    if (!impl) {
      discard();
      return impl.error();
    }
    if (options.seed) {
      if (Status seeded = seed(std::move(*impl)); !seeded) {
        discard();
        return Error{seeded.error().kind,
                     file + ": cannot seed the new library: " + seeded.error().message};
      }
    }
  }
  // link() fails if the name exists: another process created the library first; use theirs.
  if (::link(temporary.c_str(), path.c_str()) != 0 && errno != EEXIST) {
    const int code = errno;
    discard();
    return Error{code == EACCES || code == EROFS || code == EPERM ? ErrorKind::ReadOnly
                                                                  : ErrorKind::Io,
                 file + ": cannot create the library: " + std::strerror(code)};
  }
  discard();
  return std::nullopt;
}

} // namespace

Result<Library> Library::open(const std::filesystem::path& path, const OpenOptions& options)
{
  const std::string file = path.string();
  std::error_code error;
  const bool exists = std::filesystem::exists(path, error);
  bool created = false;
  if (!exists) {
    if (!options.create || options.readOnly)
      return Error{ErrorKind::NotFound, file + ": no library at this path"};
    const auto seed = [](std::unique_ptr<Impl> building) {
      Library library(std::move(building));
      return library.seedExamples();
    };
    if (auto failed = createLibrary(path, options, seed))
      return *failed;
    created = true;
  }
  Result<std::unique_ptr<Impl>> impl = openExisting(path, options);
  if (!impl)
    return impl.error();
  if (created)
    (*impl)->notice =
        options.seed ? "created a new library with the shipped examples" : "created a new library";
  return Library(std::move(*impl));
}

} // namespace cs::storage
