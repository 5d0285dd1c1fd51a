// Whole files in and out: the bounded reader of result files, writes through output_sink, temporary directories.
#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>

#include "io/errors.hpp"

namespace cudabench {
namespace fs = std::filesystem;

void write_file_atomically(const std::string& path, const std::string& content) { output_sink(path).write(content); }

void check_writable(const std::string& path) { output_sink(path).check(); }

namespace {
std::string make_directory_under(const fs::path& parent, const std::string& prefix) {
  std::string dir = (parent / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(dir.data()))
    throw input_error("cannot create a temporary directory (" + dir + "): " + std::strerror(errno));
  return dir;
}
}  // namespace

std::string make_temp_directory(const std::string& prefix) {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);  // $TMPDIR, else /tmp
  return make_directory_under(ec ? fs::path("/tmp") : base, prefix);
}

temp_directory::temp_directory(const std::string& prefix, const std::string& parent)
    : path_(parent.empty() ? make_temp_directory(prefix) : make_directory_under(parent, prefix)) {}

temp_directory::~temp_directory() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

namespace {
constexpr std::uint64_t default_max_input = std::uint64_t(4) << 30;  // well above a real nightly file (~1.5 MB)
const char* const max_input_variable = "CUDABENCH_MAX_INPUT_SIZE";

/// "12", "64K", "512M", "4G" (powers of 1024) as bytes; nothing for anything else.
std::optional<std::uint64_t> byte_count(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  const std::string_view suffix(end, std::size_t(text.data() + text.size() - end));
  int shift = 0;
  if (suffix == "K" || suffix == "k")
    shift = 10;
  else if (suffix == "M")
    shift = 20;
  else if (suffix == "G")
    shift = 30;
  else if (!suffix.empty())
    return std::nullopt;
  if (value > (std::numeric_limits<std::uint64_t>::max() >> shift)) return std::nullopt;
  return value << shift;
}

std::string mode_name(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory, not a file";
  if (S_ISFIFO(mode))
    return "is a FIFO (named pipe), not a regular file: refused (a pipe's output is read as -, standard input)";
  if (S_ISCHR(mode)) return "is a character device, not a regular file: refused";
  if (S_ISBLK(mode)) return "is a block device, not a regular file: refused";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file: refused";
  return "is not a regular file: refused";
}

/// Why `path` cannot be opened, in words: a symbolic link loop or a dangling link is not "no such file".
std::string open_failure(const std::string& path, int err) {
  struct stat st {};
  if (err == ELOOP) return path + ": a loop of symbolic links (too many levels)";
  if (err == ENOENT && ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
    return path + ": a symbolic link to a file that does not exist";
  if (err == ENOENT) return path + ": no such file";
  return path + ": cannot read: " + std::strerror(err);
}

/// Reads `fd` to its end, refusing more than `cap` bytes; `name` names it in messages. `expected` bytes are
/// reserved at once (a file's size), so the text is not copied as it grows.
std::string read_bounded(int fd, const std::string& name, std::uint64_t cap, std::uint64_t expected = 0) {
  std::string out;
  out.reserve(std::size_t(std::min(expected, cap)) + 1);
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) throw input_error(name + ": nothing to read yet (a pipe with no writer?): refused");
    if (n < 0) throw input_error(name + ": read failed: " + std::strerror(errno));
    if (n == 0) return out;
    // JSON text never holds a NUL byte (a string escapes it): binary input such as /dev/zero is refused at
    // once, not after the size limit's worth of it.
    if (const void* nul = std::memchr(buffer, '\0', std::size_t(n)))
      throw input_error(fmt::format("{}: holds a NUL byte at byte {}: not JSON text, refused", name,
                                    out.size() + std::size_t(static_cast<const char*>(nul) - buffer)));
    if (out.size() + std::uint64_t(n) > cap)
      throw input_error(
          fmt::format("{}: over {} bytes, the limit on a result file ({} raises it)", name, cap, max_input_variable));
    out.append(buffer, std::size_t(n));
  }
}
}  // namespace

std::uint64_t max_input_size() {
  const char* text = std::getenv(max_input_variable);
  if (!text || !*text) return default_max_input;
  const auto bytes = byte_count(text);
  if (!bytes || *bytes == 0)
    throw input_error(
        fmt::format("{}={}: expected a byte count such as 4G, 512M, 64K or 1000000", max_input_variable, text));
  return *bytes;
}

bool blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::string empty_input(const std::string& path, std::string_view what) {
  return fmt::format("{}: empty (no {} in it)", path == "-" ? "standard input" : path, what);
}

std::string read_file(const std::string& path) {
  const std::uint64_t cap = max_input_size();
  if (path == "-") return read_bounded(STDIN_FILENO, "standard input", cap);
  if (path.empty()) throw input_error("an input needs a file name (an empty name was given)");
  // The type is checked before opening (opening a device may act on it), and again on what was opened;
  // O_NONBLOCK keeps a FIFO that slipped in between from waiting for a writer.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw input_error(open_failure(path, errno));
  if (!S_ISREG(st.st_mode)) throw input_error(path + ": " + mode_name(st.st_mode));
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw input_error(open_failure(path, errno));
  try {
    if (::fstat(fd, &st) != 0) throw input_error(path + ": cannot read: " + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) throw input_error(path + ": " + mode_name(st.st_mode));
    if (std::uint64_t(st.st_size) > cap)
      throw input_error(fmt::format("{}: {} bytes, over the limit of {} bytes on a result file ({} raises it)", path,
                                    std::uint64_t(st.st_size), cap, max_input_variable));
    std::string text = read_bounded(fd, path, cap, std::uint64_t(st.st_size));
    ::close(fd);
    return text;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

}  // namespace cudabench
