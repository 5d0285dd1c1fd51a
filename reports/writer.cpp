// The writers of each format, over the renderings in render.hpp, csv.hpp, exports.hpp, trend.hpp and fleet.hpp; the
// multiplexer.
#include "reports/writer.hpp"

#include <signal.h>

#include <future>
#include <stdexcept>

#include "reports/csv.hpp"
#include "reports/exports.hpp"
#include "reports/fleet.hpp"
#include "reports/render.hpp"
#include "reports/trend.hpp"
#include "results/results_json.hpp"

namespace cudabench::reports {
using cudabench::comparison;
using cudabench::run_result;
using text = std::optional<std::string>;

namespace {
class format_writer final : public writer {
 public:
  format_writer(const char* format, renderings r) : format_(format), r_(std::move(r)) {}
  const char* format() const override { return format_; }
  text run_report(const run_result& run) const override { return r_.run ? text(r_.run(run)) : std::nullopt; }
  text comparison_report(const comparison& c, const run_result& current) const override {
    return r_.comparison ? text(r_.comparison(c, current)) : std::nullopt;
  }
  text trend_report(const trend& t) const override { return r_.trend ? text(r_.trend(t)) : std::nullopt; }
  text fleet_report(const fleet& f) const override { return r_.fleet ? text(r_.fleet(f)) : std::nullopt; }

 private:
  const char* format_;
  renderings r_;
};

/// A comparison rendered without the current run (which the tables and pages have in the comparison).
template <std::string (*render)(const comparison&)>
std::string of_comparison(const comparison& c, const run_result&) {
  return render(c);
}

std::string json_text(const nlohmann::ordered_json& doc) { return doc.dump(2) + "\n"; }
}  // namespace

std::unique_ptr<writer> make_writer(const char* format, renderings r) {
  return std::make_unique<format_writer>(format, std::move(r));
}

std::unique_ptr<writer> terminal_writer(bool color) {
  return make_writer("terminal", {.run = run_terminal,
                                  .comparison = [color](const comparison& c,
                                                        const run_result&) { return comparison_terminal(c, color); },
                                  .trend = trend_terminal,
                                  .fleet = fleet_terminal});
}
std::unique_ptr<writer> markdown_writer() {
  return make_writer("Markdown",
                     {.run = run_markdown, .comparison = of_comparison<comparison_markdown>, .fleet = fleet_markdown});
}
std::unique_ptr<writer> html_writer() {
  return make_writer(
      "HTML",
      {.run = run_html, .comparison = of_comparison<comparison_html>, .trend = trend_html, .fleet = fleet_html});
}
std::unique_ptr<writer> csv_writer() {
  return make_writer(
      "CSV", {.run = [](const run_result& run) { return results_csv(run); },
              .comparison = [](const comparison& c, const run_result& current) { return results_csv(current, &c); },
              .fleet = fleet_csv});
}
std::unique_ptr<writer> verdict_json_writer() {
  return make_writer("JSON verdict", {.comparison = of_comparison<verdict_json>});
}
std::unique_ptr<writer> fleet_json_writer() { return make_writer("fleet JSON", {.fleet = fleet_json}); }
std::unique_ptr<writer> gab_writer() {
  return make_writer("github-action-benchmark JSON",
                     {.run = [](const run_result& run) { return json_text(gab_export(run)); }});
}
std::unique_ptr<writer> bmf_writer() {
  return make_writer("Bencher Metric Format JSON",
                     {.run = [](const run_result& run) { return json_text(bmf_export(run)); }});
}
std::span<const report_format> report_formats() {
  static constexpr report_format formats[] = {
      {"--md", markdown_writer}, {"--html", html_writer}, {"--csv", csv_writer}};
  return formats;
}

std::unique_ptr<writer> results_json_writer(std::optional<std::string> time_unit, bool aggregates_only) {
  return make_writer("results JSON", {.run = [time_unit, aggregates_only](const run_result& run) {
                       return json_text(to_json(run, time_unit, aggregates_only));
                     }});
}
std::unique_ptr<writer> benchmark_csv_writer(std::optional<std::string> time_unit, bool aggregates_only) {
  return make_writer("Google Benchmark CSV", {.run = [time_unit, aggregates_only](const run_result& run) {
                       return benchmark_csv(to_json(run, time_unit, aggregates_only));
                     }});
}

void writer_multiplex::add(std::unique_ptr<writer> w, cudabench::output_sink sink) {
  outputs_.emplace_back(std::move(w), std::move(sink));
}

void writer_multiplex::check() const {
  for (const auto& [w, sink] : outputs_) sink.check();
}

namespace {
/// Runs `f` on a thread of its own that never takes SIGINT or SIGTERM: the thread that writes the files takes
/// them, so its handler never removes the temporaries while another thread goes on making one.
template <typename F>
auto on_thread_without_stop_signals(F f) {
  sigset_t stop, old;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, &old);  // the new thread inherits the mask
  auto done = std::async(std::launch::async, std::move(f));
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return done;
}
}  // namespace

template <typename Render>
void writer_multiplex::send(const char* report, Render render, std::size_t at_once) const {
  std::vector<std::future<text>> rendering(outputs_.size());
  auto start = [&](std::size_t i) {
    if (i < outputs_.size())
      rendering[i] = on_thread_without_stop_signals([&render, w = outputs_[i].first.get()] { return render(*w); });
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
  send(
      "a comparison", [&](const writer& w) { return w.comparison_report(c, current); }, 2);
}

void writer_multiplex::write_trend(const trend& t) const {
  send("a trend", [&](const writer& w) { return w.trend_report(t); });
}

void writer_multiplex::write_fleet(const fleet& f) const {
  send("a fleet report", [&](const writer& w) { return w.fleet_report(f); });
}

}  // namespace cudabench::reports
