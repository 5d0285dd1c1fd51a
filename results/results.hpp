// The one reader of the results schema: Google Benchmark JSON (ours or any binary's, 1.7 or 1.8+) read into
// the results model (results_model.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "results/results_model.hpp"

namespace cudabench {

/// Google Benchmark appends "/iterations:1", "/repeats:10", "/manual_time", ... to names; this drops them.
std::string canonical_case_name(const std::string& gbench_name);

/// Google Benchmark writes NaN and infinity as bare words, which JSON does not allow; this turns such
/// values (outside strings) into null so the document parses and the row gets a clear message instead.
/// One linear pass, whatever the input.
std::string sanitize_gbench_json(const std::string& text);

/// The deepest nesting of arrays and objects in a JSON text (strings skipped); one linear pass.
std::size_t json_nesting_depth(std::string_view text);
/// Result files nested deeper than this are refused before parsing (a deep tree would exhaust the stack).
constexpr std::size_t max_json_depth = 256;

/// What a reader does with each case it reads: summarize its repetitions (a run read whole, as a command reads a
/// stored file), or leave that to the run's assembly (a worker's records a supervisor reads, the processes bisect
/// pools, the devices of --devices: run_builder::finish summarizes each case once).
enum class summaries { made, left_to_assembly };

/// Parses benchmark JSON; throws input_error("<source>: <problem>") for anything that is not usable.
run_result parse_run(const nlohmann::ordered_json& j, const std::string& source);
/// Parses the text of a result file named `path`: anything unusable (invalid JSON, numbers out of range,
/// nesting over max_json_depth, fields of the wrong type) is an input_error naming it, never another
/// exception. One streaming pass: each row and each case's metadata is read into the model and dropped,
/// so memory follows the model (about twice the text for cases of one row, less than the text for cases of
/// ten), not a tree of the whole document.
run_result parse_run_text(const std::string& text, const std::string& path, summaries made = summaries::made);
/// Reads and parses a file (missing, unreadable, invalid JSON: input_error naming the file). A regular file is
/// read in pieces as it is parsed, its text never whole in memory; standard input, and a file with bare NaN/inf
/// words to rewrite, are read whole (json_input.hpp).
run_result load_run(const std::string& path);
/// load_run, its cases summarized or left to the run's assembly (summaries).
run_result load_run(const std::string& path, summaries made);
/// Which cases a reader keeps, by name: the rows and the metadata of the others are skipped as they are met.
using case_filter = std::function<bool(const std::string& name)>;
/// load_run keeping only the cases `keep` accepts (none: the run's description alone).
run_result load_run(const std::string& path, const case_filter& keep);

}  // namespace cudabench
