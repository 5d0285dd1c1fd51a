// Reading benchmark JSON into the result model, with the validation that makes bad input a clear error.
#include "results/results.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "io/json_input.hpp"
#include "results/json_events.hpp"
#include "results/reading.hpp"
#include "results/results_schema.hpp"
#include "results/stats.hpp"

namespace cudabench {

std::string canonical_case_name(const std::string& gbench_name) {
  // Google Benchmark's run-setting components, dropped wherever they stand: one pass over the '/'s.
  auto is_setting = [](std::string_view part) {
    for (std::string_view flag : {"manual_time", "real_time", "process_time"})
      if (part == flag) return true;
    for (std::string_view key : {"iterations:", "repeats:", "min_time:", "min_warmup_time:"})
      if (part.substr(0, key.size()) == key) return true;
    return false;
  };
  std::string out;
  out.reserve(gbench_name.size());
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = gbench_name.find('/', start);
    const std::string_view part =
        std::string_view(gbench_name).substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (start == 0 || !is_setting(part)) {
      if (start != 0) out += '/';
      out += part;
    }
    if (slash == std::string::npos) return out;
    start = slash + 1;
  }
}

namespace {
using namespace reading;

/// What one pass of the parser leaves: the document without its rows and without the entries of
/// context.cudabench.cases (those went to their callbacks as each ended), and the rows' count.
struct streamed_document {
  json top;
  std::size_t rows = 0;
};

/// nlohmann's SAX events made into a tree, except that each element of the top-level "benchmarks" array and
/// each entry of context.cudabench.cases goes to its callback as soon as it ends and is dropped: the tree
/// never holds more than one row, so memory follows the model, not the text (a tree of a million rows took
/// ten times the file). Members are appended without ordered_json's one-by-one key search, which made any
/// large object quadratic (a key seen before in the same object replaces its value in place, as a tree does).
/// A row or a case's entry that is an object of scalars and objects goes to its callback as its events
/// (json_events), with no tree: at anything else in it (an array, a key given twice, an object of many
/// members) its events so far are handed to the tree and the rest of it is read as a tree.
template <typename OnRow, typename OnCase, typename OnRestart>
class streaming_builder {
 public:
  streaming_builder(std::string source, OnRow on_row, OnCase on_case, OnRestart on_restart)
      : source(std::move(source)),
        on_row_(std::move(on_row)),
        on_case_(std::move(on_case)),
        on_restart_(std::move(on_restart)) {}
  streamed_document doc;
  std::string source;  ///< the file, for messages

  bool null() { return flat_ ? (events_.add(json_events::type::null), true) : place(json(nullptr)); }
  bool boolean(bool v) { return flat_ ? (events_.add_boolean(v), true) : place(json(v)); }
  bool number_integer(json::number_integer_t v) {
    return flat_ ? (events_.add_number(json_events::type::integer, v), true) : place(json(v));
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return flat_ ? (events_.add_number(json_events::type::unsigned_integer, v), true) : place(json(v));
  }
  bool number_float(json::number_float_t v, const std::string&) {
    return flat_ ? (events_.add_number(json_events::type::floating, v), true) : place(json(v));
  }
  bool string(std::string& v) {
    return flat_ ? (events_.add_text(json_events::type::string, v), true) : place(json(std::move(v)));
  }
  bool binary(json::binary_t& v) {
    if (flat_) to_tree();
    return place(json::binary(std::move(v)));
  }
  bool start_object(std::size_t) {
    if (flat_ || (flat_allowed_ && (at_row() || at_case_entry()))) return start_flat_object();
    open(json::object());
    // A row, and an object in it: room for Google Benchmark's fields and ours at once (members of an ordered_json
    // are copied, not moved, as its vector grows).
    if (stack_.size() >= 3 && is_key(0, k::benchmarks))
      static_cast<json::object_t::Container&>(stack_.back().value.template get_ref<json::object_t&>())
          .reserve(stack_.size() == 3 ? row_members : 16);
    return true;
  }
  bool key(std::string& k) {
    if (flat_ && !flat_key(k)) to_tree();
    if (!flat_) stack_.back().key = std::move(k);
    return true;
  }
  bool end_object() { return flat_ ? end_flat_object() : close(); }
  bool start_array(std::size_t) {
    if (flat_) to_tree();
    if (stack_.size() == 1 && is_key(0, k::benchmarks)) {  // the rows begin (again: a tree keeps the last array)
      if (doc.rows > 0) on_restart_();
      doc.rows = 0;
    }
    return open(json::array());
  }
  bool end_array() { return close(); }
  template <typename Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  struct frame {
    json value;
    std::string key;                                     ///< an object's current key
    std::uint64_t key_bits = 0;                          ///< a bit for each key's hash: most new keys need no search
    std::unordered_map<std::string, std::size_t> index;  ///< an object's keys, once it has many
  };
  static constexpr std::size_t searched_members = 48;  // below this a search where a key's bit is set; above, a hash
  static constexpr std::size_t row_members = 32;
  std::vector<frame> stack_;
  OnRow on_row_;
  OnCase on_case_;
  OnRestart on_restart_;
  /// The row or case entry read as events: its events, and for each object open in it, its object_start and
  /// a bit for each of its keys' hashes.
  json_events events_;
  struct open_object {
    std::size_t start;
    std::uint64_t key_bits = 0;
    std::size_t members = 0;
  };
  std::vector<open_object> open_;
  bool flat_ = false;         ///< events go to events_
  bool flat_allowed_ = true;  ///< false from a row's change to a tree to its end

