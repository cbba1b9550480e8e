// `npm test`: every suite — server on SQLite, server on PostgreSQL and web (one Vitest run, sharing
// its workers), the web build, the release package installed and started, and end-to-end in Chromium,
// the last two as soon as the build is done, while Vitest runs. A suite that cannot run here is announced
// loudly with how to fix it; with COMANDO_REQUIRE_ALL_SUITES=1 (CI) a skipped suite is a failure. At the
// end: one line per suite with its time, the total time, and the ten slowest test files.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const requireAll = process.env.COMANDO_REQUIRE_ALL_SUITES === '1';
// The browser playwright.config.ts picks: Debian's headless shell where it is installed, else its chromium.
const chromiumPath =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file)) ??
  '/usr/bin/chromium';
const startedAt = Date.now();
/** @type {{ suite: string, ok: boolean, counts?: { passed: number, failed: number, skipped: number, flaky?: number }, ms?: number, note?: string }[]} */
const results = [];
const skipped = [];
/** @type {{ suite: string, file: string, ms: number }[]} */
const slowFiles = [];
/** Every test that failed, or passed only on its retry: named again at the end, where a cut log still shows it. */
/** @type {{ suite: string, where: string, error: string, flaky?: boolean }[]} */
const failures = [];

const SUITE_NAMES = {
  server: 'servidor (SQLite)',
  'server-postgres': 'servidor (PostgreSQL)',
  web: 'web',
  chromium: 'extremo a extremo',
};
const suiteName = (project) => SUITE_NAMES[project] ?? `extremo a extremo (${project})`;

/** 83_000 → "1 min 23 s". */
function duration(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

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

/** Runs a step with its output on the console; answers whether it passed and how long it took. */
function run(label, cmd, args, env = {}) {
  console.log(`\n━━ ${label} ━━`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve({ ok: false, ms: Date.now() - started }));
    child.on('close', (code) => resolve({ ok: code === 0, ms: Date.now() - started }));
  });
}

/**
 * Runs a step alongside the one on the console, its output kept and printed whole once it is done
 * (`show()`), under its own heading: two steps at once, and still one readable block each. It must not
 * share files with the step it runs beside (the web build writes dist/, which no Vitest test reads; the
 * release package stages its own copy in release/ and reads dist/ as the end-to-end tests do).
 */
function runAlongside(label, cmd, args, env = {}) {
  const started = Date.now();
  const output = [];
  const done = new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve({ ok: false, ms: Date.now() - started });
    });
    child.on('close', (code) => resolve({ ok: code === 0, ms: Date.now() - started }));
  });
  return {
    /** Settles when the step ends, with whether it passed and how long it took; prints nothing. */
    done,
    /** Waits for the step, prints its output, and answers whether it passed and how long it took. */
    async show(alongside) {
      const result = await done;
      console.log(`\n━━ ${label} (a la vez que ${alongside}) ━━`);
      process.stdout.write(Buffer.concat(output));
      return result;
    },
  };
}

/** The summary scripts/vitest-summary-reporter.mjs wrote: per project counts and span, per file time. */
function readVitest(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Playwright's JSON report: counts, and each spec file's time per project (its tests' durations). */
function readPlaywright(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    const s = report.stats;
    const files = new Map();
    const failed = [];
    const walk = (suite, fileName) => {
      for (const child of suite.suites ?? []) walk(child, child.file ?? fileName);
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests) {
          const key = `${t.projectName}\n${spec.file ?? fileName}`;
          for (const r of t.results) files.set(key, (files.get(key) ?? 0) + r.duration);
          if (t.status === 'unexpected' || t.status === 'flaky') {
            const error = t.results.find((r) => r.status !== 'passed')?.error?.message ?? '';
            failed.push({
              suite: suiteName(t.projectName),
              where: `tests/e2e/${spec.file ?? fileName}:${spec.line} › ${spec.title}`,
              error: stripVTControlCharacters(error).split('\n')[0].slice(0, 300),
              flaky: t.status === 'flaky',
            });
          }
        }
      }
    };
    for (const suite of report.suites ?? []) walk(suite, suite.file);
    return {
      counts: { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped, flaky: s.flaky },
      failed,
      files: [...files].map(([key, ms]) => {
        const [project, file] = key.split('\n');
        return { suite: suiteName(project), file: path.join('tests/e2e', file), ms };
      }),
    };
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

// Outside test-results/, which Playwright empties when it starts, while Vitest still runs.
const vitestSummary = path.join(os.tmpdir(), `comando-vitest-summary-${process.pid}.json`);
fs.rmSync(vitestSummary, { force: true });
// Vitest, the web build, the release package and the end-to-end tests need nothing of each other but the
// build: the build and Vitest start together, and the end-to-end tests and the release package as soon as
// the build is done, while Vitest runs. Neither Vitest nor the browser keeps two cores busy on its own
// (each waits on servers, databases and child processes); together they do (docs/decisions/140).
const building = runAlongside('Compilación de la web', 'npm', ['run', 'build']);
const vitestRunning = run(
  `Vitest: ${projects.join(', ')}`,
  'npx',
  [
    'vitest',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=./scripts/vitest-summary-reporter.mjs',
  ],
  { VITEST_SUMMARY_FILE: vitestSummary },
);

const built = await building.done;
// The release an operator installs, installed and started from an empty folder (docs/decisions/098),
// on the web build just made; promtool (Debian's `prometheus`) checks its alert rules (its own folder,
// its own server on a free port).
let releasing;
if (built.ok) {
  const promtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!promtool) {
    skipped.push(
      'Reglas de alerta (docs/deploy/alerts.yml): no se encontró promtool. Instálalo con `apt-get install --no-install-recommends prometheus`.',
    );
  }
  releasing = runAlongside(
    'Paquete de la versión (npm run release, instalado y arrancado)',
    'node',
    ['scripts/test-release.mjs'],
    {
      ...(promtool ? {} : { COMANDO_RELEASE_WITHOUT_PROMTOOL: '1' }),
    },
  );
}

