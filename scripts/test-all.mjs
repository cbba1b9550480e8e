// `npm test`: every suite, in order — server on SQLite, server on PostgreSQL, web, end-to-end in
// Chromium. A suite that cannot run here is announced loudly with how to fix it; with
// COMANDO_REQUIRE_ALL_SUITES=1 (CI) a skipped suite is a failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const requireAll = process.env.COMANDO_REQUIRE_ALL_SUITES === '1';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const results = [];
const skipped = [];

function findPostgres() {
  if (process.env.TEST_DATABASE_URL) return 'TEST_DATABASE_URL';
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    for (const v of fs.readdirSync(root))
      if (fs.existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  }
  const which = spawnSync('which', ['pg_ctl'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

function run(label, cmd, args, env = {}) {
  console.log(`\n━━ ${label} ━━`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === 0;
}

function readVitest(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
  } catch {
    return undefined;
  }
}

function readPlaywright(file) {
  try {
    const s = JSON.parse(fs.readFileSync(file, 'utf8')).stats;
    return { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped };
  } catch {
    return undefined;
  }
}

fs.mkdirSync('test-results', { recursive: true });
const pg = findPostgres();
const projects = ['server', 'web'];
if (pg) projects.splice(1, 0, 'server-postgres');
else
  skipped.push(
    'Servidor sobre PostgreSQL: no se encontró PostgreSQL. Instálalo con `apt-get install postgresql` (o define TEST_DATABASE_URL).',
  );

const vitestJson = 'test-results/vitest.json';
fs.rmSync(vitestJson, { force: true });
const vitestOk = run(`Vitest: ${projects.join(', ')}`, 'npx', [
  'vitest',
  'run',
  ...projects.flatMap((p) => ['--project', p]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
results.push({ suite: 'vitest', ok: vitestOk, counts: readVitest(vitestJson) });

if (fs.existsSync(chromiumPath)) {
  const built = run('Compilación de la web', 'npm', ['run', 'build']);
  results.push({ suite: 'build', ok: built });
  if (built) {
    const pwJson = 'test-results/e2e.json';
    fs.rmSync(pwJson, { force: true });
    const e2eOk = run('Playwright (Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
    });
    results.push({ suite: 'e2e', ok: e2eOk, counts: readPlaywright(pwJson) });
  }
} else {
  skipped.push(
    `Extremo a extremo: no se encontró Chromium en ${chromiumPath}. Instálalo con \`apt-get install chromium\` (o define CHROMIUM_PATH).`,
  );
}

let passed = 0;
let failed = 0;
for (const r of results) {
  if (r.counts) {
    passed += r.counts.passed;
    failed += r.counts.failed;
  }
  if (!r.ok && (!r.counts || r.counts.failed === 0)) failed += 1;
}
console.log('\n━━ Resumen ━━');
for (const r of results)
  console.log(
    `${r.ok ? '✔' : '✘'} ${r.suite}${r.counts ? ` (${r.counts.passed} pasaron, ${r.counts.failed} fallaron)` : ''}`,
  );
if (skipped.length) {
  console.log('\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  console.log('!!  SUITES QUE NO SE EJECUTARON:');
  for (const s of skipped) console.log(`!!  - ${s}`);
  console.log('!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!');
  if (requireAll) {
    console.log('COMANDO_REQUIRE_ALL_SUITES=1: una suite omitida cuenta como fallo.');
    failed += skipped.length;
  }
}
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || results.some((r) => !r.ok) ? 1 : 0);