  bool at_row() const { return stack_.size() == 2 && is_key(0, k::benchmarks) && stack_[1].value.is_array(); }
  bool at_case_entry() const {
    return stack_.size() == 4 && is_key(0, k::context) && is_key(1, k::cudabench) && is_key(2, k::cases) &&
           stack_[3].value.is_object();
  }
  bool start_flat_object() {
    if (!flat_) events_.clear();
    flat_ = true;
    open_.push_back({events_.size()});
    events_.add(json_events::type::object_start);
    return true;
  }
  /// Adds a key to the events; false where it is one the object has, or the object has many (the tree
  /// refuses the one, indexes the other).
  bool flat_key(const std::string& key) {
    open_object& o = open_.back();
    if (o.members + 1 >= searched_members) return false;
    const std::uint32_t tag = json_events::key_tag(key);
    const std::uint64_t bit = json_events::key_bit(tag);
    if (o.key_bits & bit)
      for (auto it = event_json(events_, o.start).begin(); it.at() < events_.size(); ++it)
        if (it.key_tag() == tag && it.key() == key) return false;
    o.key_bits |= bit;
    ++o.members;
    events_.add_text(json_events::type::key, key);
    return true;
  }
  bool end_flat_object() {
    events_.end_object(open_.back().start, open_.back().key_bits);
    open_.pop_back();
    if (!open_.empty()) return true;
    flat_ = false;
    const event_json v(events_, 0);
    if (stack_.size() == 2) {
      ++doc.rows;
      on_row_(v);
    } else {
      on_case_(stack_.back().key, v);
    }
    return true;
  }
  /// The events so far handed to the tree, which reads the rest of the row or case entry.
  void to_tree() {
    flat_ = false;
    flat_allowed_ = false;
    open_.clear();
    events_.replay(*this);
  }

  bool is_key(std::size_t depth, const char* key) const {
    return stack_[depth].value.is_object() && stack_[depth].key == key;
  }
  bool open(json container) {
    stack_.push_back({std::move(container), {}, 0, {}});
    return true;
  }
  bool close() {
    json value = std::move(stack_.back().value);
    stack_.pop_back();
    return place(std::move(value));
  }
  bool place(json v) {
    if (stack_.empty()) {
      doc.top = std::move(v);
      return true;
    }
    frame& parent = stack_.back();
    if (parent.value.is_array()) {
      if (stack_.size() == 2 && is_key(0, k::benchmarks)) {
        flat_allowed_ = true;
        ++doc.rows;
        on_row_(v);
      } else {
        parent.value.push_back(std::move(v));
      }
      return true;
    }
    if (stack_.size() == 4 && is_key(0, k::context) && is_key(1, k::cudabench) && is_key(2, k::cases)) {
      flat_allowed_ = true;
      on_case_(parent.key, v);
      return true;
    }
    add_member(parent, std::move(v));
    return true;
  }
  void add_member(frame& object, json v) {
    auto& members = static_cast<json::object_t::Container&>(object.value.template get_ref<json::object_t&>());
    if (members.size() < searched_members) {
      const std::uint64_t bit = std::uint64_t(1) << (std::hash<std::string>{}(object.key) % 64);
      if (object.key_bits & bit)
        for (auto& [name, value] : members)
          if (name == object.key) refuse_repeated_key();
      object.key_bits |= bit;
    } else {
      if (object.index.empty())
        for (std::size_t i = 0; i < members.size(); ++i) object.index.emplace(members[i].first, i);
      if (!object.index.emplace(object.key, members.size()).second) refuse_repeated_key();
    }
    members.emplace_back(std::move(object.key), std::move(v));
  }
  /// A key given twice in one object (which one is meant?), named by its path: "row 3: key 'real_time'",
  /// "key 'context.date'".
  [[noreturn]] void refuse_repeated_key() const {
    std::string at, row;
    for (std::size_t d = 0; d < stack_.size(); ++d) {
      if (d == 1 && is_key(0, k::benchmarks)) {
        row = fmt::format("row {}: ", doc.rows + 1);
        at.clear();
        continue;
      }
      if (stack_[d].value.is_object()) at += (at.empty() ? "" : ".") + printable(stack_[d].key, 60);
    }
    throw input_error(
        fmt::format("{}: {}key '{}' appears twice in one object (refused: which one is meant?)", source, row, at));
  }
};

/// Parses in one pass (streaming_builder) what `sax_parse(&builder)` reads; syntax errors and numbers out of
/// range throw nlohmann's exceptions, as json::parse does.
template <typename SaxParse, typename OnRow, typename OnCase, typename OnRestart>
streamed_document parse_streaming(SaxParse sax_parse, const std::string& source, OnRow on_row, OnCase on_case,
                                  OnRestart on_restart) {
  streaming_builder<OnRow, OnCase, OnRestart> builder(source, std::move(on_row), std::move(on_case),
                                                      std::move(on_restart));
  sax_parse(&builder);
  return std::move(builder.doc);
}
}  // namespace

