// pattern_probe PATTERN NAME...: the NAMEs the pattern finds, one a line, as --filter selects case names; a
// pattern RE2 refuses is one line on standard error and exit status 2.
#include <cstdio>

#include "cudabench/errors.hpp"
#include "measure/pattern.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs("usage: pattern_probe PATTERN NAME...\n", stderr);
    return 2;
  }
  try {
    const cudabench::name_pattern pattern(argv[1], "--filter");
    for (int i = 2; i < argc; ++i)
      if (pattern.found_in(argv[i])) std::puts(argv[i]);
  } catch (const cudabench::usage_error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
