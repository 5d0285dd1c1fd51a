// Output destinations that lose nothing and replace nothing they should not.
#include "io/output_sink.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>

#include "io/errors.hpp"

namespace cudabench {
namespace {
namespace fs = std::filesystem;

/// The descriptor output_sink("-") writes to: standard output, or where standard_output_aside saved it.
int real_standard_output = STDOUT_FILENO;

/// Text printed through stdio or iostreams so far goes out before bytes written to a descriptor directly;
/// false (errno set) when it cannot.
bool flush_streams() {
  errno = 0;
  std::cout.flush();
  return std::fflush(stdout) == 0 && std::cout.good();
}

std::string temp_name(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }

/// True when `path` exists and is not a regular file or a directory (a device node, a FIFO, a socket).
bool special_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

[[noreturn]] void fail(const std::string& name, const char* what, int err) {
  throw input_error(name + ": " + what + ": " + std::strerror(err));
}

constexpr int fifo_reader_tries = 300;  ///< 10 ms apart: 3 s for a FIFO's reader to open it

/// Opens a special file (/dev/null, /dev/stdout, a FIFO) for writing as it is. A FIFO is opened without
/// waiting: with no process reading it, that fails (ENXIO) where a plain open would wait forever.

int open_special(const std::string& name, const std::string& path) {
  struct stat st {};
  const bool fifo = ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | (fifo ? O_NONBLOCK : 0));
  // A reader that is starting (a `cat FIFO &` just launched) gets a few seconds to open its end; after that
  // the FIFO has no reader, and the write is given up rather than waiting for ever.
  for (int tries = 0; fd < 0 && fifo && errno == ENXIO && tries < fifo_reader_tries; ++tries) {
    ::usleep(10000);
    fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  }
  if (fd < 0 && fifo && errno == ENXIO) throw input_error(name + ": a FIFO with no reader: nothing written");
  if (fd < 0) fail(name, "cannot write", errno);
  if (fifo) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // a reader is there: writes may wait on it
  return fd;
}

/// The temporaries being written now or held for an output_batch, for remove_temporaries_in_progress (read
/// from a signal handler: fixed slots, each claimed and published through atomics).
struct temporary_slot {
  std::atomic<int> state{0};  ///< 0 free, 1 being filled or emptied, 2 holds a path
  char path[4096];
};
temporary_slot temporaries[32];

/// Lists `tmp` for removal at a signal; its slot, or -1 when none is free (the name is too long or every slot
/// is taken).
int list_temporary(const std::string& tmp) noexcept {
  if (tmp.size() >= sizeof temporaries[0].path) return -1;
  for (int i = 0; i < int(std::size(temporaries)); ++i) {
    int free_slot = 0;
    if (!temporaries[i].state.compare_exchange_strong(free_slot, 1)) continue;
    std::memcpy(temporaries[i].path, tmp.c_str(), tmp.size() + 1);
    temporaries[i].state.store(2);
    return i;
  }
  return -1;
}

void unlist_temporary(int slot) noexcept {
  if (slot >= 0) temporaries[slot].state.store(0);
}

/// Lists `tmp` for removal while it is written; gone with the object.
class listed_temporary {
 public:
  explicit listed_temporary(const std::string& tmp) : slot_(list_temporary(tmp)) {}
  ~listed_temporary() { unlist_temporary(slot_); }
  listed_temporary(const listed_temporary&) = delete;
  listed_temporary& operator=(const listed_temporary&) = delete;

 private:
  int slot_;
};

/// Writes all of `content` to `tmp`, a new file beside the output `name` that will replace `path`, with the mode
/// of the file at `path` where there is one (a read-only report stays read-only); removes it and throws on failure.
void write_temporary(const std::string& name, const std::string& tmp, const std::string& path,
                     const std::string& content) {
  ::unlink(tmp.c_str());  // written before in this batch, it may be read-only by now
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(name, "cannot write", errno);
  struct stat replaced {};
  bool ok = write_all(fd, content);
  int err = errno;
  if (ok && ::stat(path.c_str(), &replaced) == 0 && S_ISREG(replaced.st_mode) &&
      ::fchmod(fd, replaced.st_mode & 0777) != 0) {
    ok = false;
    err = errno;
  }
  if (ok && ::fsync(fd) != 0 && errno != EINVAL) {
    ok = false;
    err = errno;
  }
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    std::remove(tmp.c_str());
    fail(name, "write failed", err);
  }
}

