// The live outputs of a run, each a writer that hears the cases as they finish and its row in live_formats(): the
// option that names its file, that option's help, the writer.
#include <nlohmann/json.hpp>

#include <map>

#include "reports/writer.hpp"

namespace cudabench::reports {
namespace {
using json = nlohmann::ordered_json;

std::string line(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

/// A run as it goes, one JSON object a line: "begin" (preset, cases, rounds), "case" as each case finishes (name,
/// status, round, done of total, repetitions, median_s, message), "end" (the count of each status; with a
/// comparison, each verdict's and the exit status).
class json_lines_writer final : public writer {
 public:
  const char* format() const override { return "JSON lines"; }
  std::string begin(const run_header& h) override {
    return line({{"event", "begin"}, {"preset", h.preset}, {"cases", h.cases}, {"rounds", h.rounds}});
  }
  std::string case_finished(const finished_case& f) override {
    const case_result& c = f.result;
    json j{{"event", "case"}, {"name", c.name},   {"status", to_string(c.status)},      {"round", f.round},
           {"done", f.done},  {"total", f.total}, {"repetitions", c.repetitions.size()}};
    j["median_s"] = c.repetitions.empty() ? json(nullptr) : json(median_repetition(c).real_time_s);
    if (!c.message.empty()) j["message"] = c.message;
    return line(j);
  }
  std::optional<std::string> end(const report& r) const override {
    if (!r.run) return std::nullopt;
    std::map<std::string, std::size_t> by_status{{"ok", 0}, {"skipped", 0}, {"failed", 0}};
    for (const case_result& c : r.run->cases) ++by_status[to_string(c.status)];
    json j{{"event", "end"}, {"cases", r.run->cases.size()}};
    for (const auto& [status, n] : by_status) j[status] = n;
    j["incomplete"] = r.run->settings.incomplete;
    if (r.compared) {
      json verdicts = json::object();
      for (verdict v : all_verdicts)
        if (const std::size_t n = r.compared->count(v)) verdicts[to_string(v)] = n;
      j["verdicts"] = verdicts;
      j["exit_status"] = r.compared->exit_status();
    }
    return line(j);
  }
};

template <typename Writer>
std::unique_ptr<writer> make() {
  return std::make_unique<Writer>();
}
}  // namespace

std::span<const live_format> live_formats() {
  static constexpr live_format formats[] = {
      {.option = "--json-lines",
       .help = "the run as it goes, one JSON object a line (for a dashboard or a progress bar): \"begin\", \"case\" "
               "as each case finishes (its status, round, median, how many of the run's cases are done), \"end\" "
               "with the counts; - (standard output) or /dev/fd/N gets each line as it comes, a file the whole when "
               "the run ends",
       .make = make<json_lines_writer>},
  };
  return formats;
}

}  // namespace cudabench::reports
