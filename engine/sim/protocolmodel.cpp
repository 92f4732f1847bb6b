#include "protocolmodel.h"

namespace cs {

ProtocolParams defaultProtocolParams(Protocol protocol)
{
  switch (protocol) {
  case Protocol::LL:
    return {0.5, 0.6, 32 * 1024};
  case Protocol::LL128:
    return {120.0 / 128.0, 1.9, 576000};
  case Protocol::Simple:
    return {1.0, 3.4, 2 * 1024 * 1024};
  }
  return {};
}

} // namespace cs