/// Writes a new file beside `path` and renames it over `path`: readers see the old file or the whole new one.
void replace_file(const std::string& name, const std::string& path, const std::string& content) {
  const std::string tmp = temp_name(path);
  const listed_temporary listed(tmp);
  write_temporary(name, tmp, path, content);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    fail(name, "cannot rename into place", err);
  }
}

/// The open output_batch (the outermost), written and read on the writing thread only.
output_batch* open_batch = nullptr;
/// Between a batch's renames and a signal handler ending the process: 0 neither, 1 renaming, 2 ending.
std::atomic<int> commit_state{0};
std::atomic<int> held_signal{0};  ///< a signal that came while renaming, raised again after
std::atomic<bool> renamed_into_place{false};
const char* const none_replaced = "; no output was replaced";
}  // namespace

void remove_temporaries_in_progress() noexcept {
  for (auto& s : temporaries)
    if (s.state.load() == 2) ::unlink(s.path);
}

bool may_end_process_now(int sig) noexcept {
  int idle = 0;
  if (commit_state.compare_exchange_strong(idle, 2) || idle == 2) return true;
  held_signal.store(sig);
  return false;
}

bool outputs_replaced() noexcept { return renamed_into_place.load(); }

output_batch::output_batch() {
  if (open_batch)
    joined_ = true;
  else
    open_batch = this;
}

output_batch::~output_batch() {
  if (joined_) return;
  discard();
  if (open_batch == this) open_batch = nullptr;
}

void output_batch::discard() noexcept {
  for (const staged_file& f : staged_) {
    ::unlink(f.tmp.c_str());
    unlist_temporary(f.slot);
  }
  staged_.clear();
}

void output_batch::stage(const std::string& name, const std::string& path, const std::string& content) {
  auto same = std::find_if(staged_.begin(), staged_.end(), [&](const staged_file& f) { return f.path == path; });
  if (same == staged_.end()) {
    const std::string tmp = temp_name(path);
    staged_.push_back({name, path, tmp, list_temporary(tmp)});
    same = staged_.end() - 1;
  }
  write_temporary(name, same->tmp, path, content);
}

void output_batch::commit() {
  if (joined_) return;
  int idle = 0;
  if (!commit_state.compare_exchange_strong(idle, 1))
    for (;;) ::pause();  // a signal handler is ending the process: nothing is renamed
  std::size_t done = 0;
  int err = 0;
  for (; done < staged_.size() && !err; ++done) {
    if (::rename(staged_[done].tmp.c_str(), staged_[done].path.c_str()) != 0)
      err = errno;
    else
      unlist_temporary(std::exchange(staged_[done].slot, -1));
  }
  const std::size_t renamed = err ? done - 1 : done;
  if (renamed > 0) renamed_into_place.store(true);
  commit_state.store(0);
  open_batch = nullptr;  // written from now on: in place
  const std::string failed = err ? staged_[done - 1].name : "";
  discard();
  if (const int sig = held_signal.exchange(0)) ::raise(sig);
  if (err)
    throw input_error(failed + ": cannot rename into place: " + std::strerror(err) +
                      (renamed > 0 ? "; the outputs before it were replaced" : none_replaced));
}

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

std::string final_target(const std::string& path) {
  fs::path p = path;
  for (int hops = 0; hops < 40; ++hops) {  // Linux's own limit on links followed in one lookup
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p.string();
    std::error_code ec;
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) throw input_error(path + ": cannot follow the symbolic link: " + ec.message());
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  throw input_error(path + ": too many levels of symbolic links");
}

std::optional<int> descriptor_named(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.rfind(prefix, 0) != 0 || path.size() == prefix.size() || path.size() > prefix.size() + 6) continue;
    const std::string digits = path.substr(prefix.size());
    if (digits.find_first_not_of("0123456789") == std::string::npos) return std::stoi(digits);
  }
  return std::nullopt;
}

output_sink::output_sink(std::string path) : kind_(kind::file), path_(std::move(path)) {
  // A descriptor's own name (/dev/stdout, /dev/fd/N) is that descriptor, written as it is: following its link
  // would reopen (and, for a regular file, replace) what the shell connected, or fail for a pipe.
  if (const std::optional<int> fd = descriptor_named(path_)) {
    kind_ = *fd == STDOUT_FILENO ? kind::standard_output : kind::descriptor;
    fd_ = *fd;
  }
}

