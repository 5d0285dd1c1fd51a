// A JSON text read in pieces: one pass that checks what the parser cannot be left to meet (nesting depth, bare
// NaN/inf words, NUL bytes), an input iterator over a regular file that the parser reads from, so that a
// large results file is never held whole in memory, and a reader of plain JSON that hands nlohmann's parser's
// events to its SAX handler several times faster.
#pragma once

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cudabench {

/// What one linear pass over a JSON text finds, fed in pieces of any size (strings skipped).
class json_text_scan {
 public:
  void feed(std::string_view piece);
  /// The deepest nesting of arrays and objects.
  std::size_t deepest() const { return deepest_; }
  /// A letter outside strings that no JSON literal has there (N, I, i, or an n not starting "null"): the text
  /// may hold Google Benchmark's bare NaN or inf words, which need rewriting before it parses.
  bool bare_words() const { return bare_words_; }
  /// The text holds a NUL byte (no JSON text does).
  bool nul() const { return nul_; }

 private:
  std::size_t depth_ = 0, deepest_ = 0;
  bool in_string_ = false, escaped_ = false, after_n_ = false;
  bool bare_words_ = false, nul_ = false;
};

/// A regular file's first `size` bytes, read from `fd` (not owned) in pieces as an input iterator advances.
class file_pieces {
 public:
  file_pieces(int fd, std::string name, std::uint64_t size);
  /// Every piece, in order, to `use(std::string_view)`; then the file is read from its start again.
  template <typename Use>
  void each_piece(Use use) {
    while (fill()) {
      use(std::string_view(buffer_.data() + pos_, len_ - pos_));
      pos_ = len_;
    }
    rewind();
  }

  /// The bytes as an input iterator of char (what nlohmann's parser reads from); the end iterator is
  /// iterator{}. Reading past a failed read throws input_error naming the file.
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    iterator() = default;
    explicit iterator(file_pieces* in) : in_(in && in->fill() ? in : nullptr) {}
    reference operator*() const { return in_->buffer_[in_->pos_]; }
    iterator& operator++() {
      if (++in_->pos_ == in_->len_ && !in_->fill()) in_ = nullptr;
      return *this;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.in_ == b.in_; }
    friend bool operator!=(const iterator& a, const iterator& b) { return a.in_ != b.in_; }

   private:
    file_pieces* in_ = nullptr;
  };
  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }
  /// The bytes not yet taken (by take() or the iterator) of the piece in hand, the next piece read when it is
  /// used up; empty at the end of the file.
  std::string_view available() {
    return fill() ? std::string_view(buffer_.data() + pos_, len_ - pos_) : std::string_view();
  }
  /// Takes the first `n` bytes of available().
  void take(std::size_t n) { pos_ += n; }
  /// Reads the file from its start again.
  void rewind();

 private:
  /// Makes bytes available at pos_ (reading the next piece when the buffer is used up); false at the end.
  bool fill();
  int fd_;
  std::string name_;
  std::uint64_t size_, read_ = 0;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, len_ = 0;
};

/// Reads a JSON text from `in` as nlohmann's sax_parse does (strict: one value, then only white space), handing
/// `sax` the same events in the same order, for texts of the plainest kind only: strings of printable ASCII
/// without escapes. At anything else (an escape or another byte in a string, a syntax error, a number out of a
/// double's range, nesting deeper than `max_depth`) it stops and returns false: the caller reads the text again
/// with nlohmann's parser, which reads every JSON text and names what is wrong with one. A text it reads to the
/// end has no NUL byte, no bare word (json_text_scan) and no deeper nesting. `sax`'s handlers must not return false.
template <typename Sax>
class plain_json_parser {
 public:
  plain_json_parser(file_pieces& in, Sax& sax, std::size_t max_depth = 256)
      : in_(in), sax_(sax), max_depth_(max_depth) {}
  bool parse() {
    const bool read = value(token()) && token() < 0;
    in_.take(at_);
    return read;
  }

 private:
  file_pieces& in_;
  Sax& sax_;
  std::string_view piece_;  ///< what in_ had available, of which at_ bytes are read
  std::size_t at_ = 0;
  std::string text_;  ///< the string or number read last
  std::size_t depth_ = 0, max_depth_;

