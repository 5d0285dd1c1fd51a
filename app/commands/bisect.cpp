// bisect: finds the commit that made the --filter cases slower (the search itself: app/bisect.cpp).
#include <fmt/format.h>

#include "app/bisect.hpp"
#include "app/commands.hpp"
#include "app/confirm.hpp"
#include "cli/program_name.hpp"

namespace cudabench::app {
int bisect_handler(const cli::bisect_request& r) {
  try {
    return bisect_command(r);
  } catch (const usage_error& e) {  // its options are several together: say where they are described
    throw usage_error(fmt::format("{} (see {} bisect --help)", e.what(), cli::program_title()));
  }
}

int bisect_ends(const ends_request& r) {
  cli::bisect_request b;
  static_cast<cli::bisect_options&>(b) = r.how;
  static_cast<cli::compare_options&>(b) = r.compare;
  b.processes = r.processes;
  b.good = r.good;
  b.bad = r.bad;
  b.ends_dir = r.dir;
  b.filter = exact_filter(r.cases);
  b.filter_given = true;
  b.binary_args = r.binary_args;
  return bisect_command(b);
}

}  // namespace cudabench::app
