#include "schedule.h"

#include <algorithm>
#include <utility>

namespace cs {

std::string_view transferOpName(TransferOp op)
{
  return op == TransferOp::Copy ? "copy" : "reduce";
}

std::optional<TransferOp> parseTransferOp(std::string_view text)
{
  if (text == "copy")
    return TransferOp::Copy;
  if (text == "reduce")
    return TransferOp::Reduce;
  return std::nullopt;
}

int RankBuffers::chunks(Buffer buffer) const
{
  switch (buffer) {
  case Buffer::Input:
    return input;
  case Buffer::Output:
    return output;
  case Buffer::Scratch:
    return scratch;
  }
  return 0;
}

int Schedule::stepCount() const
{
  int last = -1;
  for (const Transfer& t : transfers)
    last = std::max(last, t.step);
  return last + 1;
}

const Transfer* Schedule::transfer(int id) const
{
  const auto found = std::find_if(transfers.begin(), transfers.end(),
                                  [id](const Transfer& t) { return t.id == id; });
  return found == transfers.end() ? nullptr : &*found;
}

Transfer* Schedule::transfer(int id)
{
  return const_cast<Transfer*>(std::as_const(*this).transfer(id));
}

int Schedule::nextTransferId() const
{
  int highest = -1;
  for (const Transfer& t : transfers)
    highest = std::max(highest, t.id);
  return highest + 1;
}

int Schedule::add(Transfer transfer)
{
  transfer.id = nextTransferId();
  transfers.push_back(std::move(transfer));
  return transfers.back().id;
}

void Schedule::setUniformBuffers(RankBuffers perRank)
{
  buffers.assign(static_cast<std::size_t>(std::max(ranks, 0)), perRank);
}

} // namespace cs
