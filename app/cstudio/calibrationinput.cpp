#include "calibrationinput.h"

#include "library.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace cs::cli {

namespace {

std::filesystem::path libraryFile(const std::string& libraryPath)
{
  return libraryPath.empty() ? storage::defaultLibraryPath() : std::filesystem::path(libraryPath);
}

std::optional<Calibration> readCalibrationFile(const std::string& file, const std::string& command)
{
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << command << ": cannot read calibration file " << file << '\n';
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  CalibrationReadResult read = readCalibrationJson(text.str());
  if (!read.calibration)
    std::cerr << command << ": " << file << ": not a calibration: " << read.error << '\n';
  return std::move(read.calibration);
}

} // namespace

std::optional<Calibration> loadCalibration(const std::string& nameOrFile,
                                           const std::string& libraryPath,
                                           const std::string& command)
{
  std::error_code ignored;
  if (std::filesystem::exists(nameOrFile, ignored) ||
      std::filesystem::path(nameOrFile).extension() == ".json")
    return readCalibrationFile(nameOrFile, command);
  // Opened as `cstudio library` opens it (an older schema is upgraded), read-only where the
  // file cannot be written; never created.
  storage::OpenOptions open;
  open.create = false;
  const std::filesystem::path path = libraryFile(libraryPath);
  storage::Result<storage::Library> library = storage::Library::open(path, open);
  if (!library && library.error().kind == storage::ErrorKind::ReadOnly) {
    open.readOnly = true;
    library = storage::Library::open(path, open);
  }
  if (!library) {
    std::cerr << command << ": \"" << nameOrFile
              << "\" is no file, and the library to look it up in cannot be opened: "
              << library.error().message << '\n';
    return std::nullopt;
  }
  storage::Result<storage::CalibrationRecord> record = library->calibration(nameOrFile);
  if (!record) {
    std::cerr << command << ": \"" << nameOrFile << "\" is neither a file nor a calibration in "
              << path.string() << " (cstudio library calibrations lists them)\n";
    return std::nullopt;
  }
  CalibrationReadResult read = readCalibrationJson(record->json);
  if (!read.calibration)
    std::cerr << command << ": calibration \"" << nameOrFile << "\" in " << path.string()
              << " is damaged: " << read.error << '\n';
  return std::move(read.calibration);
}

bool saveCalibration(const Calibration& calibration, const std::string& name,
                     const std::string& libraryPath, const std::string& command)
{
  storage::Result<storage::Library> library = storage::Library::open(libraryFile(libraryPath));
  if (!library) {
    std::cerr << command << ": " << library.error().message << '\n';
    return false;
  }
  const storage::Result<std::int64_t> saved = library->saveCalibration(
      {0, name, calibration.topology, calibration.backend, writeCalibrationJson(calibration), ""});
  if (!saved)
    std::cerr << command << ": " << saved.error().message << '\n';
  return saved.ok();
}

} // namespace cs::cli
