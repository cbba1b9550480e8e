// `npm run release`: comando-<version>.tgz, what an operator installs (README, 'Running in production';
// docs/decisions/098). It holds the built web app, the server and the command line each as one ES
// module with the pure-JavaScript packages inside, docs/deploy/, and a package.json with a lock file that
// name only what must be installed on the target: the native packages, and the few the server loads
// by their path at run time. `npm ci --omit=dev` in the unpacked folder installs them; nothing else runs
// there (no TypeScript, no Vite, no compiler but node-gyp's for better-sqlite3 when its prebuilt binary
// cannot be downloaded).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Installed on the target, not bundled. Native: better-sqlite3, sharp (and its prebuilt @img/*),
 * @node-rs/argon2. Loaded by path at run time, in a child process or a thread (image-converter.ts,
 * notas.sanitize.ts): sharp, libheif-js, sanitize-html. Serving its own files from its folder:
 * @fastify/swagger-ui.
 */
export const RUNTIME_PACKAGES = [
  'better-sqlite3',
  'sharp',
  '@node-rs/argon2',
  'libheif-js',
  'sanitize-html',
  '@fastify/swagger-ui',
  // Litestream's binary (decision 106), found by its path at run time.
  '@flydotio/litestream',
];

const root = process.cwd();
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const name = `comando-${pkg.version}`;
const outDir = path.resolve(process.env.RELEASE_DIR ?? 'release');
const stage = path.join(outDir, name);
const tarball = path.join(outDir, `${name}.tgz`);

// The web app as `npm run build` makes it: built only when missing or older than its sources.
execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });

fs.rmSync(stage, { recursive: true, force: true });
fs.rmSync(tarball, { force: true });
fs.mkdirSync(stage, { recursive: true });

const copy = (from, to = from) => fs.cpSync(path.join(root, from), path.join(stage, to), { recursive: true });
copy('dist');
copy('docs/deploy');
copy('README.md');
copy('.env.example');

// Bundled code that is CommonJS inside calls `require` and reads `__dirname`: an ES module has neither.
const banner = {
  js: [
    "import { createRequire as __comandoRequire } from 'node:module';",
    "import { fileURLToPath as __comandoPath } from 'node:url';",
    "import { dirname as __comandoDirname } from 'node:path';",
    'const require = __comandoRequire(import.meta.url);',
    'const __filename = __comandoPath(import.meta.url);',
    'const __dirname = __comandoDirname(__filename);',
  ].join('\n'),
};
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  banner,
};

// The server and the command line: our code and every pure-JavaScript package in one file each.
// pg-native is pg's optional native driver, never used here.
const external = [...RUNTIME_PACKAGES, 'pg-native'];
await build({
  ...common,
  entryPoints: { server: 'src/server/server.ts', cli: 'src/server/cli.ts' },
  outdir: path.join(stage, 'dist-server'),
  outExtension: { '.js': '.mjs' },
  external,
});

// The public pages' server rendering: Vite leaves React, the router and the rest as imports; bundled
// here so the target installs none of the web app's packages.
await build({
  ...common,
  entryPoints: [path.join(root, 'dist-ssr/entry-server.js')],
  outfile: path.join(stage, 'dist-ssr/entry-server.js'),
  // React's production build, as Vite's SSR build takes it under NODE_ENV=production.
  define: { 'process.env.NODE_ENV': '"production"' },
});
fs.copyFileSync(path.join(root, 'dist-ssr/manifest.webmanifest'), path.join(stage, 'dist-ssr/manifest.webmanifest'));

// package.json and package-lock.json: the runtime packages at the versions the repository's lock file
// holds, with everything they need (the subset of the lock file reachable from them).
const dependencies = Object.fromEntries(
  RUNTIME_PACKAGES.map((p) => {
    if (!pkg.dependencies[p]) throw new Error(`${p} is not among package.json's dependencies`);
    return [p, pkg.dependencies[p]];
  }),
);
const releasePkg = {
  name: 'comando',
  version: pkg.version,
  private: true,
  description: pkg.description,
  type: 'module',
  engines: pkg.engines,
  scripts: {
    // The same command and flags as `npm run serve` and the systemd unit (decision 091).
    start: /node [^&|;]*dist-server\/server\.mjs/.exec(pkg.scripts.serve)[0],
    cli: 'node dist-server/cli.mjs',
  },
  dependencies,
  // npm 11 names the install scripts allowed to run: better-sqlite3's fetches or compiles its binary.
  allowScripts: { 'better-sqlite3': true },
};
fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(releasePkg, null, 2)}\n`);

/** Where Node finds `dep` from the package at `from` (a lock file key): the nearest node_modules up. */
function resolveInLock(from, dep) {
  let base = from;
  for (;;) {
    const key = base ? `${base}/node_modules/${dep}` : `node_modules/${dep}`;
    if (lock.packages[key]) return key;
    if (!base) return undefined;
    const at = base.lastIndexOf('/node_modules/');
    base = at === -1 ? '' : base.slice(0, at);
  }
}
const kept = new Map();
const queue = RUNTIME_PACKAGES.map((p) => ['', p]);
while (queue.length > 0) {
  const [from, dep] = queue.shift();
  const key = resolveInLock(from, dep);
  // Not found: an optional or peer dependency the repository does not install either.
  if (!key || kept.has(key)) continue;
  const entry = { ...lock.packages[key] };
  delete entry.dev;
  delete entry.devOptional;
  delete entry.peer;
  kept.set(key, entry);
  for (const d of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) queue.push([key, d]);
  for (const d of Object.keys(entry.peerDependencies ?? {}))
    if (!entry.peerDependenciesMeta?.[d]?.optional) queue.push([key, d]);
}
const releaseLock = {
  name: 'comando',
  version: pkg.version,
  lockfileVersion: lock.lockfileVersion,
  requires: true,
  packages: {
    '': { name: 'comando', version: pkg.version, dependencies, engines: pkg.engines },
    ...Object.fromEntries([...kept].sort(([a], [b]) => a.localeCompare(b))),
  },
};
fs.writeFileSync(path.join(stage, 'package-lock.json'), `${JSON.stringify(releaseLock, null, 2)}\n`);

execFileSync('tar', ['-czf', tarball, '-C', outDir, name]);
fs.rmSync(stage, { recursive: true, force: true });
const size = fs.statSync(tarball).size;
const shown = tarball.startsWith(`${root}${path.sep}`) ? path.relative(root, tarball) : tarball;
console.log(`${shown}: ${(size / 1024 / 1024).toFixed(1)} MB, ${kept.size} paquetes a instalar con npm ci --omit=dev`);
