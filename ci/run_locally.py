#!/usr/bin/env python3
"""Runs one job of a GitHub Actions workflow here, step by step, as a runner would, to try a workflow that uses the
cudabench action before pushing it (and to test it: tests/action_test.sh). The current directory is the checkout.

Usage: ci/run_locally.py WORKFLOW.yml [--job=NAME] [--out=DIR] [--action=NAME=DIR]... [--matrix=KEY=VALUE]...
                         [--event=NAME] [--input=NAME=VALUE]... [--var=NAME=VALUE]...
  --job      the job to run (default: the workflow's only job)
  --out      where the runner's files go (default: a new temporary directory, printed): summary.md (the job
             summary, $GITHUB_STEP_SUMMARY), artifacts/<name>/ (what actions/upload-artifact would upload),
             runner-temp/ ($RUNNER_TEMP), outputs of each step
  --action   runs `uses: NAME@REF` (any REF) from DIR, e.g. --action=acme/benchmarks=/src/benchmarks; `uses:
             <owner>/cudabench@REF` runs this source's action.yml (a checkout's, or an install's share/cudabench)
  --matrix   a value of the job's matrix; --event the event name (default workflow_dispatch); --input a
             workflow_dispatch input; --var a configuration variable (vars.NAME)
Steps: `run:` steps (bash, with env:, working-directory: and if:), composite actions (their inputs, outputs and
steps), actions/checkout (the current directory is the checkout: nothing to do), actions/upload-artifact
(copied into OUT/artifacts), actions/cache (always a miss), actions/upload-pages-artifact and actions/deploy-pages
(the folder published into OUT/pages, at https://OWNER.github.io/NAME/). A job's outputs go to OUT/jobs/JOB.json,
which a later job run with the same --out reads as its needs context. Expressions: contexts inputs, steps, needs, env, github, runner, matrix, secrets and vars
(secrets empty, vars as given), literals, ==, !=, &&, ||, !, and success(), failure(), always(), cancelled(),
contains(), startsWith(), endsWith(), format(). Anything else is refused, naming it.
Exit status: 0 the job succeeded, 1 it failed (the job summary and the artifacts are written either way),
2 usage error or a workflow this cannot run."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml


class Refused(Exception):
    pass


# ---- expressions -------------------------------------------------------------------------------------------------
TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>-?\d+(?:\.\d+)?)|(?P<op>==|!=|&&|\|\||<=|>=|[!()<>,\[\]])"
                   r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_*][A-Za-z0-9_-]*)*))")


def tokens(text):
    out, at = [], 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        m = TOKEN.match(text, at)
        if not m:
            raise Refused("cannot read the expression '%s' at '%s'" % (text, text[at:]))
        out.append((m.lastgroup, m.group(m.lastgroup)))
        at = m.end()
    return out


def truthy(v):
    return v not in (None, False, 0, "", "false")  # an input 'false' reaches an if: as a string


class Expression:
    def __init__(self, text, ctx):
        self.toks, self.i, self.ctx = tokens(text), 0, ctx

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, want=None):
        kind, val = self.peek()
        if want and val != want:
            raise Refused("expected '%s' in an expression, found '%s'" % (want, val))
        self.i += 1
        return kind, val

    def value(self):
        v = self.or_()
        if self.i != len(self.toks):
            raise Refused("cannot read the expression from '%s'" % self.peek()[1])
        return v

    def or_(self):
        v = self.and_()
        while self.peek()[1] == "||":
            self.take()
            w = self.and_()
            v = v if truthy(v) else w
        return v

    def and_(self):
        v = self.cmp()
        while self.peek()[1] == "&&":
            self.take()
            w = self.cmp()
            v = w if truthy(v) else v
        return v

    def cmp(self):
        v = self.unary()
        while self.peek()[1] in ("==", "!="):
            op = self.take()[1]
            w = self.unary()
            same = str(v).lower() == str(w).lower() if isinstance(v, str) or isinstance(w, str) else v == w
            v = same if op == "==" else not same
        return v

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not truthy(self.unary())
        return self.primary()

    def primary(self):
        kind, val = self.take()
        if val == "(":
            v = self.or_()
            self.take(")")
            return v
        if kind == "str":
            return val[1:-1].replace("''", "'")
        if kind == "num":
            return float(val)
        if kind == "name":
            if val in ("true", "false"):
                return val == "true"
            if val == "null":
                return None
            if self.peek()[1] == "(":
                self.take()
                args = []
                while self.peek()[1] != ")":
                    args.append(self.or_())
                    if self.peek()[1] == ",":
                        self.take()
                self.take(")")
                return self.call(val, args)
            return self.lookup(val)
        raise Refused("cannot read the expression at '%s'" % val)

    def call(self, name, args):
        job_ok = not self.ctx["failed"]
        fns = {"success": lambda: job_ok, "failure": lambda: not job_ok, "always": lambda: True, "cancelled": lambda: False,
               "contains": lambda a, b: str(b).lower() in str(a).lower(),
               "startsWith": lambda a, b: str(a).lower().startswith(str(b).lower()),
               "endsWith": lambda a, b: str(a).lower().endswith(str(b).lower()),
               "format": lambda f, *a: re.sub(r"\{(\d+)\}", lambda m: str(a[int(m.group(1))]), f)}
        if name not in fns:
            raise Refused("the function %s() is not one this runs locally" % name)
        return fns[name](*args)

    def lookup(self, dotted):
        parts = dotted.split(".")
        ctx = self.ctx["contexts"]
        if parts[0] not in ctx:
            raise Refused("the context '%s' is not one this runs locally" % parts[0])
        v = ctx[parts[0]]
        for p in parts[1:]:
            v = v.get(p) if isinstance(v, dict) else None
        return "" if v is None and parts[0] in ("secrets", "vars") else v


def expand(text, ctx):
    """A string with its ${{ }} expressions replaced by their values."""
    if not isinstance(text, str):
        return text

    def one(m):
        v = Expression(m.group(1), ctx).value()
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and v.is_integer():
            return str(int(v))
        return "" if v is None else str(v)
    return re.sub(r"\$\{\{(.*?)\}\}", one, text, flags=re.S)


def condition(text, ctx):
    if text is None:
        return not ctx["failed"]
    if isinstance(text, bool):
        return text
    text = str(text).strip()
    m = re.fullmatch(r"\$\{\{(.*)\}\}", text, flags=re.S)
    expr = m.group(1) if m else text
    if not re.search(r"\b(success|failure|always|cancelled)\(", expr):
        expr = "success() && (%s)" % expr
    return truthy(Expression(expr, ctx).value())


# ---- the runner --------------------------------------------------------------------------------------------------
def read_key_values(path):
    """A GITHUB_OUTPUT or GITHUB_ENV file: NAME=VALUE lines and NAME<<DELIMITER blocks."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            block = []
            i += 1
            while i < len(lines) and lines[i] != delim:
                block.append(lines[i])
                i += 1
            out[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            out[name] = value
        i += 1
    return out


class Runner:
    def __init__(self, out, actions, contexts):
        self.out, self.actions = out, actions
        self.temp = os.path.join(out, "runner-temp")
        os.makedirs(self.temp, exist_ok=True)
        os.makedirs(os.path.join(out, "artifacts"), exist_ok=True)
        self.summary = os.path.join(out, "summary.md")
        open(self.summary, "a").close()
        self.env_file = os.path.join(out, "github-env")
        self.added_env = {}
        self.count = 0
        self.contexts = contexts
        contexts["runner"] = {"temp": self.temp, "os": "Linux", "arch": "X64"}

    def base_env(self):
        env = dict(os.environ)
        github = self.contexts["github"]
        env.update({"CI": "true", "GITHUB_WORKSPACE": github["workspace"], "GITHUB_EVENT_NAME": github["event_name"],
                    "GITHUB_REPOSITORY": github["repository"], "GITHUB_SHA": github["sha"], "GITHUB_REF": github["ref"],
                    "RUNNER_TEMP": self.temp, "RUNNER_OS": "Linux", "GITHUB_STEP_SUMMARY": self.summary,
                    "GITHUB_ENV": self.env_file})
        env.update(self.added_env)
        return env

    def run_steps(self, steps, scope):
        """Runs the steps in `scope` (its contexts and whether it has failed); marks scope failed on a failure."""
        for n, step in enumerate(steps or []):
            ctx = {"contexts": scope["contexts"], "failed": scope["failed"]}
            name = step.get("name") or step.get("uses") or (step.get("run") or "").strip().split("\n")[0][:60]
            sid = step.get("id") or "__step%d" % n
            if not condition(step.get("if"), ctx):
                print("-- skipped: %s" % name, flush=True)
                scope["contexts"]["steps"][sid] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
                continue
            print("-- %s" % name, flush=True)
            ok, outputs = self.one_step(step, ctx)
            outcome = "success" if ok else "failure"
            keep_going = step.get("continue-on-error", False)
            if not ok and (keep_going is True or (isinstance(keep_going, str) and truthy(expand(keep_going, ctx)))):
                ok = True
            scope["contexts"]["steps"][sid] = {"outputs": outputs, "outcome": outcome, "conclusion": "success" if ok else "failure"}
            if not ok:
                print("-- failed: %s" % name, flush=True)
                scope["failed"] = True

    def step_env(self, step, ctx):
        env = self.base_env()
        for k, v in (ctx["contexts"].get("env") or {}).items():
            env[k] = str(v)
        for k, v in (step.get("env") or {}).items():
            env[k] = expand(str(v), ctx)
        return env

    def one_step(self, step, ctx):
        if "run" in step:
            return self.run_script(step, ctx)
        uses = step.get("uses", "")
        with_ = {k: expand(str(v), ctx) for k, v in (step.get("with") or {}).items()}
        if uses.startswith("actions/checkout@"):
            print("   the current directory is the checkout", flush=True)
            return True, {}
        if uses.startswith("actions/upload-artifact@"):
            return self.upload(with_), {}
        if uses.startswith("actions/cache@"):
            print("   actions/cache: nothing is cached here (a miss)", flush=True)
            return True, {"cache-hit": "false"}
        if uses.startswith("actions/upload-pages-artifact@"):
            return self.upload_pages(with_), {}
        if uses.startswith("actions/deploy-pages@"):
            return self.deploy_pages()
        if uses.startswith("actions/download-artifact@"):
            raise Refused("actions/download-artifact: artifacts of other jobs are not there when one job runs locally")
        where = self.action_dir(uses)
        return self.composite(where, with_, ctx)

    def action_dir(self, uses):
        name = uses.split("@", 1)[0]
        if uses.startswith("./"):
            return os.path.join(self.contexts["github"]["workspace"], uses)
        if name in self.actions:
            return self.actions[name]
        if name.split("/")[-1] == "cudabench" and "cudabench" in self.actions:  # <owner>/cudabench: this source
            return self.actions["cudabench"]
        raise Refused("the action %s is not one this runs locally (give --action=%s=DIR)" % (uses, name))

    def composite(self, where, with_, outer):
        meta_file = next((os.path.join(where, f) for f in ("action.yml", "action.yaml") if os.path.exists(os.path.join(where, f))), None)
        if not meta_file:
            raise Refused("%s holds no action.yml" % where)
        meta = yaml.safe_load(open(meta_file))
        if (meta.get("runs") or {}).get("using") != "composite":
            raise Refused("%s is not a composite action" % meta_file)
        inputs = {}
        for k, spec in (meta.get("inputs") or {}).items():
            spec = spec or {}
            if k in with_:
                inputs[k] = with_[k]
            elif spec.get("required") and "default" not in spec:
                print("   the action's input %s is required" % k, flush=True)
                return False, {}
            else:
                inputs[k] = expand(str(spec.get("default", "")), outer)
        unknown = sorted(set(with_) - set(inputs))
        if unknown:
            print("   the action has no input %s" % ", ".join(unknown), flush=True)
            return False, {}
        github = dict(self.contexts["github"], action_path=os.path.abspath(where))
        scope = {"contexts": dict(self.contexts, github=github, inputs=inputs, steps={}, env={}), "failed": outer["failed"]}
        started_failed = scope["failed"]
        self.run_steps(meta["runs"].get("steps"), scope)
        ctx = {"contexts": scope["contexts"], "failed": scope["failed"]}
        outputs = {k: expand(str((v or {}).get("value", "")), ctx) for k, v in (meta.get("outputs") or {}).items()}
        return (not scope["failed"]) or started_failed, outputs

    def run_script(self, step, ctx):
        self.count += 1
        out_file = os.path.join(self.out, "step-%d.output" % self.count)
        open(out_file, "w").close()
        env = self.step_env(step, ctx)
        env["GITHUB_OUTPUT"] = out_file
        action_path = ctx["contexts"]["github"].get("action_path")
        if action_path:
            env["GITHUB_ACTION_PATH"] = action_path
        shell = step.get("shell", "bash")
        if shell != "bash":
            raise Refused("shell: %s (only bash steps run locally)" % shell)
        script = os.path.join(self.temp, "step-%d.sh" % self.count)
        with open(script, "w") as f:
            f.write(expand(step["run"], ctx))
        cwd = expand(step.get("working-directory", ""), ctx) or self.contexts["github"]["workspace"]
        status = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], env=env, cwd=cwd)
        self.added_env.update(read_key_values(self.env_file))
        return status == 0, read_key_values(out_file)

    def upload(self, with_):
        name = with_.get("name") or "artifact"
        if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
            print("   upload-artifact: the name '%s' is not one this copies" % name, flush=True)
            return False
        to = os.path.join(self.out, "artifacts", name)
        found = False
        for p in (with_.get("path") or "").split("\n"):
            p = p.strip()
            if not p:
                continue
            src = p if os.path.isabs(p) else os.path.join(self.contexts["github"]["workspace"], p)
            if os.path.isdir(src):
                shutil.copytree(src, to, dirs_exist_ok=True, symlinks=True)
                found = True
            elif os.path.isfile(src):
                os.makedirs(to, exist_ok=True)
                shutil.copy(src, to)
                found = True
        if not found:
            print("   upload-artifact: no files at %s" % with_.get("path"), flush=True)
            return with_.get("if-no-files-found", "warn") != "error"
        print("   artifact %s: %s" % (name, to), flush=True)
        return True


    def upload_pages(self, with_):
        """actions/upload-pages-artifact: the folder `path` as the site a later deploy-pages publishes."""
        src = with_.get("path") or "_site"
        src = src if os.path.isabs(src) else os.path.join(self.contexts["github"]["workspace"], src)
        if not os.path.isdir(src):
            print("   upload-pages-artifact: %s is not a folder" % src, flush=True)
            return False
        to = os.path.join(self.out, "pages-artifact")
        shutil.rmtree(to, ignore_errors=True)
        shutil.copytree(src, to, symlinks=True)
        print("   the Pages artifact: %s" % to, flush=True)
        return True

    def deploy_pages(self):
        """actions/deploy-pages: the Pages artifact (of this job, or of an earlier job run with this --out) published
        into OUT/pages; its address that of the repository's Pages site."""
        src = os.path.join(self.out, "pages-artifact")
        if not os.path.isdir(src):
            print("   deploy-pages: no Pages artifact in %s (upload-pages-artifact, in this job or an earlier one run "
                  "with this --out)" % self.out, flush=True)
            return False, {}
        to = os.path.join(self.out, "pages")
        shutil.rmtree(to, ignore_errors=True)
        shutil.copytree(src, to, symlinks=True)
        owner, _, name = self.contexts["github"]["repository"].partition("/")
        url = "https://%s.github.io/%s/" % (owner, name)
        print("   published as %s: %s" % (url, to), flush=True)
        return True, {"page_url": url}


