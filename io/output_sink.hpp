// Where an output's bytes go: a file written whole or not at all, a device node, FIFO or standard output
// written in place, a symbolic link's target; and the check that no output overwrites an input or another output.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudabench {

/// One destination. A regular file (or one that does not exist yet) is written to a temporary beside it and
/// renamed over it; a device node, FIFO or socket is written in place, never replaced; a symbolic link's
/// final target is written (created when it does not exist yet) and the link stays; "-" is the process's
/// real standard output, also while standard_output_aside holds it. Every failure (a closed pipe, a full
/// disk, a missing directory) is an input_error of one line naming the destination, and leaves no temporary.
class output_sink {
 public:
  /// `path`: a file name, or "-" for standard output (also /dev/stdout; /dev/stderr and /dev/fd/N are those
  /// descriptors, written as they are).
  explicit output_sink(std::string path);
  /// The standard output as it is now (standard error while standard_output_aside holds it): terminal text.
  static output_sink console();

  /// The path as given ("-" for standard output, "standard output" for the console).
  const std::string& name() const { return path_; }
  bool is_standard_output() const { return kind_ != kind::file; }

  /// Throws input_error unless this destination can be written (a directory, a missing directory, no
  /// permission): checked before any work starts.
  void check() const;
  /// Writes all of `content` as described above (a regular file staged while an output_batch is open);
  /// throws input_error on failure.
  void write(const std::string& content) const;

 private:
  enum class kind { file, standard_output, console, descriptor };
  output_sink(kind k, std::string path) : kind_(k), path_(std::move(path)) {}
  void write_standard_output(const std::string& content) const;
  void write_now(const std::string& content) const;
  kind kind_;
  std::string path_;
  int fd_ = -1;  ///< kind::descriptor: /dev/stderr, /dev/fd/N
};

/// A file descriptor closed on destruction (-1: none); move-only, as one owner closes it.
class unique_fd {
 public:
  explicit unique_fd(int fd = -1) noexcept : fd_(fd) {}
  unique_fd(unique_fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  unique_fd& operator=(unique_fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  ~unique_fd() { reset(); }
  int get() const noexcept { return fd_; }
  void reset() noexcept;

 private:
  int fd_;
};

/// While alive, whatever the process prints to standard output goes to standard error, so that an
/// output_sink("-") puts its document alone on the real standard output. Restored on destruction; not
/// copied or moved (it holds the process's standard output).
class standard_output_aside {
 public:
  standard_output_aside();
  ~standard_output_aside();

 private:
  unique_fd saved_;
  int previous_ = -1;
};

/// A command's outputs all or nothing. While one is open, output_sink writes a regular file's new content to
/// a temporary beside it and replaces nothing; commit() renames every temporary into place together, once all
/// are complete. Without commit (an error, an exception), or when a signal ends the process before it, every
/// temporary is removed and every output stays as it was; a write failure's message says "no output was
/// replaced". A device node, FIFO, descriptor or standard output cannot wait: it is written at once, as
/// outside a batch. One opened while another is open joins it (its commit is the outer one's). Opened,
/// written and committed on one thread.
class output_batch {
 public:
  output_batch();
  ~output_batch();
  output_batch(const output_batch&) = delete;
  output_batch& operator=(const output_batch&) = delete;
  /// Renames every temporary into place. A stop signal that comes while it renames is held until all are
  /// renamed (it then ends the process as it would have). Throws input_error when a rename fails.
  void commit();

 private:
  friend class output_sink;
  /// Writes `content` to the temporary of `path` (`name` as given), listed for removal at a signal.
  void stage(const std::string& name, const std::string& path, const std::string& content);
  void discard() noexcept;
  struct staged_file {
    std::string name, path, tmp;
    int slot;  ///< its entry among the temporaries a signal removes (-1: none)
  };
  std::vector<staged_file> staged_;
  bool joined_ = false;  ///< opened inside another batch, which commits
};

/// Calls `write` (returning a value) inside an output_batch and commits it: what `write` wrote, all or nothing.
template <typename Write>
auto all_or_nothing(Write&& write) {
  output_batch batch;
  auto result = write();
  batch.commit();
  return result;
}

/// Removes the temporary files output_sink is writing or holds for an output_batch at this moment
/// (async-signal-safe): for a process that a signal ends at once, so that no temporary is left beside an output.
void remove_temporaries_in_progress() noexcept;

/// From a signal handler about to end the process (async-signal-safe): true when it may end now, and from
/// then on no output_batch renames anything; false while a batch is renaming its files into place, when
/// `sig` is held and raised again once all are renamed.
bool may_end_process_now(int sig) noexcept;

/// True once an output_batch has renamed its files into place (async-signal-safe): what a process ended by a
/// signal says of its outputs.
bool outputs_replaced() noexcept;

/// Where the bytes for `path` land: its symbolic links followed to the final target, which need not exist.
/// Throws input_error on a loop of links.
std::string final_target(const std::string& path);

/// The descriptor a path names itself ("-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N), else none.
std::optional<int> descriptor_named(const std::string& path);

/// Refuses (input_error, one line) an output that is the same file as an input or as another output: same
/// inode, or the same final target where it does not exist yet. Special files (/dev/null, a FIFO) may be
/// named more than once; "-" (standard output) only once. `outputs` are (option, path) pairs, `inputs` paths.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                            const std::vector<std::string>& inputs);

/// Writes all of `content` to an open descriptor (retrying short writes and EINTR); false on failure, with
/// errno set.
bool write_all(int fd, const std::string& content);

}  // namespace cudabench
