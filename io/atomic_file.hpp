// Whole files in and out: a file written through output_sink, a checked read, a private temporary directory.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "io/output_sink.hpp"

namespace cudabench {

/// Writes `content` to `path` through output_sink (a regular file whole or not at all, a special file in
/// place, a symbolic link's target); throws input_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& content);

/// Throws input_error unless `path` can be written (checked before a long run).
void check_writable(const std::string& path);

/// Creates a new directory private to this process under $TMPDIR (else /tmp), named `prefix`-XXXXXX, and
/// returns its path; throws input_error naming it when it cannot.
std::string make_temp_directory(const std::string& prefix);

/// A private temporary directory, `prefix`-XXXXXX under `parent` (default $TMPDIR, else /tmp), removed with
/// everything in it when this goes; throws input_error naming it when it cannot be made.
class temp_directory {
 public:
  explicit temp_directory(const std::string& prefix = "cudabench", const std::string& parent = "");
  ~temp_directory();
  temp_directory(const temp_directory&) = delete;
  temp_directory& operator=(const temp_directory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// Reads a whole regular file, or standard input for "-", of at most max_input_size() bytes; throws
/// input_error naming the path when it is missing, unreadable, over the limit, not a regular file (a FIFO
/// or a device is refused at once, never waited on or read without end) or holds a NUL byte (no JSON does).
std::string read_file(const std::string& path);

/// Whether `text` holds nothing but white space: an empty file, which every reader calls so by name.
bool blank(std::string_view text);

/// The reader's words for an empty input: "PATH: empty (no WHAT in it)", or "standard input: empty ...".
std::string empty_input(const std::string& path, std::string_view what);

/// The most bytes read_file takes in: $CUDABENCH_MAX_INPUT_SIZE (bytes, or with a K, M or G suffix), else
/// 4 GiB; throws input_error naming the variable when it is set to anything else.
std::uint64_t max_input_size();

}  // namespace cudabench