run_result parse_run(const json& j, const std::string& source) {
  run_result r;
  r.source = source;
  check_document(
      j, j.is_object() && j.contains(k::benchmarks) && j[k::benchmarks].is_array() ? j[k::benchmarks].size() : 0,
      source);
  read_context(r, j, true);
  row_reader rows(r);
  for (const auto& row : j[k::benchmarks]) rows.read(row);
  finish_run(r, rows, summaries::made);
  return r;
}

namespace {
/// The text with every bare NaN/nan/inf/Inf/Infinity outside strings (optionally signed) turned into null,
/// or nothing when it holds none (a large file is then parsed where it lies, not copied).
std::optional<std::string> sanitized_copy(const std::string& text) {
  static const std::string_view words[] = {"Infinity", "NaN", "nan", "Inf", "inf"};
  std::optional<std::string> out;  // starts at the first replacement
  std::size_t copied = 0;          // text[copied, i) still to append to out
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\' && i + 1 < text.size())
        ++i;
      else if (ch == '"')
        in_string = false;
      ++i;
      continue;
    }
    if (ch == '"') {
      in_string = true;
      ++i;
      continue;
    }
    const std::size_t j = i + (ch == '-' || ch == '+' ? 1 : 0);
    if (j >= text.size() || (text[j] != 'N' && text[j] != 'n' && text[j] != 'I' && text[j] != 'i')) {
      ++i;
      continue;
    }
    bool replaced = false;
    for (std::string_view w : words) {
      if (text.compare(j, w.size(), w) != 0) continue;
      const std::size_t end = j + w.size();
      const bool word_ends =
          end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
      const bool word_starts = i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                           text[i - 1] == '_' || text[i - 1] == '.');
      if (word_ends && word_starts) {
        if (!out) out.emplace().reserve(text.size());
        out->append(text, copied, i - copied);
        *out += "null";
        i = copied = end;
        replaced = true;
        break;
      }
    }
    if (!replaced) ++i;
  }
  if (out) out->append(text, copied, std::string::npos);
  return out;
}
}  // namespace

std::string sanitize_gbench_json(const std::string& text) {
  std::optional<std::string> out = sanitized_copy(text);
  return out ? std::move(*out) : text;
}

std::size_t json_nesting_depth(std::string_view text) {
  json_text_scan scan;
  scan.feed(text);
  return scan.deepest();
}

