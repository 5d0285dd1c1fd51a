// The writers of each format, over the renderings in render.hpp, csv.hpp, exports.hpp and trend.hpp; the multiplexer.
#include "reports/writer.hpp"

#include <future>
#include <stdexcept>

#include "reports/csv.hpp"
#include "reports/exports.hpp"
#include "reports/render.hpp"
#include "results/results_json.hpp"

namespace cudabench::reports {
using cudabench::comparison;
using cudabench::run_result;
using text = std::optional<std::string>;

text writer::run_report(const run_result&) const { return std::nullopt; }
text writer::comparison_report(const comparison&, const run_result&) const { return std::nullopt; }
text writer::trend_report(const trend&) const { return std::nullopt; }
text writer::fleet_report(const fleet&) const { return std::nullopt; }

text terminal_writer::run_report(const run_result& run) const { return run_terminal(run); }
text terminal_writer::comparison_report(const comparison& c, const run_result&) const { return comparison_terminal(c, color_); }
text terminal_writer::trend_report(const trend& t) const { return trend_terminal(t); }
text terminal_writer::fleet_report(const fleet& f) const { return fleet_terminal(f); }

text markdown_writer::run_report(const run_result& run) const { return run_markdown(run); }
text markdown_writer::comparison_report(const comparison& c, const run_result&) const { return comparison_markdown(c); }
text markdown_writer::fleet_report(const fleet& f) const { return fleet_markdown(f); }

text html_writer::run_report(const run_result& run) const { return run_html(run); }
text html_writer::comparison_report(const comparison& c, const run_result&) const { return comparison_html(c); }
text html_writer::trend_report(const trend& t) const { return trend_html(t); }
text html_writer::fleet_report(const fleet& f) const { return fleet_html(f); }

text csv_writer::run_report(const run_result& run) const { return results_csv(run); }
text csv_writer::comparison_report(const comparison& c, const run_result& current) const { return results_csv(current, &c); }
text csv_writer::fleet_report(const fleet& f) const { return fleet_csv(f); }

text fleet_json_writer::fleet_report(const fleet& f) const { return fleet_json(f); }

text verdict_json_writer::comparison_report(const comparison& c, const run_result&) const { return verdict_json(c); }

text gab_writer::run_report(const run_result& run) const { return gab_export(run).dump(2) + "\n"; }
text bmf_writer::run_report(const run_result& run) const { return bmf_export(run).dump(2) + "\n"; }

text results_writer::run_report(const run_result& run) const {
  const nlohmann::ordered_json doc = to_json(run, time_unit_, aggregates_only_);
  return form_ == form::json ? doc.dump(2) + "\n" : benchmark_csv(doc);
}

void writer_multiplex::add(std::unique_ptr<writer> w, cudabench::output_sink sink) {
  outputs_.emplace_back(std::move(w), std::move(sink));
}

void writer_multiplex::check() const {
  for (const auto& [w, sink] : outputs_) sink.check();
}

template <typename Render>
void writer_multiplex::send(const char* report, Render render, std::size_t at_once) const {
  std::vector<std::future<text>> rendering(outputs_.size());
  auto start = [&](std::size_t i) {
    if (i < outputs_.size()) rendering[i] = std::async(std::launch::async, [&render, w = outputs_[i].first.get()] { return render(*w); });
  };
  for (std::size_t i = 0; i < at_once; ++i) start(i);
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    {  // at most `at_once` texts in memory at a time
      const auto& [w, sink] = outputs_[i];
      const text t = rendering[i].get();
      if (!t) throw std::logic_error(std::string("the ") + w->format() + " writer has no rendering of " + report);
      sink.write(*t);
    }
    start(i + at_once);
  }
}

void writer_multiplex::write_run(const run_result& run) const {
  send("a run's report", [&](const writer& w) { return w.run_report(run); });
}

void writer_multiplex::write_comparison(const comparison& c, const run_result& current) const {
  // Two at a time, written in order: a million cases take seconds in each format, and a comparison's renderings
  // build nothing large beside their text (a run's speedup tables are built by each, so those go one by one).
  send("a comparison", [&](const writer& w) { return w.comparison_report(c, current); }, 2);
}

void writer_multiplex::write_trend(const trend& t) const {
  send("a trend", [&](const writer& w) { return w.trend_report(t); });
}

void writer_multiplex::write_fleet(const fleet& f) const {
  send("a fleet report", [&](const writer& w) { return w.fleet_report(f); });
}

}  // namespace cudabench::reports
