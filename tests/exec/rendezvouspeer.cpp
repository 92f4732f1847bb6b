// One rank of tst_rendezvous: drives the engine's rendezvous (exec/launch/rendezvous.h) in its own
// process, as `cstudio run --backend nccl` does under a launcher, with a made-up id and verdict
// instead of NCCL and a GPU.
//
//   rendezvouspeer RANK WORLD PORT TIMEOUT_S MODE [PROGRAM]
//
// PORT: rank 0's port, or file:PATH to meet through a rendezvous file (rendezvousfile.h).
// MODE: ok (report "verified"), wrong (report 3 wrong elements), stall (sleep after the id, for
// the test to kill it), garbage (not a rank: connect and send a frame of 4 GiB, then linger).
// Rank 0 with PORT 0 prints "port N" first. Every rank prints "id HEX" after the exchange; rank 0
// prints "result RANK STATUS WRONG CHECKED" per rank after the gather. Errors go to stderr as
// "rank R: error: ..." and exit 1.

#include "exec/launch/rendezvous.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

using namespace cs::launch;

namespace {

std::string hexOf(const std::vector<std::byte>& bytes)
{
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (const std::byte b : bytes) {
    text += digits[std::to_integer<int>(b) >> 4];
    text += digits[std::to_integer<int>(b) & 15];
  }
  return text;
}

int fail(int rank, const std::string& error)
{
  std::cerr << "rank " << rank << ": error: " << error << std::endl;
  return 1;
}

int garbage(int port)
{
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
    return 1;
  const unsigned char junk[] = {0xff, 0xff, 0xff, 0xff, 0x01, 0x02};
  if (::send(fd, junk, sizeof junk, 0) != static_cast<ssize_t>(sizeof junk))
    return 1;
  std::cout << "sent" << std::endl;
  std::this_thread::sleep_for(std::chrono::seconds(20));
  ::close(fd);
  return 0;
}

} // namespace

int main(int argc, char** argv)
{
  if (argc < 6) {
    std::cerr << "usage: rendezvouspeer RANK WORLD PORT TIMEOUT_S MODE [PROGRAM]\n";
    return 2;
  }
  const int rank = std::atoi(argv[1]);
  const std::string mode = argv[5];
  RendezvousConfig config;
  config.host = "127.0.0.1";
  config.rank = rank;
  config.world = std::atoi(argv[2]);
  const std::string target = argv[3];
  if (target.rfind("file:", 0) == 0)
    config.file = target.substr(5);
  else
    config.port = std::atoi(argv[3]);
  config.timeoutSeconds = std::atof(argv[4]);
  config.program = programFingerprint(argc > 6 ? argv[6] : "program");
  if (mode == "garbage")
    return garbage(config.port);

  std::string error;
  const std::unique_ptr<Rendezvous> rendezvous = Rendezvous::start(config, &error);
  if (!rendezvous)
    return fail(rank, error);
  if (rank == 0)
    std::cout << "port " << rendezvous->port() << std::endl;
  std::vector<std::byte> id(128);
  for (std::size_t i = 0; i < id.size(); ++i)
    id[i] = static_cast<std::byte>((i * 37 + static_cast<std::size_t>(getpid())) & 0xff);
  const std::optional<std::vector<std::byte>> shared =
      rendezvous->exchangeId(rank == 0 ? id : std::vector<std::byte>{}, &error);
  if (!shared)
    return fail(rank, error);
  std::cout << "id " << hexOf(*shared) << std::endl;
  if (mode == "stall")
    std::this_thread::sleep_for(std::chrono::seconds(60));

  RankReport mine{rank, "verified", 0, 1024, 10.0 + rank, {}};
  if (mode == "wrong")
    mine = {rank, "wrong", 3, 1024, 10.0 + rank, "o[1] element 0: expected 6, got 0"};
  const std::optional<std::vector<RankReport>> reports = rendezvous->gather(mine, &error);
  if (!reports)
    return fail(rank, error);
  for (const RankReport& report : *reports) {
    if (rank == 0)
      std::cout << "result " << report.rank << " " << report.status << " " << report.wrong << " "
                << report.checked << std::endl;
  }
  return 0;
}
