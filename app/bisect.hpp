// `run_bench bisect`: the commit that made the selected cases slower, found by building and measuring revisions.
#pragma once

#include <string>
#include <vector>

#include "cli/requests.hpp"

namespace cudabench::app {

/// Bisects between o.good and o.bad in the git repository around the current directory: builds each tested
/// revision in a worktree apart, runs the benchmark binary there with o.binary_args after its defaults
/// (--preset=nightly --filter=o.filter --json=...), and classifies it (analysis/bisection.hpp). Prints the first
/// bad commit (or the narrowest range) and writes o.json_path. 0 found, 1 nothing to bisect or no single
/// commit, 2 usage or input error, 130/143 interrupted.
int bisect_command(const cli::bisect_request& o);

/// What confirm asks of bisect: the two ends measured on this machine, of the cases named.
struct ends_request {
  cli::bisect_options how;         ///< how a revision is built and measured (--build, --binary, --extra-time, ...)
  cli::compare_options compare;    ///< the comparison that decides whether a case needs more alternating pairs
  std::string good, bad;           ///< the revisions
  std::vector<std::string> cases;  ///< the names of the cases measured
  int processes = 2;               ///< benchmark processes a revision
  std::string dir;                 ///< where good.json and bad.json are written
  std::vector<std::string> binary_args;  ///< the benchmark binary's own arguments
};
/// bisect --ends for `r`: measures r.cases at both revisions, their results written into r.dir; bisect's status.
int bisect_ends(const ends_request& r);

}  // namespace cudabench::app
