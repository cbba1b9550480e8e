// `npm test`'s release step (docs/decisions/098): builds comando-<version>.tgz with `npm run release`
// (reusing the web build when it is current), installs it into an empty folder as the README's 'Running
// in production' says, checks that nothing but the runtime packages got there, starts it with
// NODE_ENV=production on a new data folder, creates the first admin with the packaged command line,
// signs in through the API, checks docs/deploy/alerts.yml with promtool, and checks every metric name the
// alert rules and the Grafana dashboard use against what the started server's /metrics exports.
//
// better-sqlite3's install script downloads its prebuilt binary from GitHub and otherwise compiles it
// (a minute or more here). So that the suite does not compile it once more, the binary this repository's
// own install has is handed to it as a local prebuild (prebuild-install's
// npm_config_better_sqlite3_local_prebuilds; npm warns that it does not know that setting, and passes it);
// COMANDO_RELEASE_COMPILE=1 leaves it to compile, as a target without GitHub would. Without promtool
// (Debian's `prometheus` package), COMANDO_RELEASE_WITHOUT_PROMTOOL=1 leaves the rules' check out.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-release-'));
const startedAt = Date.now();
/** @type {import('node:child_process').ChildProcess | undefined} */
let server;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const step = (line) => console.log(`• ${line}`);

/** Runs a command to its end, its output shown; resolves with its time, rejects on a failure. */
function run(cmd, args, options = {}) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(Date.now() - started) : reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}`)),
    );
  });
}

/** Runs a command with `input` on its standard input; resolves with what it wrote. */
function runWithInput(cmd, args, input, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')}: exit ${code}\n${out}`)),
    );
    child.stdin.end(input);
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/** Waits for the server's start-up line; rejects if it exits first. */
function listening(child) {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (d) => {
      log += d;
      if (log.includes('Server listening at')) resolve(log);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${log}`)));
  });
}

/** Every identifier of a PromQL expression that names a series (not a function, label or keyword). */
function metricNames(expr) {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);
  const names = [];
  for (const m of bare.matchAll(/(?<![\w:.$])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()/g)) {
    if (!keywords.has(m[1].toLowerCase())) names.push(m[1]);
  }
  return names;
}

/** The series names a Prometheus text exposition has: each sample's, and a histogram's three. */
function exportedNames(text) {
  const names = new Set();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      names.add(type[1]);
      if (type[2] === 'histogram' || type[2] === 'summary')
        for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${type[1]}${suffix}`);
    } else if (line && !line.startsWith('#')) {
      names.add(line.split(/[{ ]/)[0]);
    }
  }
  return names;
}

