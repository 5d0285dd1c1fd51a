// bisect: finds the commit that made the --filter cases slower (the search itself: app/bisect.cpp).
#include <fmt/format.h>

#include "app/bisect.hpp"
#include "app/commands.hpp"
#include "cli/program_name.hpp"

namespace cudabench::app {
namespace {

int bisect(const command_line& cl) {
  try {
    return bisect_command(cl.options, cl.passed);
  } catch (const usage_error& e) {  // its options are several together: say where they are described
    throw usage_error(fmt::format("{} (see {} bisect --help)", e.what(), program_title()));
  }
}

}  // namespace

extern const command_spec cmd_bisect{
    .name = "bisect", .inputs = "--good=REV --bad=REV --filter=REGEX", .input_count = 0,
    .about = fmt::format("Finds the commit that made the --filter cases slower: builds revisions of the repository it is "
                         "started in, each in a worktree apart, runs the binary on them (arguments after -- go to it; "
                         "default --preset={}) and bisects over the cases the comparison of the two ends flags as regressions.",
                         bisect_options::suite_preset),
    .exit_status = "0 the first bad commit found, 1 nothing to bisect (no regression between the ends) or no single "
                   "commit named (skipped revisions, --time-limit), 2 usage or input error",
    .handler = bisect, .passes_rest = true};

}  // namespace cudabench::app
