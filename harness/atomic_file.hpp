// Whole files in and out: a file written through output_sink, a checked read, a private temporary directory.
#pragma once

#include <string>

#include "harness/output_sink.hpp"

namespace cudabench {

/// Writes `content` to `path` through output_sink (a regular file whole or not at all, a special file in
/// place, a symbolic link's target); throws input_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& content);

/// Throws input_error unless `path` can be written (checked before a long run).
void check_writable(const std::string& path);

/// Creates a new directory private to this process under $TMPDIR (else /tmp), named `prefix`-XXXXXX, and
/// returns its path; throws input_error naming it when it cannot.
std::string make_temp_directory(const std::string& prefix);

/// Reads a whole file; throws input_error naming the path when it is missing or unreadable.
std::string read_file(const std::string& path);

}  // namespace cudabench
