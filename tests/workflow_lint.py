#!/usr/bin/env python3
"""Lints the CI files: every workflow is valid YAML with triggers and jobs, minimal top-level permissions,
a concurrency group and a timeout on every job; no checkout downloads every branch (fetch-depth: 0); no ${{ }} expression inside a run: script (inputs go
through env:); every script a workflow runs exists and is executable; the nightly job runs on a self-hosted
GPU runner, over a matrix of GPU models with a job that gathers them unless cancelled on a hosted runner, uploading that night's files
only (no glob); a job on one GPU model's runner is in that GPU's concurrency group (gpu-<model>, shared by every
workflow); every action is pinned by commit SHA, and one SHA stands for one tag across the workflows; the SLURM script asks for the GPU partition; no job that holds a write permission, a secret or a token
checks out or runs a pull request's code (the "pwn request"); on self-hosted runners, a job that holds one runs on a
runner labelled trusted and names no folder that outlives the job (HOME, ~, /tmp: what a pull request's job on that
machine could write), and a pull request's job runs on one labelled untrusted. Usage: tests/workflow_lint.py SOURCE_DIR, or
tests/workflow_lint.py --self-test (the pull-request check over planted workflows: each violation caught, each safe
job passed)."""
import os
import re
import sys

import yaml

# A reference to a pull request's code: its refs, its head (of a pull_request or workflow_run event), a checkout by
# the GitHub CLI.
PR_CODE = re.compile(r"refs/pull/|pull/[^/\s]*/(?:head|merge)|head\.sha|head\.ref|head_sha|head_branch|head_repository|gh pr checkout")
# The refs a job holding a token may check out: the default branch, or the ref and commit the workflow runs for.
SAFE_REFS = re.compile(r"\$\{\{\s*(?:github\.event\.repository\.default_branch|github\.ref|github\.ref_name|github\.sha|inputs\.[\w-]+)\s*\}\}")
PR_TRIGGERS = ("pull_request", "pull_request_target")


def holds_write(doc, job):
    """The job's write permission, secret or token, named; None when it holds none."""
    perms = job.get("permissions", doc.get("permissions")) or {}
    if perms == "write-all" or (isinstance(perms, dict) and "write" in perms.values()):
        return "a write permission"
    text = yaml.safe_dump(job)
    if "secrets." in text:
        return "a secret"
    envs = [job.get("env") or {}] + [s.get("env") or {} for s in job.get("steps") or []]
    if any(k in ("GH_TOKEN", "GITHUB_TOKEN") for e in envs for k in e) or "github.token" in text:
        return "the token"
    return None


def pr_code(name, doc, job_name, job):
    """The problems of a job that holds a write permission, a secret or a token and checks out or runs a pull
    request's code: a checkout of a pull request's ref or head (or of any ref but the default branch's and the
    workflow's own; under a pull_request trigger, any checkout), a run: step that fetches or checks one out, and
    the steps that run the checkout's scripts after it."""
    what = holds_write(doc, job)
    if not what:
        return []
    triggers = doc.get("on", doc.get(True)) or {}
    triggers = [triggers] if isinstance(triggers, str) else list(triggers)
    where, found = "%s: job %s holds %s and" % (name, job_name, what), []
    checked_out = None
    for i, step in enumerate(job.get("steps") or []):
        uses, run = step.get("uses", ""), step.get("run", "")
        if uses.startswith("actions/checkout@"):
            ref = str((step.get("with") or {}).get("ref", ""))
            repo = str((step.get("with") or {}).get("repository", ""))
            if any(t in triggers for t in PR_TRIGGERS if t == "pull_request") and not ref:
                checked_out = "checks out the pull request's merge commit (a pull_request trigger)"
            elif PR_CODE.search(ref + " " + repo) or (ref and SAFE_REFS.sub("", ref).count("${{")) or "${{" in repo:
                checked_out = "checks out %s, a pull request's code (or a ref not proven the default branch's)" % (ref or repo)
            if checked_out:
                found.append("%s %s" % (where, checked_out))
        elif run and (PR_CODE.search(run + " " + yaml.safe_dump(step.get("env") or {}))
                      and re.search(r"\bgit\s+(?:fetch|checkout|switch|worktree|reset|pull|merge|clone)|\bgh\s+pr\s+checkout", run)):
            checked_out = "fetches or checks out a pull request's code in a run: step (%s)" % (step.get("name") or "step %d" % (i + 1))
            found.append("%s %s" % (where, checked_out))
        elif run and checked_out:
            found.append("%s runs the pull request's checkout in step %s" % (where, step.get("name") or "%d" % (i + 1)))
    return found


