#!/usr/bin/env python3
"""Lints the CI files: every workflow is valid YAML with triggers and jobs, minimal top-level permissions,
a concurrency group and a timeout on every job; no ${{ }} expression inside a run: script (inputs go
through env:); every script a workflow runs exists and is executable; the nightly job runs on a self-hosted
GPU runner, over a matrix of GPU models with a job that gathers them unless cancelled, uploading that night's files
only (no glob); a job on one GPU model's runner is in that GPU's concurrency group (gpu-<model>, shared by every
workflow); every action is pinned by commit SHA, and one SHA stands for one tag across the workflows; the SLURM script asks for the GPU partition. Usage: tests/workflow_lint.py SOURCE_DIR"""
import os
import re
import sys

import yaml

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
        for job_name, job in jobs.items():
            runs_on = job.get("runs-on", [])
            if "self-hosted" not in runs_on or "gpu" not in runs_on:
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
        models = [l for l in (runs_on if isinstance(runs_on, list) else [runs_on]) if l not in ("self-hosted", "gpu")]
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
