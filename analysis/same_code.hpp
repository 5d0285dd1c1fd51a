// Measuring what changed: each case's code identity at two revisions (an identities file per revision, written
// by a run with --identify) and the cases that must be measured, those whose code differs, is unknown on either
// side, or is a control; the rest ran the same machine code the same way and are skipped as same code.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cudabench {

/// One case of an identities file: its name, family, and the digest of its code identity ("" unknown: a CPU
/// case, a Google Benchmark registration, no CUPTI, a kernel whose SASS was not seen, a case that was skipped
/// or failed), with why it is unknown.
struct identified_case {
  std::string name, family, digest, why;
};

/// What `run --identify=FILE` writes: every case the run selects, each identified once, untimed.
struct case_identities {
  std::string source;  ///< the file read ("" where made in memory)
  std::vector<identified_case> cases;
};

inline constexpr const char* identities_kind = "cudabench code identities";
inline constexpr int identities_schema_version = 1;

nlohmann::ordered_json to_json(const case_identities& ids);
/// Reads an identities file's text; input_error naming `source` where it is not one (a digest that is not 16 hex
/// digits, a case twice, a field of the wrong type).
case_identities parse_identities(const std::string& text, const std::string& source);
case_identities load_identities(const std::string& path);

/// Which cases two revisions' identities say to measure. Skipping needs proof: a case is skipped as same code
/// only where both sides hold it with one known digest and it is no control; every other case (code changed,
/// unknown on either side, on one side only, a control) is measured.
struct measure_plan {
  std::vector<std::string> measured;   ///< in the order of `bad`'s cases, then `good`'s alone
  std::vector<std::string> same_code;  ///< skipped: the same known identity on both sides
  std::size_t changed = 0, unknown = 0, controls = 0;
  bool everything = false;  ///< no case that one side runs was left to measure: every case measured instead
};

/// The controls, measured whatever their code: the limits family (its empty samples among them), which tells a
/// change of the machine between the two sides from a change of the code.
bool is_control(const identified_case& c);

measure_plan plan_measurement(const case_identities& good, const case_identities& bad);

/// The side file of a measurement that skipped same-code cases (DIR/same_code.json beside the two ends):
/// what was measured and skipped, and a note ("" or why every case was measured).
nlohmann::ordered_json same_code_json(const measure_plan& plan, const std::string& note);

}  // namespace cudabench