output_sink output_sink::console() { return output_sink(kind::console, "standard output"); }

void output_sink::check() const {
  if (kind_ == kind::descriptor && ::fcntl(fd_, F_GETFL) < 0) fail(path_, "cannot write", errno);
  if (kind_ != kind::file) return;
  std::error_code ec;
  if (path_.empty()) throw input_error("an output needs a file name");
  const std::string path = final_target(path_);
  if (fs::is_directory(path, ec)) throw input_error(path_ + ": is a directory, not a file");
  if (special_file(path)) {
    if (::access(path.c_str(), W_OK) != 0) fail(path_, "cannot write", errno);
    return;
  }
  const std::string tmp = temp_name(path);
  const listed_temporary listed(tmp);  // a stop signal now removes the probe too
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path_, "cannot write", errno);
  ::close(fd);
  std::remove(tmp.c_str());
}

void output_sink::write_standard_output(const std::string& content) const {
  if (!flush_streams() || !write_all(kind_ == kind::console ? STDOUT_FILENO : real_standard_output, content))
    throw input_error(std::string("cannot write to standard output: ") + std::strerror(errno ? errno : EIO));
}

void output_sink::write(const std::string& content) const {
  if (!open_batch) return write_now(content);
  try {
    write_now(content);
  } catch (const input_error& e) {  // the batch, never committed, removes what it holds
    throw input_error(e.what() + std::string(none_replaced));
  }
}

void output_sink::write_now(const std::string& content) const {
  if (kind_ == kind::descriptor) {
    if (!flush_streams() || !write_all(fd_, content)) fail(path_, "write failed", errno ? errno : EIO);
    return;
  }
  if (kind_ != kind::file) return write_standard_output(content);
  if (path_.empty()) throw input_error("an output needs a file name");
  const std::string path = final_target(path_);
  if (!special_file(path))
    return open_batch ? open_batch->stage(path_, path, content) : replace_file(path_, path, content);
  const int fd = open_special(path_, path);
  const bool ok = write_all(fd, content);
  const int err = errno;
  ::close(fd);
  if (!ok) fail(path_, "write failed", err);
}

void unique_fd::reset() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

standard_output_aside::standard_output_aside() {
  flush_streams();
  saved_ = unique_fd(::dup(STDOUT_FILENO));
  if (saved_.get() < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    fail("standard output", "cannot set it aside", errno);
  previous_ = real_standard_output;
  real_standard_output = saved_.get();
}

standard_output_aside::~standard_output_aside() {
  flush_streams();
  ::dup2(saved_.get(), STDOUT_FILENO);
  real_standard_output = previous_;
}

namespace {
/// Equal for two paths that name the same file: its inode where it exists, else its final target's
/// absolute path. Nothing for standard output and special files, which may be named more than once.
std::optional<std::string> same_file_key(const std::string& path) {
  if (descriptor_named(path)) return std::nullopt;
  const std::string target = final_target(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return std::nullopt;
    return "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
  }
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(target, ec), ec);
  return "path " + (ec ? target : p.string());
}
}  // namespace

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                            const std::vector<std::string>& inputs) {
  std::map<std::string, std::string> seen;  // file -> what names it
  for (const std::string& in : inputs) {
    std::optional<std::string> key;
    try {
      key = same_file_key(in);
    } catch (const input_error&) {  // a link loop: no output can be it, and its reader names it
      continue;
    }
    if (key) seen.emplace(*key, "the input " + in);
  }
  std::optional<std::string> on_stdout;  // the output that writes there
  for (const auto& [option, path] : outputs) {
    if (descriptor_named(path) == STDOUT_FILENO) {
      if (on_stdout)
        throw usage_error(option + " " + path + " and " + *on_stdout +
                          " would both write to standard output: refused, give one a file name");
      on_stdout = option + " " + path;
      continue;
    }
    const auto key = same_file_key(path);
    if (!key) continue;
    const auto [it, added] = seen.emplace(*key, option + " " + path);
    if (!added)
      throw usage_error(option + " " + path + " is the same file as " + it->second +
                        ": refused, it would be overwritten");
  }
}

}  // namespace cudabench
