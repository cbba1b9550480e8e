// `npx tsx scripts/bench/csv.micro.ts`: the CSV reader and writer alone, at the import's target size
// (100,000 rows), without the server or the database. Reading: a UTF-8 file's bytes in 4 KB pieces
// through readCsv (src/server/features/records-import/records-import.csv.ts), once as the file is and once with one separator more at the end of every row than in the header (what
// spreadsheets write when a later column was used); writing: as many export lines, 1,000 at a time as
// the exports write them (csvLines). For each, the median of 7 rounds in milliseconds of time and of
// CPU (on a machine shared with other work the CPU moves much less), and the most the heap grew during
// a reading (decision 050). Not a suite of `npm run bench`: no server, no HTTP.
import { readCsv } from '#server/features/records-import/records-import.csv';
import { type CsvValue, csvLines } from '#server/platform/lib/csv';
import { importCsv } from '#server/testing/records-import-fixtures';

const ROUNDS = 7;
const ROWS = Number(process.env.MICRO_ROWS ?? 100_000);
const PIECE = 4 * 1024;

const text = importCsv(ROWS, {
  departments: ['cabimas', 'lagunillas', 'mara', 'san-francisco', 'sucre'],
  start: 1_000_000,
});
const bytes = Buffer.from(text);
const [headerLine, ...rowLines] = text.split('\r\n');
const wider = Buffer.from([headerLine, ...rowLines.map((l) => (l ? `${l};` : l))].join('\r\n'));

interface Round {
  ms: number;
  cpuMs: number;
  heapGrowthMb: number;
}

async function measure(work: (sampleHeap: () => void) => Promise<void> | void): Promise<Round> {
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  });
  const used = process.cpuUsage(cpu);
  return {
    ms: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    heapGrowthMb: (heapPeak - heapBefore) / 1024 / 1024,
  };
}

let rowsRead = 0;
const read = (file: Buffer) => () =>
  measure(async (sampleHeap) => {
    rowsRead = 0;
    const pieces = function* () {
      for (let at = 0; at < file.length; at += PIECE) {
        yield file.subarray(at, at + PIECE);
        if ((at / PIECE) % 128 === 0) sampleHeap();
      }
    };
    for await (const _row of readCsv(pieces(), { maxRowChars: 64 * 1024 })) rowsRead++;
  });

const write = () =>
  measure(() => {
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
      csvLines(rows);
    }
  });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const row = (caso: string, rounds: Round[], heap: boolean) => ({
  caso,
  'mediana ms': Math.round(median(rounds.map((r) => r.ms))),
  'mediana CPU ms': Math.round(median(rounds.map((r) => r.cpuMs))),
  'heap +MB máx.': heap ? Number(Math.max(...rounds.map((r) => r.heapGrowthMb)).toFixed(1)) : '',
});

async function rounds(work: () => Promise<Round>): Promise<Round[]> {
  const done: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) done.push(await work());
  return done;
}

const readsOf = async (file: Buffer) => {
  const measured = await rounds(read(file));
  if (rowsRead !== ROWS + 1) throw new Error(`se leyeron ${rowsRead} filas, no ${ROWS + 1}`);
  return measured;
};
const reads = await readsOf(bytes);
const widerReads = await readsOf(wider);
const writes = await rounds(write);
console.table([
  row(`leer ${ROWS.toLocaleString('es')} filas (${(bytes.length / 1024 / 1024).toFixed(1)} MB)`, reads, true),
  row(`leer ${ROWS.toLocaleString('es')} filas con un «;» más que el encabezado`, widerReads, true),
  row(`escribir ${ROWS.toLocaleString('es')} líneas`, writes, false),
]);
