#include "measure/cubin_sass.hpp"

#include <cstdint>
#include <cstring>

#include "results/code_identity.hpp"

namespace cudabench {

namespace {
/// A little-endian unsigned integer of `n` bytes at `at`, or false where it lies outside `image`.
bool read_le(std::string_view image, std::uint64_t at, int n, std::uint64_t& out) {
  if (at > image.size() || image.size() - at < std::uint64_t(n)) return false;
  out = 0;
  for (int i = n - 1; i >= 0; --i) out = (out << 8) | static_cast<unsigned char>(image[at + i]);
  return true;
}

struct section {
  std::uint64_t name = 0, offset = 0, size = 0;
};
}  // namespace

std::vector<std::pair<std::string, std::string_view>> kernel_sections(std::string_view cubin) {
  std::vector<std::pair<std::string, std::string_view>> out;
  if (cubin.size() < 64 ||
      std::memcmp(cubin.data(),
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      cubin[4] != 2 || cubin[5] != 1)
    return out;
  std::uint64_t shoff = 0, shentsize = 0, shnum = 0, shstrndx = 0;
  if (!read_le(cubin, 0x28, 8, shoff) || !read_le(cubin, 0x3A, 2, shentsize) || !read_le(cubin, 0x3C, 2, shnum) ||
      !read_le(cubin, 0x3E, 2, shstrndx) || shentsize < 0x28 || shstrndx >= shnum)
    return out;
  auto header = [&](std::uint64_t i, section& s) {
    const std::uint64_t at = shoff + i * shentsize;
    return read_le(cubin, at, 4, s.name) && read_le(cubin, at + 0x18, 8, s.offset) &&
           read_le(cubin, at + 0x20, 8, s.size) && s.offset <= cubin.size() && cubin.size() - s.offset >= s.size;
  };
  section names;
  if (!header(shstrndx, names)) return out;
  const std::string_view strings = cubin.substr(names.offset, names.size);
  constexpr std::string_view text = ".text.";
  for (std::uint64_t i = 0; i < shnum; ++i) {
    section s;
    if (!header(i, s) || s.name >= strings.size()) continue;
    std::string_view name = strings.substr(s.name);
    name = name.substr(0, name.find('\0'));
    if (name.size() <= text.size() || name.substr(0, text.size()) != text) continue;
    out.emplace_back(std::string(name.substr(text.size())), cubin.substr(s.offset, s.size));
  }
  return out;
}

std::string sass_hash(std::string_view sass) { return fnv1a_hex(sass); }

std::vector<std::pair<std::string, std::string>> kernel_sass_hashes(std::string_view cubin) {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& [name, sass] : kernel_sections(cubin)) out.emplace_back(std::move(name), sass_hash(sass));
  return out;
}

}  // namespace cudabench
