// The server as `npm start` runs it: one ES module with our TypeScript compiled by esbuild, packages
// left in node_modules. Running it with plain `node` (no TypeScript loader, whose hook thread and
// compiled copies stay in memory) takes about 45 MB less and starts faster. It takes a fraction of
// a second, so it is built at every start and can never be older than the sources.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outfile = 'dist-server/server.mjs';
const result = await build({
  entryPoints: ['src/server/server.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // No source map: loading one costs ~25 MB. The bundle is not minified, and notes each file's path.
  sourcemap: false,
  write: false,
  logLevel: 'warning',
  outfile,
});
fs.mkdirSync(path.dirname(outfile), { recursive: true });
// Written aside, then renamed: a process starting meanwhile sees the old file or the new one, whole;
// several test processes may build at once.
const temporary = `${outfile}.${process.pid}.tmp`;
fs.writeFileSync(temporary, result.outputFiles[0].contents);
fs.renameSync(temporary, outfile);
