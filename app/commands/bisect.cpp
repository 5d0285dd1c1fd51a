// bisect: finds the commit that made the --filter cases slower (the search itself: app/bisect.cpp).
#include <fmt/format.h>

#include "app/bisect.hpp"
#include "app/commands.hpp"
#include "cli/program_name.hpp"

namespace cudabench::app {
int bisect_handler(const command_line& cl) {
  try {
    return bisect_command(cl.options, cl.passed);
  } catch (const usage_error& e) {  // its options are several together: say where they are described
    throw usage_error(fmt::format("{} (see {} bisect --help)", e.what(), program_title()));
  }
}

}  // namespace cudabench::app