namespace {
void refuse_deep(std::size_t depth, const std::string& path) {
  if (depth > max_json_depth)
    throw input_error(fmt::format("{}: JSON nested {} levels deep (benchmark results need a few; over {} is refused)",
                                  path, depth, max_json_depth));
}

/// The model of the text that `sax_parse(builder)` hands to the builder (parse_run_text's steps after the checks
/// of the text as a whole).
template <typename SaxParse>
run_result parse_run_input(SaxParse sax_parse, const std::string& path, const case_filter* keep, summaries made) {
  run_result r;
  r.source = path;
  std::optional<row_reader> rows(std::in_place, r, keep);
  std::exception_ptr
      row_error;  // the first row's problem, thrown after the checks of the whole, as a tree's reader would
  std::unordered_map<std::string, std::size_t> selected;  // the cases listed, each once
  streamed_document doc;
  try {
    doc = parse_streaming(
        sax_parse, path,
        [&](const auto& row) {
          if (row_error) return;
          try {
            rows->read(row);
          } catch (...) { row_error = std::current_exception(); }
        },
        [&](const std::string& name, const auto& m) {
          if (!selected.emplace(name, r.selection.size()).second)
            throw input_error(fmt::format(
                "{}: key 'context.cudabench.cases.{}' appears twice in one object (refused: which one is meant?)", path,
                printable(name, 60)));
          if (!keep || (*keep)(name)) r.selection.push_back(read_meta(name, m, r.source));
        },
        [&] {
          r.cases.clear();
          rows.emplace(r, keep);
          row_error = nullptr;
        });
  } catch (const nlohmann::json::exception& e) {  // syntax errors, and numbers out of a double's range
    throw input_error(fmt::format("{}: invalid JSON ({})", path, printable(e.what())));
  }
  try {
    check_document(doc.top, doc.rows, path);
    read_context(r, doc.top, false);
    if (row_error) std::rethrow_exception(row_error);
    selected = {};
    rows->forget_rows();
    finish_run(r, *rows, made);
    return r;
  } catch (const input_error&) {
    throw;
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type somewhere
    throw input_error(fmt::format("{}: not benchmark output we can read ({})", path, printable(e.what())));
  } catch (const std::exception& e) {  // anything else the library or the model throws: still this file's fault
    throw input_error(fmt::format("{}: not benchmark output we can read ({})", path, printable(e.what())));
  }
}

/// parse_run_text, keeping the cases `keep` accepts (null: all).
run_result parse_text(const std::string& raw, const std::string& path, const case_filter* keep, summaries made) {
  if (blank(raw)) throw input_error(empty_input(path, "results"));
  json_text_scan scan;  // one pass for the depth, and for whether a copy without bare words is needed at all
  scan.feed(raw);
  refuse_deep(scan.deepest(), path);
  const std::optional<std::string> sanitized = scan.bare_words() ? sanitized_copy(raw) : std::nullopt;
  const std::string& text = sanitized ? *sanitized : raw;
  return parse_run_input([&](auto* builder) { json::sax_parse(text, builder); }, path, keep, made);
}
}  // namespace

run_result parse_run_text(const std::string& raw, const std::string& path, summaries made) {
  return parse_text(raw, path, nullptr, made);
}

namespace {
/// A regular file within the size limit, read in pieces: the checks in one pass, then the parse in another, so
/// its text is never held whole. Nothing where read_file has something to say of the file first (not a regular
/// file, over the limit, a NUL byte) or its text holds bare NaN/inf words to rewrite: it is read whole then.
std::optional<run_result> load_run_in_pieces(const std::string& path, const case_filter* keep, summaries made) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      std::uint64_t(st.st_size) > max_input_size())
    return std::nullopt;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  struct closing {
    int fd;
    ~closing() { ::close(fd); }
  } const closes{fd};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || std::uint64_t(st.st_size) > max_input_size())
    return std::nullopt;
  file_pieces in(fd, path, std::uint64_t(st.st_size));
  // The plain reader first: a text it reads to the end passes the checks of the whole text. Where it stops, the
  // checks come first, then nlohmann's parser; a problem it met before it stopped is the file's where they pass.
  struct not_plain {};
  std::exception_ptr problem;
  try {
    return parse_run_input(
        [&](auto* builder) {
          if (!plain_json_parser(in, *builder, max_json_depth).parse()) throw not_plain{};
        },
        path, keep, made);
  } catch (const not_plain&) {
  } catch (const input_error&) { problem = std::current_exception(); }
  in.rewind();
  json_text_scan scan;
  bool nothing = true;  // only white space: empty, to the user
  in.each_piece([&](std::string_view piece) {
    scan.feed(piece);
    nothing = nothing && blank(piece);
  });
  if (nothing) throw input_error(empty_input(path, "results"));
  if (scan.nul() || scan.bare_words()) return std::nullopt;
  refuse_deep(scan.deepest(), path);
  if (problem) std::rethrow_exception(problem);
  return parse_run_input([&](auto* builder) { json::sax_parse(in.begin(), in.end(), builder); }, path, keep, made);
}

run_result load_filtered(const std::string& path, const case_filter* keep, summaries made = summaries::made) {
  if (std::optional<run_result> r = load_run_in_pieces(path, keep, made)) return std::move(*r);
  return parse_text(read_file(path), path, keep, made);
}
}  // namespace

run_result load_run(const std::string& path) { return load_filtered(path, nullptr); }

run_result load_run(const std::string& path, summaries made) { return load_filtered(path, nullptr, made); }

run_result load_run(const std::string& path, const case_filter& keep) {
  const case_filter none = [](const std::string&) { return false; };
  return load_filtered(path, keep ? &keep : &none);
}

}  // namespace cudabench
