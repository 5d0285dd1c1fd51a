// What identifies the device code a case ran: each kernel it launched (the hash of its SASS and its launch
// shape) and each copy and memset (kind and size), read from one untimed sample traced with CUPTI. Two runs
// whose case has the same identity ran the same machine code the same way: a change of its time between them
// is the machine's, not the code's.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "results/timeline.hpp"

namespace cudabench {

struct code_identity {
  /// 16 hex digits over the launches and the count of streams; "" where it could not be told (a kernel whose
  /// SASS was not seen, no device activity recorded).
  std::string digest;
  /// One line per operation of the sample, sorted (concurrent streams start in either order): "kernel NAME
  /// sass=HASH grid=XxYxZ block=XxYxZ smem=S", "copy HtoD 4096 B", "memset 4096 B".
  std::vector<std::string> launches;
  std::size_t streams = 0;  ///< distinct streams the operations ran on
  std::string problem;      ///< why there is no digest ("" when there is one)
};

/// The identity of one sample's operations; a kernel whose SASS hash is unknown leaves the digest empty, with
/// the reason in `problem`.
code_identity identify(const std::vector<device_op>& ops);

/// 64-bit FNV-1a of `bytes`, as 16 hex digits: the hash of a kernel's SASS and of an identity's launches.
std::string fnv1a_hex(std::string_view bytes);

nlohmann::ordered_json to_json(const code_identity& c);
/// Reads what to_json wrote; a field of the wrong type is an input_error naming `where`.
code_identity code_identity_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace cudabench
