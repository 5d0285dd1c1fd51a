// The dashboard of a history store: static pages of each GPU model and preset's trend across commits, with its
// verdicts and gates, and of the models side by side (no script, no external resource).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cudabench::reports {

struct site_page {
  std::string path;  ///< relative to the site's directory: index.html, <model>/<preset>.html, fleet-<preset>.html
  std::string html;
};

struct site_settings {
  double threshold = 0.05;  ///< the smallest step a trend flags
  std::size_t hold = 3;     ///< the runs a step must hold for
  std::string repository;   ///< a web address: each run's commit links to REPOSITORY/commit/<revision> ("" none)
};

/// The pages of the dashboard of the history store `store` (ci/history.sh's layout: <model>/<preset>/runs/*.json,
/// verdict-<time>.json beside runs/, gates.json): an index; per model and preset the trend with each run's commit,
/// its verdicts marked and each case's gate band; per preset the models side by side (the fleet report). A name
/// outside the layout, and a model and preset whose runs cannot be read, are left out and named on the index.
/// Throws input_error for a store with no model and preset to show.
std::vector<site_page> history_site(const std::string& store, const site_settings& s);

}  // namespace cudabench::reports
