// Patterns over case names through RE2, with the user's option named in every refusal.
#include "measure/pattern.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include "io/errors.hpp"
#include "io/format.hpp"

namespace cudabench {

name_pattern::name_pattern(const std::string& pattern, const std::string& option) {
  if (pattern.size() > max_length)
    throw usage_error(fmt::format("{}: a regular expression of over {} characters is refused", option, max_length));
  RE2::Options opts;
  opts.set_log_errors(false);  // the error goes into the one-line refusal below, not to standard error
  auto re = std::make_shared<const RE2>(pattern, opts);
  if (!re->ok())
    throw usage_error(
        fmt::format("{}: invalid regular expression '{}' (RE2 syntax): {}", option, printable(pattern), re->error()));
  re_ = std::move(re);
}

bool name_pattern::found_in(const std::string& text) const { return RE2::PartialMatch(text, *re_); }

namespace {
/// The pattern of a filter: its text without the leading '-' of a negation; refuses an empty one.
std::string filter_pattern(const std::string& text, const std::string& option) {
  if (text.empty()) throw usage_error(option + " needs a regular expression");
  return text[0] == '-' ? text.substr(1) : text;
}
}  // namespace

name_filter::name_filter() : name_filter(".") {}

name_filter::name_filter(const std::string& text, const std::string& option)
    : text_(text), negated_(!text.empty() && text[0] == '-'), pattern_(filter_pattern(text, option), option) {}

}  // namespace cudabench
