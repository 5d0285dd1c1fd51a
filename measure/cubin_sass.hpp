// The SASS of each kernel in a cubin (an ELF image as the driver loads it): each kernel's machine code is its
// own section, ".text.<mangled name>", whose bytes are hashed. Plain C++: tests read cubins nvcc made.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudabench {

/// (mangled kernel name, its SASS: a view into `cubin`) for each kernel section of `cubin`; empty where `cubin` is
/// not a 64-bit little-endian ELF image or its section table lies outside it. Never reads outside `cubin`.
std::vector<std::pair<std::string, std::string_view>> kernel_sections(std::string_view cubin);

/// The hash of a kernel's SASS (16 hex digits), as kernel_sass_hashes gives it.
std::string sass_hash(std::string_view sass);

/// (mangled kernel name, sass_hash of its SASS) for each of kernel_sections(cubin).
std::vector<std::pair<std::string, std::string>> kernel_sass_hashes(std::string_view cubin);

}  // namespace cudabench
