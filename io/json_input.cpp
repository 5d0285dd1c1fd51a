// A JSON text read in pieces: the one-pass checks, and the file read as the parser advances.
#include "io/json_input.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "io/errors.hpp"

namespace cudabench {

namespace {
/// The bytes outside strings that feed() looks at: quotes, brackets, NUL and the letters N, I, i and n.
constexpr std::array<bool, 256> notable = [] {
  std::array<bool, 256> t{};
  for (const char ch : std::string_view("\"[]{}NIin")) t[static_cast<unsigned char>(ch)] = true;
  t[0] = true;
  return t;
}();
}  // namespace

void json_text_scan::feed(std::string_view piece) {
  const char* at = piece.data();
  const char* const end = at + piece.size();
  while (at < end) {
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
        nul_ = *at++ == '\0' || nul_;
        continue;
      }
      while (at < end && *at != '"' && *at != '\\' && *at != '\0') ++at;  // the string's plain characters at once
      if (at == end) break;
      if (*at == '\\')
        escaped_ = true;
      else if (*at == '"')
        in_string_ = false;
      else
        nul_ = true;
      ++at;
      continue;
    }
    if (!after_n_) {  // the bytes that change nothing here (white space, numbers, most letters) at once
      while (at < end && !notable[static_cast<unsigned char>(*at)]) ++at;
      if (at == end) break;
    }
    const char ch = *at++;
    // JSON's literals outside strings are true, false and null, and an exponent's e: none has an N, an I or
    // an i, and an n begins "null" only. Anything else is a bare word (NaN, nan, inf, Infinity) or invalid.
    if (after_n_ && ch != 'u') bare_words_ = true;
    after_n_ = ch == 'n';
    switch (ch) {
      case '"': in_string_ = true; break;
      case '[':
      case '{': deepest_ = std::max(deepest_, ++depth_); break;
      case ']':
      case '}':
        if (depth_ > 0) --depth_;
        break;
      case 'N':
      case 'I':
      case 'i': bare_words_ = true; break;
      case '\0': nul_ = true; break;
      default: break;
    }
  }
}

namespace {
constexpr std::size_t piece_bytes = std::size_t(1) << 20;
}  // namespace

// A piece is at most the file's size: a small file costs a small buffer, not a megabyte zeroed and freed.
file_pieces::file_pieces(int fd, std::string name, std::uint64_t size) : fd_(fd), name_(std::move(name)), size_(size) {
  buffer_.resize(std::size_t(std::clamp<std::uint64_t>(size, 1, piece_bytes)));
}

bool file_pieces::fill() {
  if (pos_ < len_) return true;
  pos_ = len_ = 0;
  while (read_ < size_) {
    const std::size_t want = std::size_t(std::min<std::uint64_t>(buffer_.size(), size_ - read_));
    const ssize_t n = ::read(fd_, buffer_.data(), want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw input_error(name_ + ": read failed: " + std::strerror(errno));
    if (n == 0) return false;  // shorter than it was: the parser meets the end where the text stops
    read_ += std::uint64_t(n);
    len_ = std::size_t(n);
    return true;
  }
  return false;
}

void file_pieces::rewind() {
  if (::lseek(fd_, 0, SEEK_SET) != 0) throw input_error(name_ + ": cannot read it again: " + std::strerror(errno));
  read_ = 0;
  pos_ = len_ = 0;
}

}  // namespace cudabench
