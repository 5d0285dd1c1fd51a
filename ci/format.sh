#!/usr/bin/env bash
# Formats C++ and CUDA sources with the repository's .clang-format.
# Usage: ci/format.sh                 the lines changed since HEAD (staged or not): format what you change
#        ci/format.sh --since REV     the lines changed since REV (e.g. a branch's merge base)
#        ci/format.sh FILE...         whole files
# CLANG_FORMAT names the binary (default clang-format); the changed-lines modes also need clang-format-diff
# (CLANG_FORMAT_DIFF). Exit status 2: a tool is missing.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root" || exit 2
tool=${CLANG_FORMAT:-clang-format}
command -v "$tool" >/dev/null 2>&1 || { echo "format: $tool not found (Debian/Ubuntu: apt-get install clang-format)" >&2; exit 2; }
if [ $# -gt 0 ] && [ "$1" != "--since" ]; then
  exec "$tool" -i --style="file:$root/.clang-format" "$@"
fi
since=HEAD
[ "${1:-}" = "--since" ] && since=${2:?"format: --since needs a revision"}
diff_tool=${CLANG_FORMAT_DIFF:-clang-format-diff}
command -v "$diff_tool" >/dev/null 2>&1 || { echo "format: $diff_tool not found (it comes with clang-format)" >&2; exit 2; }
git diff -U0 --no-color "$since" -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' | "$diff_tool" -p1 -i -binary "$tool" -style="file:$root/.clang-format"
