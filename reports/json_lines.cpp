// The live writer of a run: one JSON object a line, each case's as it finishes (for a dashboard or a progress bar).
#include <nlohmann/json.hpp>

#include <map>

#include "reports/writer.hpp"

namespace cudabench::reports {
namespace {
using json = nlohmann::ordered_json;

std::string line(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

class json_lines_writer_impl final : public writer {
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
}  // namespace

std::unique_ptr<writer> json_lines_writer() { return std::make_unique<json_lines_writer_impl>(); }

}  // namespace cudabench::reports
