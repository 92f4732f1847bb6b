#pragma once

// Byte sizes as people type and read them: "64K", "1M", "1G", "4096", "512KiB" in, "256 MiB"
// out. Multiples are binary, as nccl-tests reads -b/-e. Every command that takes a size uses
// these, so "1M" means the same everywhere.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cs {

/// Parses a non-negative size with an optional K/M/G/T suffix (either case, optionally followed
/// by "B" or "iB"). nullopt for anything else, or beyond 2^50 bytes.
std::optional<std::int64_t> parseByteSize(std::string_view text);

/// "512 B", "64 KiB", "1.50 MiB": whole numbers without decimals.
std::string formatByteSize(std::int64_t bytes);

} // namespace cs
