// The readers of a results file's parts, shared by the files that read one (results.cpp, read_context.cpp,
// read_rows.cpp): a field's value and type, the context, the rows. Not installed.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "io/errors.hpp"
#include "io/format.hpp"
#include "results/json_events.hpp"
#include "results/results.hpp"
#include "results/results_schema.hpp"

namespace cudabench::reading {
namespace k = schema;
using json = nlohmann::ordered_json;

/// A row as messages name it, "row 3 ('conv2d/tiled/4096')": made only for a message, not for every row read.
struct row_label {
  std::size_t number;
  const std::string& name;
  std::string text() const { return fmt::format("row {} ('{}')", number, printable(name)); }
};

inline double unit_to_seconds(const std::string& unit, const std::string& source, const row_label& row) {
  if (const double per_second = units_per_second(unit); per_second > 0) return 1 / per_second;
  throw input_error(fmt::format("{}: {}: unknown time_unit '{}'", source, row.text(), printable(unit, 40)));
}

/// The strings of a JSON string or array of strings (anything else in it is ignored).
inline std::vector<std::string> strings_of(const json& j) {
  if (j.is_string()) return {j.get<std::string>()};
  std::vector<std::string> out;
  if (j.is_array())
    for (auto& v : j)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

// The readers of a row or a case's metadata take a tree (json) or its events (event_json) alike.
template <typename Json>
std::string string_field(const Json& j, const char* key, const std::string& fallback = "") {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->template get<std::string>() : fallback;
}
template <typename Json>
double number_field(const Json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return fallback;
  const double v = it->template get<double>();
  return std::isfinite(v) ? v : fallback;
}
template <typename Json>
bool bool_field(const Json& j, const char* key, bool fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->template get<bool>() : fallback;
}

enum class kind { string, number, boolean, object, array };

template <typename Json>
bool is_kind(const Json& v, kind want) {
  switch (want) {
    case kind::string: return v.is_string();
    case kind::number: return v.is_number();
    case kind::boolean: return v.is_boolean();
    case kind::object: return v.is_object();
    case kind::array: return v.is_array();
  }
  return false;
}
/// What each kind is called in a message.
inline const char* kind_name(kind want) {
  switch (want) {
    case kind::string: return "a string";
    case kind::number: return "a number";
    case kind::boolean: return "true or false";
    case kind::object: return "an object";
    case kind::array: return "an array";
  }
  return "";
}
template <typename Json>
std::string wrong_type(const Json& v, kind want) {
  return fmt::format("is {} {} where {} is expected", v.is_array() || v.is_object() ? "an" : "a", v.type_name(),
                     kind_name(want));
}

/// Throws naming the field (`where`.`key`) when it is present, not null, and not of the kind expected
/// (the JSON library's own message names no field).
inline void expect_kind(const json& j, const char* key, kind want, const std::string& where,
                        const std::string& source) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null() && !is_kind(*it, want))
    throw input_error(
        fmt::format("{}: field '{}{}{}' {}", source, where, where.empty() ? "" : ".", key, wrong_type(*it, want)));
}

/// Names the first field of a row whose type is not the one Google Benchmark writes (the JSON library's
/// own message names neither the row nor the field).
template <typename Json>
void check_field_types(const Json& row, const std::string& source, std::size_t row_number) {
  static constexpr std::pair<std::string_view, kind> fields[] = {
      {k::run_name, kind::string},        {k::run_type, kind::string},      {k::aggregate_name, kind::string},
      {k::aggregate_unit, kind::string},  {k::time_unit, kind::string},     {k::label, kind::string},
      {k::skip_message, kind::string},    {k::error_message, kind::string}, {k::repetition_index, kind::number},
      {k::threads, kind::number},         {k::real_time, kind::number},     {k::cpu_time, kind::number},
      {k::error_occurred, kind::boolean}, {k::skipped, kind::boolean},      {k::cudabench, kind::object}};
  for (const auto& [key, value] : row.items()) {  // one pass over the row, not a search a field
    if (value.is_null()) continue;
    const std::string_view name = key;  // a structured binding, which clang 14's lambdas cannot capture
    const auto want =
        std::find_if(std::begin(fields), std::end(fields), [&](const auto& f) { return f.first == name; });
    if (want != std::end(fields) && !is_kind(value, want->second))
      throw input_error(fmt::format("{}: row {} ('{}'): field '{}' {}", source, row_number,
                                    printable(row[k::name].template get<std::string>()), key,
                                    wrong_type(value, want->second)));
  }
  if (auto it = row.find(k::cudabench); it != row.end() && it->is_object()) {
    if (auto round = it->find(k::round);
        round != it->end() && (!round->is_number_integer() || round->template get<std::int64_t>() < 1 ||
                               round->template get<std::int64_t>() > 1000000))
      throw input_error(
          fmt::format("{}: row {}: field 'cudabench.{}' is {} where a round number (1 to the run's rounds) is expected",
                      source, row_number, k::round, printable(round->dump(), 40)));
    for (const char* key : {k::cache, k::note, k::stop})
      if (it->contains(key) && !(*it)[key].is_string() && !(*it)[key].is_null())
        throw input_error(fmt::format("{}: row {}: field 'cudabench.{}' is a {} where a string is expected", source,
                                      row_number, key, (*it)[key].type_name()));
    if (it->contains(k::correct) && !(*it)[k::correct].is_boolean())
      throw input_error(fmt::format("{}: row {}: field 'cudabench.correct' is a {} where true or false is expected",
                                    source, row_number, (*it)[k::correct].type_name()));
  }
}

