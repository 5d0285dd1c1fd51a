// Signal names, from the system's abbreviations.
#include "io/interrupt.hpp"

#include <fmt/format.h>
#include <string.h>

namespace cudabench {

std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

}  // namespace cudabench
