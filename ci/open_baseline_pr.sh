#!/usr/bin/env bash
# Commits changed baselines on a new branch and opens a pull request (GitHub CLI, token in GH_TOKEN; README.md's
# "Nightly jobs" section says which token makes CI run on it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if git diff --quiet -- reports/baselines && [ -z "$(git ls-files --others --exclude-standard reports/baselines)" ]; then
  echo "baselines unchanged; no pull request"; exit 0
fi
command -v gh >/dev/null 2>&1 || { echo "ci/open_baseline_pr.sh: the GitHub CLI (gh) is not installed on this runner; install it (apt-get install gh) to open the pull request" >&2; exit 2; }
branch="baseline/$(date -u +%Y%m%d-%H%M%S)"
git checkout -b "$branch"
git add reports/baselines
git -c user.name="cudabench-bot" -c user.email="cudabench-bot@users.noreply.github.com" commit -m "Update benchmark baselines"
git push origin "$branch"
gh pr create --title "Update benchmark baselines" --body "Baselines stored by the baseline workflow (ci/baseline.sh)." --head "$branch"
