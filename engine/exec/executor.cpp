#include "executor.h"

#include "model/fifodepth.h"

#include <array>
#include <numeric>

namespace cs {

namespace {

struct TypeName {
  DataType type;
  std::string_view shortName;
  std::string_view ncclName;
  int size;
};
constexpr std::array<TypeName, kDataTypeCount> kTypes{{
    {DataType::F32, "f32", "float", 4},
    {DataType::F16, "f16", "half", 2},
    {DataType::BF16, "bf16", "bfloat16", 2},
    {DataType::F64, "f64", "double", 8},
    {DataType::I32, "i32", "int32", 4},
    {DataType::U8, "u8", "uint8", 1},
}};

constexpr std::array<std::string_view, kReduceOpCount> kOps{"sum", "prod", "min", "max"};

} // namespace

std::string_view dataTypeName(DataType type)
{
  return kTypes[static_cast<std::size_t>(type)].ncclName;
}

std::optional<DataType> parseDataType(std::string_view text)
{
  for (const TypeName& entry : kTypes) {
    if (text == entry.shortName || text == entry.ncclName)
      return entry.type;
  }
  if (text == "float32")
    return DataType::F32;
  if (text == "float16")
    return DataType::F16;
  if (text == "float64")
    return DataType::F64;
  return std::nullopt;
}

int dataTypeSize(DataType type)
{
  return kTypes[static_cast<std::size_t>(type)].size;
}

bool isIntegerType(DataType type)
{
  return type == DataType::I32 || type == DataType::U8;
}

std::string_view reduceOpName(ReduceOp op)
{
  return kOps[static_cast<std::size_t>(op)];
}

std::optional<ReduceOp> parseReduceOp(std::string_view text)
{
  for (std::size_t i = 0; i < kOps.size(); ++i) {
    if (text == kOps[i])
      return static_cast<ReduceOp>(i);
  }
  return std::nullopt;
}

std::int64_t defaultSliceBytes(Protocol protocol)
{
  return runtimeSliceBytes(protocol);
}

int defaultConnectionSlots(Protocol protocol)
{
  return connectionSlots(protocol);
}

std::string describe(const BlockedPosition& position)
{
  std::string text = "rank " + std::to_string(position.rank) + " tb " +
                     std::to_string(position.tb) + " step " + std::to_string(position.step) +
                     " slice " + std::to_string(position.slice) + " waits for ";
  switch (position.waitsFor) {
  case WaitKind::Message:
    text += "a message from rank " + std::to_string(position.peer) + " on channel " +
            std::to_string(position.channel);
    break;
  case WaitKind::Room:
    text += "room on the connection to rank " + std::to_string(position.peer) + " on channel " +
            std::to_string(position.channel);
    break;
  case WaitKind::Flag:
    text += "tb " + std::to_string(position.depTb) + " to publish step " +
            std::to_string(position.depStep);
    break;
  }
  return text;
}

std::string_view execStatusName(ExecStatus status)
{
  switch (status) {
  case ExecStatus::Verified:
    return "verified";
  case ExecStatus::Wrong:
    return "wrong";
  case ExecStatus::NotVerified:
    return "not-verified";
  case ExecStatus::Hung:
    return "hung";
  case ExecStatus::Failed:
    return "failed";
  }
  return "failed";
}

double ExecResult::meanUs() const
{
  if (iterationUs.empty())
    return 0;
  return std::accumulate(iterationUs.begin(), iterationUs.end(), 0.0) /
         static_cast<double>(iterationUs.size());
}

} // namespace cs