  /// The next byte, not taken; -1 at the end.
  int peek() {
    if (at_ == piece_.size()) {
      in_.take(at_);
      piece_ = in_.available();
      at_ = 0;
      if (piece_.empty()) return -1;
    }
    return static_cast<unsigned char>(piece_[at_]);
  }
  /// The first byte of the next token (white space skipped), not taken; -1 at the end.
  int token() {
    for (;;) {
      for (; at_ < piece_.size(); ++at_) {
        const char c = piece_[at_];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return static_cast<unsigned char>(c);
      }
      if (peek() < 0) return -1;
    }
  }
  bool value(int c) {
    switch (c) {
      case '{': return nested([&] { return object(); });
      case '[': return nested([&] { return array(); });
      case '"': return string() && (sax_.string(text_), true);
      case 't': return literal("true") && (sax_.boolean(true), true);
      case 'f': return literal("false") && (sax_.boolean(false), true);
      case 'n': return literal("null") && (sax_.null(), true);
      default: return number();
    }
  }
  /// The value of an array or object at the next depth, where the depth is within max_depth_.
  template <typename Read>
  bool nested(Read read) {
    if (++depth_ > max_depth_) return false;
    const bool ok = read();
    --depth_;
    return ok;
  }
  bool object() {
    ++at_;
    sax_.start_object(std::size_t(-1));
    int c = token();
    if (c == '}') return ++at_, sax_.end_object(), true;
    for (;; c = token()) {
      if (c != '"' || !string()) return false;
      sax_.key(text_);
      if (token() != ':') return false;
      ++at_;
      if (!value(token())) return false;
      c = token();
      if (c != ',' && c != '}') return false;
      ++at_;
      if (c == '}') return sax_.end_object(), true;
    }
  }
  bool array() {
    ++at_;
    sax_.start_array(std::size_t(-1));
    if (token() == ']') return ++at_, sax_.end_array(), true;
    for (;;) {
      if (!value(token())) return false;
      const int c = token();
      if (c != ',' && c != ']') return false;
      ++at_;
      if (c == ']') return sax_.end_array(), true;
    }
  }
  /// A string's text into text_, from its opening quote to past its closing one; false at anything but
  /// printable ASCII before the closing quote.
  bool string() {
    ++at_;
    text_.clear();
    while (peek() >= 0) {
      const std::size_t from = at_;
      while (at_ < piece_.size() && piece_[at_] >= 0x20 && piece_[at_] < 0x7f && piece_[at_] != '"' &&
             piece_[at_] != '\\')
        ++at_;
      text_.append(piece_, from, at_ - from);
      if (at_ < piece_.size()) return piece_[at_] == '"' && (++at_, true);
    }
    return false;
  }
  bool literal(std::string_view word) {
    for (const char ch : word) {
      if (peek() != ch) return false;
      ++at_;
    }
    return true;
  }
  /// JSON's number grammar; the value as nlohmann's lexer makes it: an unsigned or signed integer where one
  /// holds it, else a double (strtod of the text), which must be finite.
  bool number() {
    text_.clear();
    auto digits = [&] {  // a run of digits at once, across pieces
      const std::size_t before = text_.size();
      do {
        const std::size_t from = at_;
        while (at_ < piece_.size() && piece_[at_] >= '0' && piece_[at_] <= '9') ++at_;
        text_.append(piece_.data() + from, at_ - from);
      } while (at_ == piece_.size() && peek() >= 0);
      return text_.size() > before;
    };
    auto take_if = [&](char a, char b = 0) {
      const int c = peek();
      return (c == a || (b && c == b)) && (text_ += char(c), ++at_, true);
    };
    const bool negative = take_if('-');
    if (take_if('0')) {
      if (peek() >= '0' && peek() <= '9') return false;
    } else if (!digits()) {
      return false;
    }
    const bool fraction = take_if('.');
    if (fraction && !digits()) return false;
    const bool exponent = take_if('e', 'E');
    if (exponent && !(take_if('+', '-'), digits())) return false;
    errno = 0;
    if (!fraction && !exponent && !negative) {
      const unsigned long long u = std::strtoull(text_.c_str(), nullptr, 10);
      if (errno == 0) return sax_.number_unsigned(u), true;
    } else if (!fraction && !exponent) {
      const long long i = std::strtoll(text_.c_str(), nullptr, 10);
      if (errno == 0) return sax_.number_integer(i), true;
    }
    double d = 0;  // as strtod makes it (the nearest double), without its locale
    const bool read = std::from_chars(text_.data(), text_.data() + text_.size(), d).ec == std::errc();
    return read && std::isfinite(d) && (sax_.number_float(d, text_), true);
  }
};

}  // namespace cudabench