# The runner labels that say which jobs a self-hosted runner takes: trusted ones (holding a write permission, a secret
# or the token) or pull requests' (docs/ci.md, "Trust"); neither names a GPU model.
ROLE_LABELS = ("trusted", "untrusted")
# A folder that outlives the job on a self-hosted runner, which a pull request's job there could write: the home
# folder (as $HOME, ${HOME}, ~, env.HOME) or a machine-wide one (/tmp, /var/tmp, /dev/shm, /home, /root, /opt).
PERSISTENT = re.compile(r"\$\{?HOME\b|\benv\.HOME\b|(?:^|[\s\"'=:(])(?:~/|(?:/tmp|/var/tmp|/dev/shm|/home|/root|/opt)(?:/|\b))")


def labels(job):
    runs_on = job.get("runs-on", [])
    return [str(l) for l in (runs_on if isinstance(runs_on, list) else [runs_on])]


def runner_roles(name, doc, job_name, job):
    """On a self-hosted runner: a job that holds a write permission, a secret or the token runs on a runner labelled
    trusted and names no folder that outlives the job; a job of a pull request's event runs on one labelled untrusted
    (never both labels: a runner of both kinds would hand one job's leftovers to the other)."""
    if "self-hosted" not in labels(job):
        return []
    where, found = "%s: job %s on a self-hosted runner" % (name, job_name), []
    triggers = doc.get("on", doc.get(True)) or {}
    triggers = [triggers] if isinstance(triggers, str) else list(triggers)
    what = holds_write(doc, job)
    if what and ("trusted" not in labels(job) or "untrusted" in labels(job)):
        found.append("%s holds %s: it must run on a runner labelled trusted (not untrusted)" % (where, what))
    if any(t in triggers for t in PR_TRIGGERS + ("issue_comment",)) and not what and "untrusted" not in labels(job):
        found.append("%s runs for a pull request's event: it must run on a runner labelled untrusted" % where)
    if what:
        texts = [yaml.safe_dump(job.get("env") or {})] + [yaml.safe_dump({k: v for k, v in step.items() if k in ("run", "env", "with")})
                                                          for step in job.get("steps") or []]
        for text in texts:
            m = PERSISTENT.search(text)
            if m:
                found.append("%s holds %s and names %s, a folder that outlives the job, which a pull request's job could "
                             "write (use $RUNNER_TEMP: docs/ci.md, \"Trust\")" % (where, what, m.group(0).strip(" \"'=:(")))
    return found


def full_checkouts(name, job_name, job):
    """A checkout with fetch-depth: 0 downloads every branch, the history store's among them."""
    return ["%s: job %s: a checkout with fetch-depth: 0 downloads every branch, the history store's too (fetch the "
            "commits it needs: git fetch --unshallow origin SHA)" % (name, job_name)
            for step in job.get("steps") or [] if str(step.get("uses", "")).startswith("actions/checkout@")
            and str((step.get("with") or {}).get("fetch-depth", "1")) == "0"]


def job_problems(name, doc, job_name, job):
    return pr_code(name, doc, job_name, job) + full_checkouts(name, job_name, job) + runner_roles(name, doc, job_name, job)