/// The context: the host, the device(s), how the run was made, its families and limits, and (with
/// `with_cases`; the streaming reader takes them as they come) the cases it selected.
void read_context(run_result& r, const json& j, bool with_cases);

/// A case's declared metadata, its entry `m` of context.cudabench.cases (a tree or its events).
template <typename Json>
case_meta read_meta(const std::string& name, const Json& m, const std::string& source);

/// The rows read, each by its case, run type, aggregate, repetition index and threads: a row that repeats one is
/// refused. Kept without a string a row: the run type and aggregate by a number each, the numbers by their bits
/// (which tell apart what their shortest text does: 0 and -0, every other finite value).
class seen_rows {
 public:
  /// False where a row of these was seen before.
  bool insert(std::size_t case_index, const std::string& run_type, const std::string& aggregate, double repetition,
              double threads) {
    const key k{case_index, bits(repetition), bits(threads), id(run_type), id(aggregate)};
    if (2 * (used_ + 1) > slots_.size()) grow();
    return place(k);
  }

 private:
  struct key {
    std::uint64_t case_index = empty, repetition = 0, threads = 0;
    std::uint32_t run_type = 0, aggregate = 0;
    bool operator==(const key& o) const {
      return case_index == o.case_index && repetition == o.repetition && threads == o.threads &&
             run_type == o.run_type && aggregate == o.aggregate;
    }
  };
  static constexpr std::uint64_t empty = ~std::uint64_t(0);
  static std::uint64_t bits(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  }
  std::uint32_t id(const std::string& name) {
    return names_.try_emplace(name, std::uint32_t(names_.size())).first->second;
  }
  static std::size_t hash(const key& k) {
    std::uint64_t h = k.case_index * 0x9e3779b97f4a7c15ull;
    for (const std::uint64_t v : {k.repetition, k.threads, std::uint64_t(k.run_type) << 32 | k.aggregate})
      h = (h ^ v) * 0x100000001b3ull + (h >> 29);
    return std::size_t(h ^ (h >> 32));
  }
  bool place(const key& k) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(k) & mask;; i = (i + 1) & mask) {
      if (slots_[i].case_index == empty) {
        slots_[i] = k;
        ++used_;
        return true;
      }
      if (slots_[i] == k) return false;
    }
  }
  void grow() {
    std::vector<key> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    used_ = 0;
    for (const key& k : old)
      if (k.case_index != empty) place(k);
  }
  std::unordered_map<std::string, std::uint32_t> names_;
  std::vector<key> slots_;  ///< open addressing, at most half full
  std::size_t used_ = 0;
};

/// Reads rows one at a time into their cases (in the order first seen), as the parser meets them.
class row_reader {
 public:
  explicit row_reader(run_result& r, const case_filter* keep = nullptr) : r_(r), keep_(keep) {}
  template <typename Json>
  void read(const Json& row);
  /// The median aggregates of cases that may have only those.
  const std::map<std::string, double>& median_aggregates() const { return median_aggregate_; }
  /// Of each case with an energy record, the first row that has one (by the case's index).
  const std::map<std::size_t, std::size_t>& energy_rows() const { return energy_rows_; }
  /// Drops the indexes of the rows read (every row is read by now), so their memory is free before the model is
  /// finished.
  void forget_rows() {
    index_ = {};
    seen_rows_ = {};
    seen_ = {};
  }

 private:
  run_result& r_;
  const case_filter* keep_;  ///< the cases read (null: all)
  std::unordered_map<std::string, std::size_t> index_;
  seen_rows seen_;                             ///< the rows whose names, run type and aggregate hold no '|'
  std::unordered_set<std::string> seen_rows_;  ///< the others, by their text "name|run type|aggregate|index|threads"
  std::map<std::string, double> median_aggregate_;
  std::map<std::size_t, std::size_t> energy_rows_;
  std::size_t row_number_ = 0;
};

/// Throws unless `j` is a document with a non-empty "benchmarks" array (`rows` rows, read or still there).
void check_document(const json& j, std::size_t rows, const std::string& source);

/// After the context and every row are read: each case's declared metadata, its summary (unless `made` leaves it to
/// the run's assembly), the index.
void finish_run(run_result& r, const row_reader& rows, summaries made);

}  // namespace cudabench::reading