const pwJson = 'test-results/e2e.json';
let endToEnd;
if (fs.existsSync(chromiumPath)) {
  if (built.ok) {
    // The proxy project needs Debian's nginx and PostgreSQL; without them it is left out, and said so.
    const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].some((f) => fs.existsSync(f));
    const withoutProxy = !nginx || !pg || pg === 'TEST_DATABASE_URL';
    if (withoutProxy) {
      skipped.push(
        'Extremo a extremo detrás de nginx (proyecto proxy): necesita nginx y PostgreSQL instalados. Instálalos con `apt-get install --no-install-recommends nginx postgresql`.',
      );
    }
    endToEnd = runAlongside('Playwright (Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
      ...(withoutProxy ? { COMANDO_E2E_WITHOUT_PROXY: '1' } : {}),
    });
  }
} else {
  skipped.push(
    `Extremo a extremo: no se encontró Chromium en ${chromiumPath}. Instálalo con \`apt-get install chromium-headless-shell\` (o define CHROMIUM_PATH).`,
  );
}

const vitest = await vitestRunning;
const summary = readVitest(vitestSummary);
fs.rmSync(vitestSummary, { force: true });
if (summary) {
  for (const project of projects) {
    const p = summary.projects[project];
    results.push({
      suite: suiteName(project),
      ok: p !== undefined && p.failed === 0,
      counts: p && { passed: p.passed, failed: p.failed, skipped: p.skipped },
      ms: p?.startedAt ? p.endedAt - p.startedAt : undefined,
      note: 'a la vez que las otras suites de Vitest',
    });
  }
  for (const f of summary.files) slowFiles.push({ suite: suiteName(f.project), file: f.file, ms: f.ms });
  for (const f of summary.failures ?? [])
    failures.push({ suite: suiteName(f.project), where: `${f.file} › ${f.test}`, error: f.error });
  if (summary.unhandledErrors > 0)
    results.push({ suite: `Vitest: ${summary.unhandledErrors} errores fuera de las pruebas`, ok: false });
  else if (!vitest.ok && results.every((r) => r.ok)) results.push({ suite: 'Vitest', ok: false, ms: vitest.ms });
} else {
  results.push({ suite: `Vitest (${projects.join(', ')})`, ok: false, ms: vitest.ms });
}

await building.show('Vitest');
results.push({ suite: 'compilación', ok: built.ok, ms: built.ms, note: 'a la vez que Vitest' });

if (endToEnd) {
  const e2e = await endToEnd.show('Vitest');
  const report = readPlaywright(pwJson);
  results.push({
    suite: 'extremo a extremo',
    ok: e2e.ok,
    counts: report?.counts,
    ms: e2e.ms,
    note: 'a la vez que Vitest',
  });
  slowFiles.push(...(report?.files ?? []));
  failures.push(...(report?.failed ?? []));
}

if (releasing) {
  const release = await releasing.show('Vitest y extremo a extremo');
  results.push({
    suite: 'paquete de la versión',
    ok: release.ok,
    ms: release.ms,
    note: 'a la vez que Vitest y extremo a extremo',
  });
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
console.log('\n━━ Los 10 archivos de prueba más lentos ━━');
for (const f of slowFiles.sort((a, b) => b.ms - a.ms).slice(0, 10)) {
  console.log(`${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.suite.padEnd(24)} ${f.file}`);
}
if (failures.length > 0) {
  console.log('\n━━ Lo que falló ━━');
  for (const f of failures)
    console.log(`${f.flaky ? '~ solo al reintentar' : '✘'} ${f.suite}: ${f.where}\n    ${f.error}`);
}
console.log('\n━━ Resumen ━━');
for (const r of results) {
  const counts = r.counts
    ? ` — ${r.counts.passed} pasaron, ${r.counts.failed} fallaron${r.counts.skipped ? `, ${r.counts.skipped} omitidas` : ''}${r.counts.flaky ? `, ${r.counts.flaky} solo al reintentar` : ''}`
    : '';
  const time = r.ms === undefined ? '' : ` — ${duration(r.ms)}${r.note ? ` (${r.note})` : ''}`;
  console.log(`${r.ok ? '✔' : '✘'} ${r.suite}${counts}${time}`);
}
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
console.log(`Tiempo total: ${duration(Date.now() - startedAt)}`);
process.exit(failed > 0 || results.some((r) => !r.ok) ? 1 : 0);
