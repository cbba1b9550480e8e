import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '..', '..');

/**
 * The records, their ballots, their photos and the counters they move: written by the records kernel
 * (src/server/core/records) alone (decision 104). Biome's import rules cannot see SQL, so this test reads it.
 */
const RECORD_TABLES = [
  'records',
  'record_votes',
  'photos',
  'vote_totals',
  'candidate_totals',
  'quarter_totals',
  'record_counts',
  'photo_totals',
  'photo_reviews',
];

const tables = RECORD_TABLES.join('|');
const WRITES = [
  // Kysely: insertInto('records'), updateTable('photos'), deleteFrom('vote_totals').
  new RegExp(`\\b(insertInto|updateTable|deleteFrom)\\(\\s*['"\`](${tables})['"\`]`, 'g'),
  // Raw SQL: insert into records, update "photos", delete from record_votes.
  new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+"?(${tables})\\b"?`, 'gi'),
];

/** The record tables a source text writes, as `how table` (empty when it writes none). */
function recordTableWrites(text: string): string[] {
  return WRITES.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((m) => `${(m[1] ?? '').toLowerCase().replace(/\s+/g, ' ')} ${m[2]}`),
  );
}

/** The kernel, and what may write those tables without it, each for its reason. */
const ALLOWED = [
  // The kernel.
  'src/server/core/records/',
  // Migrations are frozen snapshots of the schema and of the data they moved then.
  'src/server/platform/db/migrations/',
  // Test data written in bulk, as fast as a test of 100,000 records needs.
  'src/server/testing/results-synthetic.repository.ts',
  // Benchmarks that set up their data directly.
  'scripts/bench/compiled-query.micro.ts',
  'scripts/bench/election.bench.ts',
  'scripts/bench/evidence-package.bench.ts',
  'scripts/bench/evidence.bench.ts',
];

/** Every source file (not a test) under these folders of the repository. */
function sourceFiles(...dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .map((file) => `${dir}/${file.split(path.sep).join('/')}`)
      .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file) && !/\.test\.tsx?$/.test(file)),
  );
}

describe('who writes the records', () => {
  it('finds the writes of a record table in Kysely and in raw SQL, and nothing else', () => {
    // A feature that writes a record by itself, as it would be caught.
    const feature = `
      await db.updateTable('records').set({ completed: 1 }).where('id', '=', id).execute();
      await db.insertInto("photo_totals").values(row).execute();
      await sql\`DELETE FROM record_votes where record_id = \${id}\`.execute(db);
      await sql\`update "records" set voted_at = null\`.execute(db);
    `;
    expect(recordTableWrites(feature)).toEqual([
      'updatetable records',
      'insertinto photo_totals',
      'delete from record_votes',
      'update records',
    ]);
    // Reads, and writes of other tables, are no concern of this rule.
    const reads = `
      db.selectFrom('records').innerJoin('photos', 'photos.record_id', 'records.id');
      db.updateTable('records_import_runs'); sql\`update record_views set n = 1\`;
      db.insertInto('election_drill_items');
    `;
    expect(recordTableWrites(reads)).toEqual([]);
  });

  it('no file outside the records kernel writes a record, a ballot, a photo or a counter', () => {
    const files = sourceFiles('src', 'scripts', 'tests');
    expect(files.length).toBeGreaterThan(300);
    const found = files
      .filter((file) => !ALLOWED.some((allowed) => file.startsWith(allowed)))
      .flatMap((file) =>
        recordTableWrites(fs.readFileSync(path.join(root, file), 'utf8')).map((write) => `${file}: ${write}`),
      );
    expect(found).toEqual([]);
    // Every exception still writes: one that no longer does leaves the list.
    for (const allowed of ALLOWED.filter((a) => !a.endsWith('/'))) {
      expect(recordTableWrites(fs.readFileSync(path.join(root, allowed), 'utf8')), allowed).not.toEqual([]);
    }
  });
});
