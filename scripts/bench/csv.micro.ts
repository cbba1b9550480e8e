// `npx tsx scripts/bench/csv.micro.ts`: the CSV reader and writer alone, at the import's target size
// (100,000 rows), without the server or the database. Reading: the file's bytes decoded and read in
// 32 KB chunks as the import reads them (src/server/features/records/records.import-encoding.ts);
// writing: as many export lines, a page of 1,000 at a time as the exports write them (csvLines). Milliseconds, the median of 7 rounds, and the
// most the heap grew during a reading (decision 050). Not a suite of `npm run bench`: no server, no HTTP.
import { createCsvReader } from '#server/features/records/records.csv';
import { type CsvValue, csvLines } from '#server/platform/lib/csv';
import { importCsv } from '#server/testing/records-import-fixtures';

const ROUNDS = 7;
const ROWS = Number(process.env.MICRO_ROWS ?? 100_000);
const CHUNK = 32 * 1024;

const bytes = Buffer.from(
  importCsv(ROWS, { departments: ['cabimas', 'lagunillas', 'mara', 'san-francisco', 'sucre'], start: 1_000_000 }),
);

function read(): { ms: number; rows: number; heapGrowthMb: number } {
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  let rows = 0;
  const started = performance.now();
  const decoder = new TextDecoder('utf-8');
  const reader = createCsvReader({
    maxRowChars: 64 * 1024,
    onRow: () => {
      rows++;
    },
  });
  for (let at = 0; at < bytes.length; at += CHUNK) {
    reader.push(decoder.decode(bytes.subarray(at, at + CHUNK), { stream: true }));
    if ((at / CHUNK) % 16 === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }
  reader.push(decoder.decode());
  reader.end();
  return { ms: performance.now() - started, rows, heapGrowthMb: (heapPeak - heapBefore) / 1024 / 1024 };
}

function write(): { ms: number; chars: number } {
  const started = performance.now();
  let chars = 0;
  for (let page = 0; page < ROWS; page += 1_000) {
    const rows: CsvValue[][] = [];
    for (let i = page; i < Math.min(page + 1_000, ROWS); i++) {
      rows.push([
        'Sector Los Olivos',
        `Pérez; María ${i}`,
        'UBCH 110100123',
        `+58 414 ${i}`,
        'cabimas',
        'votado',
        'A1 B2',
        '2026-11-22T23:30:05.000Z',
        i,
      ]);
    }
    chars += csvLines(rows).length;
  }
  return { ms: performance.now() - started, chars };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const reads = Array.from({ length: ROUNDS }, read);
const writes = Array.from({ length: ROUNDS }, write);
console.table([
  {
    caso: `leer ${ROWS.toLocaleString('es')} filas (${(bytes.length / 1024 / 1024).toFixed(1)} MB)`,
    'mediana ms': Math.round(median(reads.map((r) => r.ms))),
    'filas/s': Math.round((ROWS / median(reads.map((r) => r.ms))) * 1000),
    'heap +MB máx.': Number(Math.max(...reads.map((r) => r.heapGrowthMb)).toFixed(1)),
    filas: reads[0]?.rows,
  },
  {
    caso: `escribir ${ROWS.toLocaleString('es')} líneas`,
    'mediana ms': Math.round(median(writes.map((w) => w.ms))),
    'filas/s': Math.round((ROWS / median(writes.map((w) => w.ms))) * 1000),
    'heap +MB máx.': '',
    filas: ROWS,
  },
]);
