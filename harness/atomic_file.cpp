// Atomic writes (temporary + rename) and checked reads.
#include "harness/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/errors.hpp"

namespace cudabench {
namespace {
std::string temp_name(const std::string& path) { return path + ".tmp." + std::to_string(::getpid()); }
}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = temp_name(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw input_error(path + ": cannot write: " + std::strerror(errno));
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw input_error(path + ": write failed: " + std::strerror(errno));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw input_error(path + ": cannot rename into place: " + ec.message());
  }
}

void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw input_error(path + ": is a directory, not a file");
  const std::string tmp = temp_name(path);
  std::ofstream probe(tmp, std::ios::binary | std::ios::trunc);
  if (!probe) throw input_error(path + ": cannot write: " + std::strerror(errno));
  probe.close();
  std::remove(tmp.c_str());
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw input_error(path + ": no such file");
  if (std::filesystem::is_directory(path, ec)) throw input_error(path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(path + ": cannot read: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw input_error(path + ": read failed");
  return ss.str();
}

}  // namespace cudabench
