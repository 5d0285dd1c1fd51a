// What identifies the device code a case ran: each kernel it launched (the hash of its SASS, its launch shape
// and its scalar arguments) and each copy and memset (kind and size), read from one untimed sample traced with
// CUPTI. Two runs whose case has the same identity ran the same machine code the same way on the same sizes: a
// change of its time between them is the machine's, not the code's.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
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
  /// sass=HASH grid=XxYxZ block=XxYxZ smem=S args=(N,p,...)", "copy HtoD 4096 B", "memset 4096 B".
  std::vector<std::string> launches;
  std::size_t streams = 0;  ///< distinct streams the operations ran on
  std::string problem;      ///< why there is no digest ("" when there is one)
};

/// The identity of one sample's operations; a kernel whose SASS hash is unknown leaves the digest empty, with
/// the reason in `problem`.
code_identity identify(const std::vector<device_op>& ops);

/// A kernel parameter: where it lies in the argument buffer and its size (cuFuncGetParamInfo's answer).
struct kernel_parameter {
  std::size_t offset = 0, size = 0;
};

/// A launch's arguments as code identity records them (device_op::args): "(A,B,...)", each 4- or 8-byte
/// parameter as an unsigned decimal, "p" where `is_pointer` says an 8-byte value is a CUDA pointer, "-" for a
/// parameter of another size (a struct's padding may hold anything). `value_of(i)` is parameter i's bytes. A
/// list longer than 96 characters becomes "#" and its hash.
std::string scalar_arguments(const std::vector<kernel_parameter>& layout,
                             const std::function<const void*(std::size_t)>& value_of,
                             const std::function<bool(std::uint64_t)>& is_pointer);

/// A kernel's name as code identity records it: the per-build module hash nvcc puts into the names of kernels of
/// internal linkage ("__nv_static_41__9038bef5_..." and "_GLOBAL__N__9038bef5_...", which differ between builds
/// of one source in two directories) written as "*", so the same code built elsewhere has the same identity.
std::string stable_kernel_name(std::string name);

/// 64-bit FNV-1a of `bytes`, as 16 hex digits: the hash of a kernel's SASS and of an identity's launches.
std::string fnv1a_hex(std::string_view bytes);
/// Whether `digest` has fnv1a_hex's form: 16 lower-case hex digits.
bool is_identity_digest(const std::string& digest);

nlohmann::ordered_json to_json(const code_identity& c);
/// The digest of sorted launch lines and a count of streams (what `identify` records).
std::string launches_digest(const std::vector<std::string>& launches, std::size_t streams);

/// Reads what to_json wrote; a field of the wrong type is an input_error naming `where`. The digest is computed
/// again from the launches read: where it differs from the recorded one, the identity is unknown (no digest, the
/// mismatch in `problem`), never the same as another's.
code_identity code_identity_from_json(const nlohmann::json& j, const std::string& where);

}  // namespace cudabench
