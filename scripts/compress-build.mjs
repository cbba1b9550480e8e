// Writes a Brotli (.br) and a gzip (.gz) copy beside every compressible file of the web build, at the
// highest levels, once per build. The server sends them as they are to a browser that accepts them
// (@fastify/static's preCompressed) instead of compressing the same file again on every request: less
// server work on a morning when every validator opens the app, and smaller files on a slow network.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** What compresses; pictures (png, jpg, webp, ico) already are. Under 1 KB it is not worth it (as at run time). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
const MIN_BYTES = 1024;

function* filesUnder(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else yield file;
  }
}

const root = process.argv[2] ?? 'dist';
let count = 0;
let before = 0;
let after = 0;
for (const file of filesUnder(root)) {
  if (!COMPRESSIBLE.test(file) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
  const data = fs.readFileSync(file);
  if (data.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION }));
  count += 1;
  before += data.length;
  after += br.length;
}
console.log(
  `Comprimidos ${count} archivos de ${root}: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB con Brotli.`,
);
