import { once } from 'node:events';
import fs from 'node:fs';
import { fakeName, seededRandom } from '#server/integrations/demo/records.fake';

/**
 * CSV files for import tests and the benchmark (not a test file itself): believable rows, every one a
 * different person (the phone is the row number), spread over the given municipalities.
 */
export interface ImportCsvOptions {
  departments: readonly string[];
  /** First row number (phones and names follow it), to make files that do not overlap. */
  start?: number;
  separator?: ',' | ';';
  seed?: number;
  header?: readonly string[];
}

export const IMPORT_HEADER = ['Comunidades', 'Nombre', 'UBCH', 'Telefono', 'rephrase'] as const;

/** The lines of such a file, header first, each ending in CRLF. */
export function* importCsvLines(count: number, options: ImportCsvOptions): Generator<string> {
  const sep = options.separator ?? ';';
  const random = seededRandom(options.seed ?? 11);
  const start = options.start ?? 0;
  yield `${(options.header ?? IMPORT_HEADER).join(sep)}\r\n`;
  for (let i = 0; i < count; i++) {
    const n = start + i;
    const department = options.departments[n % options.departments.length] as string;
    const comunidad = `Sector ${['Los Olivos', 'La Pomona', 'San Jacinto', 'El Milagro'][n % 4]}`;
    // A comma inside a name must be quoted when the separator is a comma.
    const nombre = fakeName(random);
    const ubch = `UBCH ${110_100_000 + (n % 997)}`;
    const telefono = `0414-${String(n).padStart(7, '0')}`;
    yield `${[comunidad, nombre, ubch, telefono, department].join(sep)}\r\n`;
  }
}

export function importCsv(count: number, options: ImportCsvOptions): string {
  return [...importCsvLines(count, options)].join('');
}

/** Writes such a file without building it in memory. */
export async function writeImportCsv(file: string, count: number, options: ImportCsvOptions): Promise<number> {
  const out = fs.createWriteStream(file);
  let chunk = '';
  for (const line of importCsvLines(count, options)) {
    chunk += line;
    if (chunk.length > 64 * 1024) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return fs.statSync(file).size;
}

/** A multipart/form-data body with one file field named `file`, as a browser sends it. */
export function multipartFile(content: Buffer | string, fileName = 'registros.csv', type = 'text/csv') {
  const boundary = `----comando${Math.random().toString(36).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, typeof content === 'string' ? Buffer.from(content) : content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
