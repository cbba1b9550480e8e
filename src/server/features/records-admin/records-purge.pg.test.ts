import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { databaseFiles } from '#server/testing/database-files';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';
import { createRecordsPurgeService } from './records-purge.service';

let t: TestApp | undefined;
let elsewhere: pg.Client | undefined;
afterEach(async () => {
  await elsewhere?.end();
  elsewhere = undefined;
  await t?.close();
  t = undefined;
});

const PEOPLE = [
  { nombre: 'Yusmary Chourio Fuenmayor', telefono: '0414-6123457' },
  { nombre: 'Wilmer Atencio Ocando', telefono: '0424-6189012' },
];
const secrets = PEOPLE.flatMap((p) => [...p.nombre.split(' '), p.telefono, p.telefono.replace(/\D/g, '').slice(-7)]);
const found = (bytes: Buffer) => secrets.filter((s) => bytes.includes(Buffer.from(s, 'utf8')));
const actor = { email: 'admin@example.com', ip: '127.0.0.1' };

describe("'Borrar datos personales' on PostgreSQL, with other transactions on the same server", () => {
  it('does not call the files rewritten while a transaction begun before is open, and rewrites them once it has ended', async () => {
    t = await createTestApp();
    await signInPeople(t);
    await addRecords(t, SLUG_A, PEOPLE);
    await setElectionPhase(t.db, 'cerrada', new Date());
    // Another database of the same server, a transaction that has written something and is still open:
    // VACUUM FULL's own snapshot reaches back to it, so the rows' versions before the purge are kept.
    elsewhere = new pg.Client({ connectionString: inject('postgresUrl') });
    await elsewhere.connect();
    await elsewhere.query('begin');
    await elsewhere.query('select pg_current_xact_id()');
    const service = createRecordsPurgeService(t.db.kysely, () => new Date(), {
      rewriteWait: { attempts: 2, pauseMs: 0 },
    });

    const first = await service.purge({ photos: 'keep' }, actor);
    expect(first).toMatchObject({ records: 2, databaseRewritten: false });
    // What it says is so: the names are still in the table's file.
    expect(found(await databaseFiles(t))).toEqual(secrets);

    await elsewhere.query('commit');
    // Waiting as the app does: the other tests' transactions on this server are short, but they are there.
    const again = await createRecordsPurgeService(t.db.kysely, () => new Date()).purge({ photos: 'keep' }, actor);
    expect(again).toMatchObject({ databaseRewritten: true });
    expect(found(await databaseFiles(t))).toEqual([]);
  });
});