SELF_TEST = {  # planted workflows: name -> (YAML, the number of problems the check must find)
    "write job checks out refs/pull": ("""
on: {issue_comment: {}}
jobs:
  j:
    permissions: {contents: read, statuses: write}
    steps:
      - uses: actions/checkout@0
        with: {ref: "refs/pull/${{ github.event.issue.number }}/head"}
      - run: bash ci/pr_bench.sh post
""", 2),
    "token env and a checkout of the head sha": ("""
on: {pull_request_target: {}}
jobs:
  j:
    permissions: {contents: read}
    env: {GH_TOKEN: "${{ github.token }}"}
    steps:
      - uses: actions/checkout@0
        with: {ref: "${{ github.event.pull_request.head.sha }}"}
""", 1),
    "secret with a pull_request checkout": ("""
on: {pull_request: {}}
jobs:
  j:
    steps:
      - uses: actions/checkout@0
      - run: make
        env: {KEY: "${{ secrets.KEY }}"}
""", 2),
    "workflow_run job fetching the run's head": ("""
on: {workflow_run: {workflows: [x], types: [completed]}}
jobs:
  j:
    permissions: {pull-requests: write}
    steps:
      - run: git fetch origin "$HEAD" && git checkout FETCH_HEAD
        env: {HEAD: "${{ github.event.workflow_run.head_sha }}"}
""", 1),
    "a computed ref in a write job": ("""
on: {issue_comment: {}}
jobs:
  j:
    permissions: write-all
    steps:
      - uses: actions/checkout@0
        with: {ref: "${{ steps.pin.outputs.head }}"}
""", 1),
    "safe: the measuring job holds nothing": ("""
on: {pull_request: {}}
permissions: {contents: read}
jobs:
  j:
    permissions: {contents: read}
    steps:
      - uses: actions/checkout@0
        with: {ref: "${{ github.event.pull_request.head.sha }}", persist-credentials: false}
      - run: bash ci/pr_bench.sh measure
""", 0),
    "safe: the report checks out the default branch": ("""
on: {workflow_run: {workflows: [x], types: [completed]}}
jobs:
  j:
    permissions: {statuses: write}
    steps:
      - uses: actions/checkout@0
        with: {ref: "${{ github.event.repository.default_branch }}"}
      - run: bash ci/pr_bench.sh report "$RUN_ID"
        env: {GH_TOKEN: "${{ github.token }}", RUN_HEAD_SHA: "${{ github.event.workflow_run.head_sha }}"}
""", 0),
    "a trusted job on a self-hosted runner reusing a build folder in HOME": ("""
on: {schedule: [{cron: "0 0 * * *"}]}
jobs:
  j:
    runs-on: [self-hosted, gpu, trusted, h100]
    permissions: {contents: write}
    steps:
      - run: echo "CUDABENCH_BUILD_DIR=${CUDABENCH_BUILD_DIR:-$HOME/cudabench-build}" >> "$GITHUB_ENV"
      - run: bash ci/nightly.sh
        env: {CCACHE_DIR: "~/.cache/ccache"}
      - run: make -C /tmp/shared
""", 3),
    "a trusted job on a runner not labelled trusted, a pull request's job on one not labelled untrusted": ("""
on: {pull_request: {}, workflow_dispatch: {}}
jobs:
  nightly:
    runs-on: [self-hosted, gpu, h100]
    permissions: {contents: write}
    steps:
      - run: bash ci/nightly.sh
  measure:
    runs-on: [self-hosted, gpu, h100]
    permissions: {contents: read}
    steps:
      - run: bash ci/pr_bench.sh measure
  both:
    runs-on: [self-hosted, trusted, untrusted]
    permissions: {contents: write}
    steps:
      - run: bash ci/nightly.sh
""", 3),
    "safe: a trusted job from a clean slate under RUNNER_TEMP, a pull request's job on its own runner": ("""
on: {pull_request: {}, schedule: [{cron: "0 0 * * *"}]}
jobs:
  nightly:
    runs-on: [self-hosted, gpu, trusted, h100]
    permissions: {contents: write}
    steps:
      - run: |
          p=$(mktemp -d "$RUNNER_TEMP/private.XXXXXX") && echo "HOME=$p/home" >> "$GITHUB_ENV"
      - run: bash ci/nightly.sh "$CUDABENCH_RESULTS_DIR"
        env: {CUDABENCH_BUILD_DIR: "${{ runner.temp }}/build"}
  measure:
    runs-on: [self-hosted, gpu, untrusted, h100]
    permissions: {contents: read}
    steps:
      - run: CCACHE_DIR="$HOME/.cache/pr-ccache" bash ci/pr_bench.sh measure
""", 0),
    "a checkout of every branch": ("""
on: {schedule: [{cron: "0 0 * * *"}]}
jobs:
  j:
    permissions: {contents: read}
    steps:
      - uses: actions/checkout@0
        with: {fetch-depth: 0}
""", 1),
}


def self_test():
    bad = 0
    for title, (text, want) in SELF_TEST.items():
        doc = yaml.safe_load(text)
        got = [p for job_name, job in doc["jobs"].items() for p in job_problems("planted.yml", doc, job_name, job)]
        print("%s %s: %d problem(s), want %d%s" % ("ok  " if len(got) == want else "FAIL", title, len(got), want,
                                                   "".join("\n     " + p for p in got)))
        bad += len(got) != want
    sys.exit(1 if bad else 0)


