// Output files that lose nothing and replace nothing they should not, and checked reads.
#include "harness/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/errors.hpp"

namespace cudabench {
namespace {
namespace fs = std::filesystem;

std::string temp_name(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

/// Where the bytes go: a symlink's final target (the link itself stays), else the path.
std::string resolved(const std::string& path) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(path, ec))) return path;
  const fs::path target = fs::weakly_canonical(path, ec);
  if (ec) throw input_error(path + ": cannot follow the symbolic link: " + ec.message());
  return target.string();
}

/// True when `path` exists and is not a regular file (a device node, a FIFO, a socket): written in place.
bool special_file(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}
}  // namespace

bool write_all(int fd, const std::string& content) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

void write_file_atomically(const std::string& requested, const std::string& content) {
  const std::string path = resolved(requested);
  if (special_file(path)) {  // /dev/null, /dev/stdout, a pipe: never replaced, written as they are
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw input_error(requested + ": cannot write: " + std::strerror(errno));
    const bool ok = write_all(fd, content);
    const int err = errno;
    ::close(fd);
    if (!ok) throw input_error(requested + ": write failed: " + std::strerror(err));
    return;
  }
  const std::string tmp = temp_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw input_error(requested + ": cannot write: " + std::strerror(errno));
  bool ok = write_all(fd, content);
  int err = errno;
  if (ok && ::fsync(fd) != 0 && errno != EINVAL) { ok = false; err = errno; }
  if (::close(fd) != 0 && ok) { ok = false; err = errno; }
  if (!ok) {
    std::remove(tmp.c_str());
    throw input_error(requested + ": write failed: " + std::strerror(err));
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw input_error(requested + ": cannot rename into place: " + ec.message());
  }
}

void check_writable(const std::string& requested) {
  std::error_code ec;
  if (fs::is_directory(requested, ec)) throw input_error(requested + ": is a directory, not a file");
  const std::string path = resolved(requested);
  if (special_file(path)) {
    if (::access(path.c_str(), W_OK) != 0) throw input_error(requested + ": cannot write: " + std::strerror(errno));
    return;
  }
  const std::string tmp = temp_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw input_error(requested + ": cannot write: " + std::strerror(errno));
  ::close(fd);
  std::remove(tmp.c_str());
}

std::string make_temp_directory(const std::string& prefix) {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);  // $TMPDIR, else /tmp
  std::string dir = ((ec ? fs::path("/tmp") : base) / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(dir.data())) throw input_error("cannot create a temporary directory (" + dir + "): " + std::strerror(errno));
  return dir;
}

std::string same_file_key(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? path : p.string();
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw input_error(path + ": no such file");
  if (fs::is_directory(path, ec)) throw input_error(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path + ": cannot read: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw input_error(path + ": read failed");
  return ss.str();
}

}  // namespace cudabench
