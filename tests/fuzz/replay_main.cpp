// Runs a fuzz target over files (every file of each directory argument): the corpus and the inputs that
// once crashed, as a regression test in the normal build (no libFuzzer needed).
//
// With --mutate=SECONDS first, it is also the default test command's fuzz smoke: after the replay, it feeds the
// target mutations of those files (bytes flipped, inserted, erased or repeated, JSON tokens and hostile numbers
// spliced in, two inputs crossed) until SECONDS have passed. The mutations come from a seed (--seed=N, default
// 1), so a run repeats exactly; an input that crashes the target is written to ./fuzz-crash-<pid> before the
// process dies, for tests/fuzz/regressions/<target>/. The long fuzz (tools/fuzz/run.sh: libFuzzer, coverage, the
// sanitizers) is the ctest label `fuzz`.
#include <fcntl.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

// The input being run, for the crash handler (written with write(2) only).
const std::string* g_current = nullptr;
char g_crash_path[64] = "fuzz-crash";

extern "C" void write_crash(int sig) {
  if (g_current != nullptr) {
    const int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      (void)!::write(fd, g_current->data(), g_current->size());
      ::close(fd);
    }
    static const char msg[] = "replay: the input that crashed the target is in ./";
    (void)!::write(2, msg, sizeof msg - 1);
    (void)!::write(2, g_crash_path, std::strlen(g_crash_path));
    (void)!::write(2, "\n", 1);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void run_one(const std::string& data) {
  g_current = &data;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  g_current = nullptr;
}

// Pieces a reader of JSON, numbers and names must survive.
constexpr std::string_view k_tokens[] = {"{",
                                         "}",
                                         "[",
                                         "]",
                                         ",",
                                         ":",
                                         "\"",
                                         "\\u0000",
                                         "\\ud800",
                                         "null",
                                         "true",
                                         "1e308",
                                         "-1",
                                         "NaN",
                                         "Infinity",
                                         "-0",
                                         "1e-400",
                                         "18446744073709551616",
                                         "0.0",
                                         "\"\"",
                                         "{}",
                                         "[]",
                                         "\xe2\x80\xae",
                                         "..",
                                         "/",
                                         "\n",
                                         "\t"};

class mutator {
 public:
  mutator(const std::vector<std::string>& inputs, unsigned seed) : inputs_(inputs), rng_(seed) {}

  std::string next() {
    std::string s = inputs_[pick(inputs_.size())];
    const std::size_t edits = 1 + pick(4);
    for (std::size_t i = 0; i < edits; ++i) edit(s);
    return s;
  }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

  void edit(std::string& s) {
    const std::size_t at = pick(s.size() + 1);
    switch (pick(6)) {
      case 0:
        if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << pick(8));
        break;
      case 1: s.insert(at, k_tokens[pick(std::size(k_tokens))]); break;
      case 2: s.erase(at, pick(16) + 1); break;
      case 3: s.insert(at, s.substr(pick(s.size() + 1), pick(64) + 1)); break;
      case 4: {  // the tail of another input
        const std::string& other = inputs_[pick(inputs_.size())];
        s = s.substr(0, at) + other.substr(pick(other.size() + 1));
        break;
      }
      default:
        if (!s.empty()) s[pick(s.size())] = static_cast<char>(pick(256));
    }
  }

  const std::vector<std::string>& inputs_;
  std::mt19937 rng_;
};

}  // namespace

int main(int argc, char** argv) {
  double mutate_s = 0;
  unsigned seed = 1;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--mutate=")) {
      mutate_s = std::atof(argv[i] + 9);
      continue;
    }
    if (arg.starts_with("--seed=")) {
      seed = static_cast<unsigned>(std::strtoul(argv[i] + 7, nullptr, 10));
      continue;
    }
    if (std::filesystem::is_directory(argv[i]))
      for (const auto& e : std::filesystem::recursive_directory_iterator(argv[i]))
        if (e.is_regular_file()) files.push_back(e.path());
    if (std::filesystem::is_regular_file(argv[i])) files.push_back(argv[i]);
  }
  std::snprintf(g_crash_path, sizeof g_crash_path, "fuzz-crash-%ld", static_cast<long>(::getpid()));
  for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, write_crash);
  std::vector<std::string> inputs;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    inputs.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    run_one(inputs.back());
  }
  std::printf("%zu input(s) replayed, none crashed\n", files.size());
  if (files.empty()) return 1;
  if (mutate_s <= 0) return 0;
  mutator m(inputs, seed);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(mutate_s);
  std::size_t runs = 0;
  while (std::chrono::steady_clock::now() < end) {
    for (int i = 0; i < 64; ++i, ++runs) run_one(m.next());
  }
  std::printf("%zu mutation(s) of them run (seed %u), none crashed\n", runs, seed);
  return 0;
}