if sys.argv[1:] == ["--self-test"]:
    self_test()
root = sys.argv[1]
problems = []
wf_dir = os.path.join(root, ".github", "workflows")
workflows = sorted(f for f in os.listdir(wf_dir) if f.endswith((".yml", ".yaml")))
for want in ("ci.yml", "nightly.yml", "baseline.yml"):
    if want not in workflows:
        problems.append("missing workflow " + want)
for name in workflows:
    path = os.path.join(wf_dir, name)
    try:
        doc = yaml.safe_load(open(path))
    except yaml.YAMLError as e:
        problems.append("%s: invalid YAML: %s" % (name, e)); continue
    triggers = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` key as true
    if not triggers:
        problems.append(name + ": no triggers (on:)")
    jobs = doc.get("jobs") or {}
    if not jobs:
        problems.append(name + ": no jobs")
    if "permissions" not in doc:
        problems.append(name + ": no top-level permissions:")
    elif doc["permissions"] not in ({"contents": "read"}, {}):
        problems.append(name + ": top-level permissions beyond contents: read (grant more per job)")
    if "concurrency" not in doc:
        problems.append(name + ": no concurrency group")
    for job_name, job in jobs.items():
        problems += job_problems(name, doc, job_name, job)
        if "timeout-minutes" not in job:
            problems.append("%s: job %s has no timeout-minutes" % (name, job_name))
        for step in job.get("steps", []):
            if "${{" in step.get("run", ""):
                problems.append("%s: job %s: an expression inside run: (pass it through env:): %s" % (name, job_name, step["run"].strip()[:80]))
            for script in re.findall(r"(?:^|\s)(?:bash\s+)?(?:\./)?((?:\.ci|ci)/[\w./-]+)", step.get("run", "")):
                full = os.path.join(root, script)
                if not os.path.isfile(full):
                    problems.append("%s: job %s runs %s, which does not exist" % (name, job_name, script))
                elif not os.access(full, os.X_OK):
                    problems.append("%s: job %s runs %s, which is not executable" % (name, job_name, script))
    if name in ("nightly.yml", "baseline.yml"):
        for job_name, job in jobs.items():  # the measuring jobs on GPU runners; one that gathers reports on a hosted one
            runs_on = job.get("runs-on", [])
            if job.get("needs") and runs_on != "ubuntu-latest":
                problems.append("%s: job %s gathers reports: it must run on a hosted runner (ubuntu-latest), not hold a GPU runner" % (name, job_name))
            if not job.get("needs") and ("self-hosted" not in runs_on or "gpu" not in runs_on):
                problems.append("%s: job %s must run on [self-hosted, gpu]" % (name, job_name))
    if name == "nightly.yml" and not ("schedule" in triggers and "workflow_dispatch" in triggers):
        problems.append("nightly.yml: needs schedule and workflow_dispatch triggers")
    for job_name, job in jobs.items():
        perms = job.get("permissions", doc.get("permissions")) or {}
        can_write = perms == "write-all" or (isinstance(perms, dict) and "write" in perms.values())
        for step in job.get("steps", []):
            uses = step.get("uses", "")
            if uses and not uses.startswith("./") and not re.search(r"@[0-9a-f]{40}$", uses):
                problems.append("%s: job %s: %s must be pinned by commit SHA (the tag in a comment)" % (name, job_name, uses))
            if name == "nightly.yml" and uses.startswith("actions/upload-artifact@"):
                if "*" in str((step.get("with") or {}).get("path", "")):
                    problems.append("nightly.yml: job %s uploads a glob (every night's files, not that night's)" % job_name)
        # A job on one GPU model's runner (a label beyond self-hosted and gpu) holds that GPU's group, shared by
        # every workflow, so two jobs never measure on one GPU at once.
        runs_on = job.get("runs-on", [])
        models = [l for l in (runs_on if isinstance(runs_on, list) else [runs_on]) if l not in ("self-hosted", "gpu") + ROLE_LABELS]
        if "gpu" in runs_on and models:
            group = (job.get("concurrency") or {}).get("group") if isinstance(job.get("concurrency"), dict) else job.get("concurrency")
            if group != "gpu-" + models[0]:
                problems.append("%s: job %s runs on GPU runner %s: its concurrency group must be gpu-%s" % (name, job_name, models[0], models[0]))
    if name == "nightly.yml":
        matrix_jobs = [j for j, job in jobs.items() if "model" in ((job.get("strategy") or {}).get("matrix") or {})]
        gathers = [j for j, job in jobs.items() if set(matrix_jobs) & set([job.get("needs")] if isinstance(job.get("needs"), str) else job.get("needs") or [])
                   and "!cancelled()" in str(job.get("if", ""))]
        if not matrix_jobs or not gathers:
            problems.append("nightly.yml: needs a job with a matrix of GPU models and a job that needs it with if: ${{ !cancelled() }} "
                            "(after failed models too; always() would also run on a cancelled night)")
# The composite action at the root: bash steps that run scripts (no expression inside run:, the scripts there and
# executable), actions pinned by commit SHA and by the same commit the workflows pin them to.
pinned = {}
for name in workflows:
    for m in re.finditer(r"uses:\s*([\w.-]+/[\w.-]+)@([0-9a-f]{40})", open(os.path.join(wf_dir, name)).read()):
        pinned.setdefault(m.group(1), set()).add(m.group(2))
action_file = os.path.join(root, "action.yml")
if not os.path.isfile(action_file):
    problems.append("missing action.yml (the composite action)")
else:
    action = yaml.safe_load(open(action_file)) or {}
    if (action.get("runs") or {}).get("using") != "composite":
        problems.append("action.yml: not a composite action (runs: using: composite)")
    declared = set(action.get("inputs") or {})
    for used in sorted(set(re.findall(r"inputs\.([\w-]+)", open(action_file).read())) - declared):
        problems.append("action.yml: reads inputs.%s, which it does not declare" % used)
    for step in (action.get("runs") or {}).get("steps") or []:
        uses = step.get("uses", "")
        if uses:
            m = re.fullmatch(r"([\w.-]+/[\w.-]+)@([0-9a-f]{40})", uses)
            if not m:
                problems.append("action.yml: %s must be pinned by commit SHA" % uses)
            elif m.group(1) in pinned and m.group(2) not in pinned[m.group(1)]:
                problems.append("action.yml: %s is pinned to another commit than the workflows' (%s)" % (uses, ", ".join(sorted(pinned[m.group(1)]))))
            continue
        if step.get("shell") != "bash":
            problems.append("action.yml: step %s needs shell: bash" % step.get("name"))
        if "${{" in step.get("run", ""):
            problems.append("action.yml: step %s: an expression inside run: (pass it through env:)" % step.get("name"))
        for script in re.findall(r"\$GITHUB_ACTION_PATH/([\w./-]+)", step.get("run", "")):
            if not os.access(os.path.join(root, script), os.X_OK):
                problems.append("action.yml: step %s runs %s, which is not an executable file" % (step.get("name"), script))
# Each pinned action's tag in a comment after it, and an action at one tag pinned to one SHA in every workflow.
pins = {}
for name in workflows:
    for line in open(os.path.join(wf_dir, name)):
        m = re.search(r"uses:\s*([\w.-]+/[\w./-]+)@([0-9a-f]{40})(?:\s*#\s*(\S+))?", line)
        if not m:
            continue
        action, sha, tag = m.groups()
        if not tag:
            problems.append("%s: %s@%s has no tag in a comment after it (# vX.Y.Z)" % (name, action, sha))
            continue
        pins.setdefault((action, tag), set()).add(sha)
for (action, tag), shas in sorted(pins.items()):
    if len(shas) > 1:
        problems.append("%s %s is pinned to %d different SHAs across the workflows" % (action, tag, len(shas)))
sbatch = os.path.join(root, "ci", "slurm", "nightly.sbatch")
text = open(sbatch).read() if os.path.isfile(sbatch) else ""
for want in ("#SBATCH --partition=gpu", "#SBATCH --gres=gpu:1", "ci/nightly.sh"):
    if want not in text:
        problems.append("ci/slurm/nightly.sbatch: missing " + want)
for p in problems:
    print("FAIL", p)
print("%d workflow file(s) checked, %d problem(s)" % (len(workflows), len(problems)))
sys.exit(1 if problems else 0)
