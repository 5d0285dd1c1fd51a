// Whole files in and out.
#include "harness/atomic_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/errors.hpp"

namespace cudabench {
namespace fs = std::filesystem;

void write_file_atomically(const std::string& path, const std::string& content) { output_sink(path).write(content); }

void check_writable(const std::string& path) { output_sink(path).check(); }

std::string make_temp_directory(const std::string& prefix) {
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);  // $TMPDIR, else /tmp
  std::string dir = ((ec ? fs::path("/tmp") : base) / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(dir.data())) throw input_error("cannot create a temporary directory (" + dir + "): " + std::strerror(errno));
  return dir;
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
