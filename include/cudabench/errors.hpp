// The exceptions the public API throws for bad input: a wrong option or value, and an unusable file.
// (A case that cannot run here throws cudabench::skip_case, fixture.hpp; a failed CUDA call cuda_error,
// cuda_check.hpp; a family registered wrongly std::logic_error.)
#pragma once

#include <stdexcept>

namespace cudabench {

/// Bad command-line input or a value out of range: the caller prints the message (and the usage), exit 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input files (missing, unreadable, not benchmark JSON, ...): one line naming the file, exit 2.
class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cudabench
