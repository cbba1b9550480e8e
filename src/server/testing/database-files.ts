import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { type TestApp, testDialect } from './test-app';

/**
 * The bytes of a test app's database files (not a test file itself): on SQLite the file and its WAL; on
 * PostgreSQL every relation file of this database (tables, indexes, TOAST) and of the planner's
 * statistics (pg_statistic, which holds sample values of every column), once a checkpoint has written
 * them out.
 */
export async function databaseFiles(t: TestApp): Promise<Buffer> {
  const db = t.db.kysely;
  if (testDialect === 'sqlite') {
    const file = path.join(t.config.dataDir, 'comando.sqlite');
    const wal = `${file}-wal`;
    return Buffer.concat([fs.readFileSync(file), fs.existsSync(wal) ? fs.readFileSync(wal) : Buffer.alloc(0)]);
  }
  await sql`checkpoint`.execute(db);
  const dataDirectory = (
    await sql<{ setting: string }>`select current_setting('data_directory') as setting`.execute(db)
  ).rows[0]?.setting as string;
  const { rows } = await sql<{ file: string | null }>`
    select pg_relation_filepath(c.oid) as file from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where (n.nspname not in ('pg_catalog', 'information_schema') and c.relkind in ('r', 'i', 't'))
      or c.oid = 'pg_catalog.pg_statistic'::regclass`.execute(db);
  const parts: Buffer[] = [];
  for (const { file } of rows) {
    if (!file) continue;
    const full = path.join(dataDirectory, file);
    for (let segment = 0; ; segment++) {
      const name = segment === 0 ? full : `${full}.${segment}`;
      if (!fs.existsSync(name)) break;
      parts.push(fs.readFileSync(name));
    }
  }
  return Buffer.concat(parts);
}