def needs_context(job_name, job, out):
    """The needs context of a job: each job it needs, as an earlier run with this --out left it (OUT/jobs/NAME.json)."""
    needs = job.get("needs") or []
    needs = [needs] if isinstance(needs, str) else needs
    ctx = {}
    for name in needs:
        path = os.path.join(out, "jobs", "%s.json" % name)
        try:
            with open(path, encoding="utf-8") as f:
                ctx[name] = json.load(f)
        except (OSError, ValueError):
            raise Refused("job %s needs job %s: run --job=%s with this --out first" % (job_name, name, name))
    return ctx


def parse_args(argv):
    opts = {"job": None, "out": None, "action": {}, "matrix": {}, "event": "workflow_dispatch", "input": {}, "var": {}}
    files = []
    for a in argv:
        m = re.fullmatch(r"--(job|out|event)=(.+)", a)
        kv = re.fullmatch(r"--(action|matrix|input|var)=([^=]+)=(.*)", a)
        if m:
            opts[m.group(1)] = m.group(2)
        elif kv:
            opts[kv.group(1)][kv.group(2)] = kv.group(3)
        elif a.startswith("-"):
            raise Refused("unknown option '%s' (see ci/run_locally.py --help)" % a)
        else:
            files.append(a)
    if len(files) != 1:
        raise Refused("give one workflow file (see ci/run_locally.py --help)")
    return files[0], opts


