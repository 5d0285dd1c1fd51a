// The writers of each format, over the renderings in render.hpp, csv.hpp, exports.hpp, trend.hpp and fleet.hpp; the
// multiplexer.
#include "reports/writer.hpp"

#include <signal.h>

#include <algorithm>
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
  text end(const report& r) const override {
    if (r_.text) return r_.text();
    if (r.fleet_of) return r_.fleet ? text(r_.fleet(*r.fleet_of)) : std::nullopt;
    if (r.trend_of) return r_.trend ? text(r_.trend(*r.trend_of)) : std::nullopt;
    if (r.compared && r.run && r_.comparison) return r_.comparison(*r.compared, *r.run);
    return r.run && r_.run ? text(r_.run(*r.run)) : std::nullopt;
  }

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

void writer_multiplex::add(std::unique_ptr<writer> w, cudabench::output_sink sink, placement where) {
  const auto later = std::upper_bound(outputs_.begin(), outputs_.end(), where.order,
                                      [](int order, const output& o) { return order < o.where.order; });
  outputs_.insert(later, output{std::move(w), std::move(sink), std::move(where), {}});
}

void writer_multiplex::check() const {
  for (const output& o : outputs_) o.sink.check();
}

template <typename Text>
void writer_multiplex::add_text(Text text) {
  for (output& o : outputs_) {
    std::string t = text(*o.w);
    if (t.empty()) continue;
    if (o.sink.is_standard_output())
      o.sink.write(t);
    else
      o.held += t;
  }
}

void writer_multiplex::begin(const run_header& h) {
  add_text([&](writer& w) { return w.begin(h); });
}

void writer_multiplex::case_finished(const finished_case& c) {
  add_text([&](writer& w) { return w.case_finished(c); });
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

const char* report_name(const report& r) {
  return r.fleet_of   ? "a fleet report"
         : r.trend_of ? "a trend"
         : r.compared ? "a comparison"
         : r.run      ? "a run's report"
                      : "a text";
}
}  // namespace

void writer_multiplex::end(const report& r, bool interrupted) const {
  std::vector<const output*> outputs;
  for (const output& o : outputs_)
    if (!interrupted || o.where.at_interrupt) outputs.push_back(&o);
  // A comparison's renderings build nothing large beside their text: two at a time, written in order (a million
  // cases take seconds in each format). A run's speedup tables are built by each rendering, so those go one by one.
  const std::size_t at_once = r.compared ? 2 : 1;
  std::vector<std::future<text>> rendering(outputs.size());
  auto start = [&](std::size_t i) {
    if (i < outputs.size())
      rendering[i] = on_thread_without_stop_signals([&r, w = outputs[i]->w.get()] { return w->end(r); });
  };
  for (std::size_t i = 0; i < at_once; ++i) start(i);
  std::size_t said = 0;  // the outputs whose `after` was called
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    {  // at most `at_once` texts in memory at a time
      const output& o = *outputs[i];
      const text t = rendering[i].get();
      if (!t)
        throw std::logic_error(std::string("the ") + o.w->format() + " writer has no rendering of " + report_name(r));
      o.sink.write(o.held.empty() ? *t : o.held + *t);
    }
    start(i + at_once);
    // Each order's lines once all of its outputs are written.
    if (interrupted || (i + 1 < outputs.size() && outputs[i + 1]->where.order == outputs[i]->where.order)) continue;
    for (; said < i + 1; ++said)
      if (outputs[said]->where.after) outputs[said]->where.after();
  }
}

}  // namespace cudabench::reports
