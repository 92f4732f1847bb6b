#include "launchenv.h"

#include "model/wholetext.h"

#include <array>
#include <cstdlib>
#include <string_view>

extern char** environ; // POSIX: the process's environment, read once by processEnvironment()

namespace cs::launch {

namespace {

/// The variables one launcher sets for every process it starts.
struct LauncherVariables {
  const char* name;
  const char* rank;
  const char* world;
  const char* localRank;
};

constexpr std::array<LauncherVariables, 3> kLaunchers{{
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
    {"torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK"},
}};

/// A whole number 0..max, or nullopt (signs, spaces, suffixes and overflow are refused).
std::optional<int> wholeNumber(std::string_view text, int max)
{
  const std::optional<int> value = numberFromWholeText<int>(text);
  return value && *value >= 0 && *value <= max ? value : std::nullopt;
}

constexpr int kMaxWorld = 1 << 20;

std::string quoted(std::string_view text)
{
  return "'" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "…'" : "'");
}

/// Reads one launcher's variables; `present` says whether any is set.
LaunchParse readLauncher(const Environment& environment, const LauncherVariables& launcher,
                         bool& present)
{
  present = false;
  std::array<int, 3> values{};
  const std::array<const char*, 3> names{launcher.rank, launcher.world, launcher.localRank};
  for (const char* name : names)
    present = present || environment.count(name) > 0;
  if (!present)
    return {};
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto found = environment.find(names[i]);
    if (found == environment.end())
      return {std::nullopt, std::string(launcher.name) + " sets some of its variables but not " +
                                names[i] + " (this process's environment is incomplete)"};
    const std::optional<int> value = wholeNumber(found->second, kMaxWorld);
    if (!value)
      return {std::nullopt, std::string(names[i]) + " is " + quoted(found->second) +
                                ", not a whole number from 0 to " + std::to_string(kMaxWorld)};
    values[i] = *value;
  }
  return {LaunchPlace{values[0], values[1], values[2], launcher.name}, {}};
}

std::string describePlace(const LaunchPlace& place)
{
  return "rank " + std::to_string(place.rank) + " of " + std::to_string(place.world) +
         ", local rank " + std::to_string(place.localRank);
}

/// Open MPI, Slurm and torchrun's values, which must agree unless `flagsDecide` (all three
/// flags were given, so the environment's values are not used).
LaunchParse readEnvironment(const Environment& environment, bool flagsDecide)
{
  std::optional<LaunchPlace> agreed;
  for (const LauncherVariables& launcher : kLaunchers) {
    bool present = false;
    LaunchParse read = readLauncher(environment, launcher, present);
    if (!read.error.empty())
      return read;
    if (!present)
      continue;
    if (agreed && !flagsDecide &&
        (agreed->rank != read.place->rank || agreed->world != read.place->world ||
         agreed->localRank != read.place->localRank)) {
      return {std::nullopt, agreed->source + " says " + describePlace(*agreed) + " but " +
                                read.place->source + " says " + describePlace(*read.place) +
                                " (pass --rank, --world and --local-rank to choose)"};
    }
    if (agreed)
      agreed->source += " and " + read.place->source;
    else
      agreed = read.place;
  }
  return {agreed, {}};
}

std::string checkPlace(const LaunchPlace& place)
{
  if (place.world < 1)
    return "the world size is " + std::to_string(place.world) + " (from " + place.source +
           "); it must be at least 1";
  if (place.rank >= place.world)
    return "rank " + std::to_string(place.rank) + " is not below the world size " +
           std::to_string(place.world) + " (from " + place.source + ")";
  if (place.localRank >= place.world)
    return "local rank " + std::to_string(place.localRank) + " is not below the world size " +
           std::to_string(place.world) + " (from " + place.source + ")";
  return {};
}

} // namespace

LaunchParse parseLaunchPlace(const Environment& environment, const LaunchOverrides& overrides)
{
  const bool allFlags = overrides.rank && overrides.world && overrides.localRank;
  LaunchParse parse = readEnvironment(environment, allFlags);
  if (!parse.error.empty())
    return parse;
  const bool anyFlag = overrides.rank || overrides.world || overrides.localRank;
  if (!parse.place && !anyFlag)
    return {};
  if (!parse.place) {
    if (!overrides.rank || !overrides.world)
      return {std::nullopt, std::string("no launcher environment (Open MPI, Slurm or torchrun) was "
                                        "found, so --rank and --world must both be given")};
    parse.place = LaunchPlace{*overrides.rank, *overrides.world,
                              overrides.localRank.value_or(*overrides.rank), "flags"};
  } else if (anyFlag) {
    parse.place->rank = overrides.rank.value_or(parse.place->rank);
    parse.place->world = overrides.world.value_or(parse.place->world);
    parse.place->localRank = overrides.localRank.value_or(parse.place->localRank);
    parse.place->source += " and flags";
  }
  if (std::string problem = checkPlace(*parse.place); !problem.empty())
    return {std::nullopt, std::move(problem)};
  return parse;
}

std::string checkWorldMatchesProgram(const LaunchPlace& place, int programRanks)
{
  if (place.world == programRanks)
    return {};
  return "the launcher started " + std::to_string(place.world) + " processes (world size, from " +
         place.source + ") but the program has " + std::to_string(programRanks) +
         " ranks: start one process per rank";
}

MasterParse parseMasterEndpoint(const Environment& environment)
{
  const auto host = environment.find("MASTER_ADDR");
  const auto port = environment.find("MASTER_PORT");
  if (host == environment.end() || host->second.empty() || port == environment.end())
    return {std::nullopt,
            std::string("MASTER_ADDR and MASTER_PORT must be set to the address and port where "
                        "rank 0 listens for the rendezvous (torchrun sets them; under mpirun or "
                        "srun export them, or meet through a shared file with --rendezvous "
                        "file:PATH)")};
  const std::optional<int> number = wholeNumber(port->second, 65535);
  if (!number || *number == 0)
    return {std::nullopt,
            "MASTER_PORT is " + quoted(port->second) + ", not a port number from 1 to 65535"};
  return {MasterEndpoint{host->second, *number}, {}};
}

Environment processEnvironment()
{
  Environment environment;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    const std::size_t equals = text.find('=');
    if (equals != std::string_view::npos)
      environment.emplace(std::string(text.substr(0, equals)),
                          std::string(text.substr(equals + 1)));
  }
  return environment;
}

} // namespace cs::launch
