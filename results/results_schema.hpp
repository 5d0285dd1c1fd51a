// The keys of the results schema (Google Benchmark's JSON plus cudabench's objects), spelled once for the
// writer (results_json.cpp) and the reader (results.cpp).
#pragma once

#include <string_view>

namespace cudabench::schema {

/// The version written; the reader reads every version from oldest_version (version 1 had no energy records).
constexpr int version = 2;
constexpr int oldest_version = 1;

// Top level and context.
constexpr const char* context = "context";
constexpr const char* benchmarks = "benchmarks";
constexpr const char* date = "date";
constexpr const char* device = "device";
constexpr const char* devices = "devices";
constexpr const char* device_name = "cudabench_device";
constexpr const char* preset_name = "cudabench_preset";
constexpr const char* cudabench = "cudabench";

// context.cudabench: how the run was made.
constexpr const char* schema_version = "schema_version";
constexpr const char* preset = "preset";
constexpr const char* repetitions = "repetitions";
constexpr const char* rounds = "rounds";
constexpr const char* shuffle_seed = "shuffle_seed";
constexpr const char* git_revision = "git_revision";
constexpr const char* git_dirty = "git_dirty";
constexpr const char* host_name = "host_name";
constexpr const char* started_utc = "started_utc";
constexpr const char* energy_absent = "energy_absent";
constexpr const char* cache = "cache";
constexpr const char* inject_slowdown = "inject_slowdown";
constexpr const char* incomplete = "incomplete";
constexpr const char* interrupted_by = "interrupted_by";
constexpr const char* build = "build";
constexpr const char* build_type = "build_type";
constexpr const char* optimized = "optimized";
constexpr const char* assertions = "assertions";
constexpr const char* flags = "flags";
constexpr const char* libraries = "libraries";
constexpr const char* target = "target";
constexpr const char* library_build_type = "library_build_type";  // context's, as Google Benchmark writes it
constexpr const char* families = "families";
constexpr const char* cases = "cases";
constexpr const char* limits = "limits";

// A family, a case's metadata, a limit.
constexpr const char* description = "description";
constexpr const char* tolerance = "tolerance";
constexpr const char* references = "references";
constexpr const char* tables = "tables";
constexpr const char* title = "title";
constexpr const char* base = "base";
constexpr const char* variants = "variants";
constexpr const char* family = "family";
constexpr const char* variant = "variant";
constexpr const char* params = "params";
constexpr const char* on = "on";
constexpr const char* bound = "bound";
constexpr const char* size = "size";
constexpr const char* bytes = "bytes";
constexpr const char* items = "items";
constexpr const char* flops = "flops";
constexpr const char* limit = "limit";
constexpr const char* control = "control";
constexpr const char* gated = "gated";
constexpr const char* rate = "rate";
constexpr const char* unit = "unit";
constexpr const char* from = "from";
constexpr const char* joules_per_unit = "joules_per_unit";

// A row (Google Benchmark's fields, then ours).
constexpr const char* name = "name";
constexpr const char* family_index = "family_index";
constexpr const char* per_family_instance_index = "per_family_instance_index";
constexpr const char* run_name = "run_name";
constexpr const char* run_type = "run_type";
constexpr const char* repetition_index = "repetition_index";
constexpr const char* threads = "threads";
constexpr const char* iterations = "iterations";
constexpr const char* real_time = "real_time";
constexpr const char* cpu_time = "cpu_time";
constexpr const char* time_unit = "time_unit";
constexpr const char* aggregate_name = "aggregate_name";
constexpr const char* aggregate_unit = "aggregate_unit";
constexpr const char* label = "label";
constexpr const char* skipped = "skipped";
constexpr const char* skip_message = "skip_message";
constexpr const char* error_occurred = "error_occurred";
constexpr const char* error_message = "error_message";
constexpr const char* device_ordinal = "device_ordinal";

// A row's "cudabench" object (its run_record) and timeline.
constexpr const char* stop = "stop";
constexpr const char* samples = "samples";
constexpr const char* noise = "noise";
constexpr const char* batch = "batch";
constexpr const char* sm_clock_mhz = "sm_clock_mhz";
constexpr const char* clock_discards = "clock_discards";
constexpr const char* injected = "injected";
constexpr const char* held = "held";
constexpr const char* correct = "correct";
constexpr const char* note = "note";
constexpr const char* round = "round";
constexpr const char* setup_s = "setup_s";
constexpr const char* check_s = "check_s";
constexpr const char* checked = "checked";
constexpr const char* timeline = "timeline";
constexpr const char* code = "code";
constexpr const char* energy = "energy";

/// True for the keys of a row that are not counters: a fixture's counter of such a name would overwrite them.
inline bool is_row_field(std::string_view key) {
  for (std::string_view k : {name,
                             family_index,
                             per_family_instance_index,
                             run_name,
                             run_type,
                             repetitions,
                             repetition_index,
                             threads,
                             iterations,
                             real_time,
                             cpu_time,
                             time_unit,
                             aggregate_name,
                             aggregate_unit,
                             label,
                             skipped,
                             skip_message,
                             error_occurred,
                             error_message,
                             device_ordinal,
                             cudabench})
    if (key == k) return true;
  return false;
}

}  // namespace cudabench::schema