def git(*args):
    r = subprocess.run(["git", *args], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else ""


def main(argv):
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    workflow, opts = parse_args(argv)
    try:
        doc = yaml.safe_load(open(workflow))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise Refused("%s: %s" % (workflow, " ".join(str(e).split())))
    if not isinstance(doc, dict) or not isinstance(doc.get("jobs"), dict) or not doc["jobs"]:
        raise Refused("%s: not a workflow (no jobs: mapping)" % workflow)
    jobs = doc["jobs"]
    job_name = opts["job"] or (next(iter(jobs)) if len(jobs) == 1 else None)
    if job_name not in jobs:
        raise Refused("%s: give --job=NAME, one of: %s" % (workflow, ", ".join(map(str, jobs))))
    job = jobs[job_name]
    steps = job.get("steps") if isinstance(job, dict) else None
    if not isinstance(steps, list) or not all(isinstance(st, dict) for st in steps):
        raise Refused("%s: job %s has no list of steps (a job that calls a reusable workflow does not run here)" % (workflow, job_name))
    out = opts["out"] or tempfile.mkdtemp(prefix="run-locally-")
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    actions = {}
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for source in (here, os.path.dirname(here)):  # this checkout, or <prefix>/share/cudabench of the install
        if os.path.exists(os.path.join(source, "action.yml")):
            actions.setdefault("cudabench", source)
    actions.update({k: os.path.abspath(v) for k, v in opts["action"].items()})
    workspace = os.getcwd()
    contexts = {"github": {"workspace": workspace, "event_name": opts["event"], "repository": "local/" + os.path.basename(workspace),
                           "sha": git("rev-parse", "HEAD"), "ref": "refs/heads/" + (git("branch", "--show-current") or "main"),
                           "token": "", "run_id": "0", "action_path": None},
                "matrix": opts["matrix"], "secrets": {}, "vars": opts["var"], "inputs": opts["input"], "steps": {}, "env": {}}
    contexts["needs"] = needs_context(job_name, job, out)
    runner = Runner(out, actions, contexts)
    ctx = {"contexts": contexts, "failed": False}
    env = {}
    for scope_env in (doc.get("env"), job.get("env")):
        if scope_env is not None and not isinstance(scope_env, dict):
            raise Refused("%s: env: is not a mapping" % workflow)
        env.update(scope_env or {})
    contexts["env"] = {k: expand(str(v), ctx) for k, v in env.items()}
    print("run_locally: job %s of %s; the runner's files in %s" % (job_name, workflow, out), flush=True)
    needs_failed = any(n.get("result") != "success" for n in contexts["needs"].values())
    if not condition(job.get("if"), {"contexts": contexts, "failed": needs_failed}):
        print("run_locally: job %s: skipped (its if: is false)" % job_name, flush=True)
        return 0
    scope = {"contexts": contexts, "failed": False}
    runner.run_steps(job.get("steps"), scope)
    result = "failure" if scope["failed"] else "success"
    job_ctx = {"contexts": scope["contexts"], "failed": scope["failed"]}
    outputs = {k: expand(str(v), job_ctx) for k, v in (job.get("outputs") or {}).items()}
    os.makedirs(os.path.join(out, "jobs"), exist_ok=True)
    with open(os.path.join(out, "jobs", "%s.json" % job_name), "w", encoding="utf-8") as f:
        json.dump({"result": result, "outputs": outputs}, f)
    print("run_locally: job %s: %s; job summary %s, artifacts %s" % (job_name, result, runner.summary, os.path.join(out, "artifacts")), flush=True)
    return 1 if scope["failed"] else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Refused as e:
        print("run_locally: %s" % e, file=sys.stderr)
        sys.exit(2)
