// Whole-or-nothing file output: a regular file is written to a temporary beside it and renamed over it;
// a device node, FIFO or socket is written in place (never replaced); a symbolic link's target is written
// (the link stays).
#pragma once

#include <string>

namespace cudabench {

/// Writes `content` to `path` as above; throws input_error naming the path on failure (a full disk, a
/// closed pipe), leaving no temporary file.
void write_file_atomically(const std::string& path, const std::string& content);

/// Throws input_error unless a file can be created in `path`'s directory (checked before a long run).
void check_writable(const std::string& path);

/// Writes all of `content` to an open descriptor (retrying short writes and EINTR); false on failure, with
/// errno set.
bool write_all(int fd, const std::string& content);

/// A key equal for two paths that name the same file (absolute, symbolic links resolved), so an output
/// that would overwrite an input or another output can be refused before anything runs.
std::string same_file_key(const std::string& path);

/// Creates a new directory private to this process under $TMPDIR (else /tmp), named `prefix`-XXXXXX, and
/// returns its path; throws input_error naming it when it cannot.
std::string make_temp_directory(const std::string& prefix);

/// Reads a whole file; throws input_error naming the path when it is missing or unreadable.
std::string read_file(const std::string& path);

}  // namespace cudabench
