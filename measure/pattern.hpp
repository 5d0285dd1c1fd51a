// A pattern a user gives over case names (--filter, --inject-slowdown), matched in linear time by RE2.
#pragma once

#include <memory>
#include <string>

namespace re2 {
class RE2;
}

namespace cudabench {

/// A compiled RE2 pattern: no pattern and no name can make a match backtrack for long (RE2 has no
/// back-references and no exponential cases), which matters because names are matched in the main process,
/// where the watchdog cannot reach.
class name_pattern {
 public:
  /// The longest pattern taken: compiling stays small and quick.
  static constexpr std::size_t max_length = 1000;

  /// Compiles `pattern` (RE2 syntax); throws usage_error naming `option` when it is invalid or too long.
  name_pattern(const std::string& pattern, const std::string& option);

  /// Whether the pattern matches anywhere in `text` (unanchored, as Google Benchmark's filter).
  bool found_in(const std::string& text) const;

 private:
  std::shared_ptr<const re2::RE2> re_;  // shared: a compiled RE2 is immutable and thread-safe
};

/// A --filter over case names: an RE2 pattern matched anywhere in a name, whose leading '-' negates it (Google
/// Benchmark's convention). The one place that reads the '-'.
class name_filter {
 public:
  /// Every case (".").
  name_filter();
  /// Compiles `text`; throws usage_error naming `option` when it is empty, invalid or too long.
  explicit name_filter(const std::string& text, const std::string& option = "--filter");

  /// Whether the filter selects the case named `name`.
  bool selects(const std::string& name) const { return pattern_.found_in(name) != negated_; }
  /// The filter as written (passed on to another process as --filter=TEXT).
  const std::string& text() const { return text_; }
  /// Whether it selects every case as written (".").
  bool is_everything() const { return text_ == "."; }

 private:
  std::string text_;
  bool negated_ = false;
  name_pattern pattern_;
};

}  // namespace cudabench
