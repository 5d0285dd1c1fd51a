// A JSON text read in pieces: one pass that checks what the parser cannot be left to meet (nesting depth, bare
// NaN/inf words, NUL bytes), and an input iterator over a regular file that the parser reads from, so that a
// large results file is never held whole in memory.
#pragma once

#include <cstddef>
#include <cstdint>
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

 private:
  /// Makes bytes available at pos_ (reading the next piece when the buffer is used up); false at the end.
  bool fill();
  void rewind();
  int fd_;
  std::string name_;
  std::uint64_t size_, read_ = 0;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, len_ = 0;
};

}  // namespace cudabench
