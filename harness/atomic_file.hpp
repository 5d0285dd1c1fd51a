// Whole-or-nothing file output: write a temporary beside the target, then rename over it.
#pragma once

#include <string>

namespace cudabench {

/// Writes `content` to `path` atomically; throws input_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& content);

/// Throws input_error unless a file can be created in `path`'s directory (checked before a long run).
void check_writable(const std::string& path);

/// Reads a whole file; throws input_error naming the path when it is missing or unreadable.
std::string read_file(const std::string& path);

}  // namespace cudabench