try {
  console.log(`Versión ${pkg.version}: paquete, instalación y arranque en ${work}`);

  // 1. The package.
  const out = path.join(work, 'out');
  const built = await run(process.execPath, ['scripts/build-release.mjs'], {
    env: { ...process.env, RELEASE_DIR: out },
  });
  const tarball = path.join(out, `comando-${pkg.version}.tgz`);
  assert.ok(fs.existsSync(tarball), `${tarball} missing`);
  step(`npm run release: ${(fs.statSync(tarball).size / 1024 / 1024).toFixed(1)} MB en ${seconds(built)}`);

  // 2. Installed as the README says: releases/<version>, unpacked, `npm ci --omit=dev`, `current` linked.
  const srv = path.join(work, 'srv');
  const release = path.join(srv, 'releases', pkg.version);
  fs.mkdirSync(release, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', release, '--strip-components=1']);
  const env = { ...process.env };
  delete env.NODE_ENV;
  if (process.env.COMANDO_RELEASE_COMPILE !== '1') {
    const prebuilds = path.join(work, 'prebuilds');
    fs.mkdirSync(prebuilds);
    const sqlite = JSON.parse(fs.readFileSync('node_modules/better-sqlite3/package.json', 'utf8'));
    const file = `better-sqlite3-v${sqlite.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    execFileSync('tar', [
      '-czf',
      path.join(prebuilds, file),
      '-C',
      'node_modules/better-sqlite3',
      'build/Release/better_sqlite3.node',
    ]);
    env.npm_config_better_sqlite3_local_prebuilds = prebuilds;
  }
  const installed = await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: release,
    env,
  });
  fs.symlinkSync(path.join('releases', pkg.version), path.join(srv, 'current'));
  const current = path.join(srv, 'current');
  const du = execFileSync('du', ['-sm', '--apparent-size', release], { encoding: 'utf8' }).split('\t')[0];
  step(`npm ci --omit=dev: ${seconds(installed)}; instalado: ${du} MB`);

  // 3. Only what runs: none of the development packages, no build tool, none of the web app's packages
  // (they are in the bundles), and exactly the packages the release's lock file names.
  const lock = JSON.parse(fs.readFileSync(path.join(current, 'package-lock.json'), 'utf8'));
  const present = (name) => fs.existsSync(path.join(current, 'node_modules', name, 'package.json'));
  const forbidden = [
    ...Object.keys(pkg.devDependencies),
    'tsx',
    'esbuild',
    'vite',
    'react',
    'fastify',
    'kysely',
    'zod',
  ];
  const found = forbidden.filter(present);
  assert.deepEqual(found, [], `development or bundled packages installed: ${found.join(', ')}`);
  const installedPackages = Object.keys(
    JSON.parse(fs.readFileSync(path.join(current, 'node_modules/.package-lock.json'), 'utf8')).packages,
  );
  const strangers = installedPackages.filter((p) => !lock.packages[p]);
  assert.deepEqual(strangers, [], `installed but not in the release's lock file: ${strangers.join(', ')}`);
  step(
    `${installedPackages.length} paquetes instalados (${Object.keys(lock.packages).length - 1} en el lock, con los de otras plataformas); ninguno de desarrollo (${forbidden.length} comprobados)`,
  );

  // 4. The alert rules, as shipped: well formed, and their unit tests.
  const deploy = path.join(current, 'docs/deploy');
  if (process.env.COMANDO_RELEASE_WITHOUT_PROMTOOL === '1') {
    step('promtool no está instalado: las reglas de alerta no se comprobaron');
  } else {
    for (const args of [
      ['check', 'rules', 'alerts.yml'],
      ['test', 'rules', 'alerts.test.yml'],
    ]) {
      const checked = spawnSync('promtool', args, { cwd: deploy, encoding: 'utf8' });
      assert.equal(checked.status, 0, `promtool ${args.join(' ')}:\n${checked.stdout}${checked.stderr}`);
    }
    step('promtool check rules alerts.yml y promtool test rules alerts.test.yml: correctos');
  }

  // 5. Started as the systemd unit starts it: from `current`, NODE_ENV=production, data elsewhere.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const metricsToken = 'prueba-del-paquete-0123456789abcdefghijklmnop';
  const runtimeEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    PUBLIC_ORIGIN: origin,
    HOST: '127.0.0.1',
    PORT: String(port),
    COMANDO_DEMO: '0',
    DATA_DIR: path.join(work, 'data'),
    METRICS_TOKEN: metricsToken,
    LOG_LEVEL: 'warn',
  };
  const serverStarted = Date.now();
  server = spawn(process.execPath, ['--max-old-space-size=384', 'dist-server/server.mjs'], {
    cwd: current,
    env: { ...runtimeEnv, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await listening(server);
  step(`servidor escuchando en ${origin} tras ${seconds(Date.now() - serverStarted)}`);

  const ready = await fetch(`${origin}/api/ready`);
  assert.equal(ready.status, 200, '/api/ready');
  // The public pages rendered by the bundled rendering module (its data embedded), the app's shell.
  for (const page of ['/', '/agenda', '/notas']) {
    const res = await fetch(`${origin}${page}`);
    assert.equal(res.status, 200, page);
    assert.match(await res.text(), /<div id="root"><.*id="datos-de-la-pagina"/s, `${page} not rendered`);
  }
  const shell = await fetch(`${origin}/login`);
  assert.equal(shell.status, 200, '/login');
  assert.match(await shell.text(), /<div id="root"><\/div>/);

  // 6. The first admin with the packaged command line, the password on standard input.
  const email = 'jefa@example.org';
  const password = 'Paquete-de-prueba-2026';
  const cli = await runWithInput(
    process.execPath,
    ['dist-server/cli.mjs', 'user:add', email, '--admin'],
    `${password}\n`,
    {
      cwd: current,
      env: runtimeEnv,
    },
  );
  assert.match(cli, /Cuenta creada: jefa@example\.org \(administrador\)/);
  step(`node dist-server/cli.mjs user:add ${email} --admin: ${cli.trim()}`);

  // 7. Signed in through the API, as the login page does.
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(login.status, 200, `login: ${await login.clone().text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const session = await (await fetch(`${origin}/api/auth/session`, { headers: { cookie } })).json();
  assert.equal(session.user?.email, email);
  assert.equal(session.user?.role, 'admin');
  // In production an admin sets up the second factor first (decision 080).
  assert.equal(session.user?.secondFactor, 'enrol');
  step(`sesión iniciada por la API: ${session.user.email} (${session.user.role}), segundo factor por configurar`);

  // 8. The metric names of the alert rules and the dashboard, against the running server's /metrics.
  const scrape = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  assert.equal(scrape.status, 200, '/metrics');
  const exported = exportedNames(await scrape.text());
  // `up` is Prometheus' own series for each target it scrapes.
  exported.add('up');
  const rules = fs.readFileSync(path.join(deploy, 'alerts.yml'), 'utf8');
  const ruleExprs = [];
  // Each `expr:` of the rule file, one line or a `|` block (the indented lines after it).
  const lines = rules.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const m = /^(\s*)expr:\s*(.*)$/.exec(lines[i]);
    if (!m) continue;
    if (m[2] !== '|') {
      ruleExprs.push(m[2]);
      continue;
    }
    const block = [];
    while (i + 1 < lines.length && (lines[i + 1].trim() === '' || lines[i + 1].search(/\S/) > m[1].length)) {
      i += 1;
      block.push(lines[i]);
    }
    ruleExprs.push(block.join('\n'));
  }
  const alerts = lines.filter((l) => /^\s*- alert:/.test(l)).length;
  assert.equal(ruleExprs.length, alerts, `alerts.yml: ${ruleExprs.length} expressions read for ${alerts} rules`);
  const dashboard = JSON.parse(fs.readFileSync(path.join(deploy, 'grafana-comando.json'), 'utf8'));
  const dashboardExprs = [
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
    ...dashboard.templating.list
      .filter((v) => v.type === 'query')
      .map((v) => /label_values\(([^,]+),/.exec(v.definition)?.[1] ?? v.definition),
  ];
  const missing = [];
  const used = new Set();
  for (const [file, exprs] of [
    ['alerts.yml', ruleExprs],
    ['grafana-comando.json', dashboardExprs],
  ]) {
    for (const expr of exprs) {
      const names = metricNames(expr);
      assert.ok(names.length > 0, `${file}: no metric in ${expr}`);
      for (const name of names) {
        used.add(name);
        if (!exported.has(name)) missing.push(`${file}: ${name}`);
      }
    }
  }
  assert.deepEqual(missing, [], `metrics not exported by /metrics:\n${missing.join('\n')}`);
  step(
    `${ruleExprs.length} reglas y ${dashboardExprs.length} consultas del tablero usan ${used.size} métricas, todas en /metrics: ${[...used].sort().join(', ')}`,
  );
  console.log(`Paquete comprobado en ${seconds(Date.now() - startedAt)}.`);
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(work, { recursive: true, force: true });
}
