import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createTestDb, type TestDb } from '#server/testing/test-app';
import { auditedCsvExport, type CsvExport, csvFile, cursorPages, exportFileName, sendExport } from './csv-export';

const BOM = '\uFEFF';

/** A Fastify app with one route that sends what `make` gives, and every error line it logged. */
function exportApp(make: () => Promise<CsvExport>) {
  const logged: { msg: string; file?: string }[] = [];
  const app = Fastify({
    logger: {
      level: 'error',
      stream: { write: (line: string) => void logged.push(JSON.parse(line) as { msg: string; file?: string }) },
    },
  });
  app.get('/export.csv', async (request, reply) => sendExport(request, reply, await make()));
  return { app, logged };
}

describe('the audited CSV export', () => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it('starts with the BOM and its header, then each page’s lines, semicolons and CRLF as Excel reads them', async () => {
    let text = '';
    for await (const chunk of csvFile(['Nombre', 'Votos'], [[{ n: 'Ana', v: 2 }], [], [{ n: '=1+1', v: 0 }]], (r) => [
      r.n,
      r.v,
    ])) {
      text += chunk;
    }
    expect(text).toBe(`${BOM}Nombre;Votos\r\nAna;2\r\n'=1+1;0\r\n`);
  });

  it('reads page after page from a cursor, each starting after the last row of the one before, until a short page', async () => {
    const ids = [1, 2, 3, 4, 5];
    const asked: number[] = [];
    const pages: number[][] = [];
    for await (const page of cursorPages({
      first: 0,
      size: 2,
      read: async (after, size) => {
        asked.push(after);
        return ids.filter((id) => id > after).slice(0, size);
      },
      next: (id) => id,
    })) {
      pages.push(page);
    }
    expect(pages).toEqual([[1, 2], [3, 4], [5]]);
    // The short page ends it: no read of an empty page after it.
    expect(asked).toEqual([0, 2, 4]);
  });

  it('names the file with the day in Caracas, which is the day before in UTC after 20:00 there', () => {
    // 2026-11-23 01:30 UTC is 2026-11-22 21:30 in Caracas (UTC-4).
    expect(exportFileName('auditoria', new Date('2026-11-23T01:30:00Z'))).toBe('auditoria-2026-11-22.csv');
    // 04:00 UTC is midnight in Caracas: the new day begins.
    expect(exportFileName('auditoria', new Date('2026-11-23T04:00:00Z'))).toBe('auditoria-2026-11-23.csv');
    expect(exportFileName('evidencias', new Date('2026-11-23T03:59:59Z'), 'zip')).toBe('evidencias-2026-11-22.zip');
  });

  it('stores its audit row before the first line is read, and sends the file as an attachment named in Caracas time', async () => {
    t = await createTestDb({ migrated: true });
    const db = t.db.kysely;
    const at = new Date('2026-11-23T02:00:00Z');
    const seenAtFirstRead: number[] = [];
    const { app } = exportApp(() =>
      auditedCsvExport(db, {
        audit: async (trx) => ({
          actorEmail: 'admin@comando.example',
          action: 'records.export',
          ip: '127.0.0.1',
          // A function reads in the export's change (a count as the export starts).
          details: {
            rows: Number(
              (
                await trx
                  .selectFrom('records')
                  .select((eb) => eb.fn.countAll().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          },
          at,
        }),
        name: 'registros-maracaibo',
        at,
        header: ['ID'],
        pages: cursorPages({
          first: 0,
          size: 1,
          read: async (after) => {
            seenAtFirstRead.push((await listAudit(db, { action: 'records.export' })).length);
            return after < 2 ? [{ id: after + 1 }] : [];
          },
          next: (r: { id: number }) => r.id,
        }),
        line: (r) => [r.id],
      }),
    );
    const res = await app.inject({ url: '/export.csv' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="registros-maracaibo-2026-11-22.csv"');
    expect(res.body).toBe(`${BOM}ID\r\n1\r\n2\r\n`);
    expect(seenAtFirstRead[0]).toBe(1);
    const [row] = await listAudit(db, { action: 'records.export' });
    expect(row).toMatchObject({ actor_email: 'admin@comando.example', at: at.toISOString() });
    expect(JSON.parse(row?.details ?? '{}')).toEqual({ rows: 0 });
  });

  it('sends nothing when its audit row cannot be stored', async () => {
    t = await createTestDb({ migrated: true });
    const db = t.db.kysely;
    let reads = 0;
    const { app } = exportApp(() =>
      auditedCsvExport(db, {
        audit: async () => {
          throw new Error('the audit log refused the row');
        },
        name: 'auditoria',
        at: new Date(),
        header: ['ID'],
        pages: (async function* () {
          reads += 1;
          yield [1];
        })(),
        line: (id) => [id],
      }),
    );
    const res = await app.inject({ url: '/export.csv' });
    await app.close();
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(reads).toBe(0);
  });

  it('cuts the download short and logs it when a page fails half-way: never a file that looks whole', async () => {
    async function* failing(): AsyncGenerator<number[]> {
      yield [1, 2];
      throw new Error('the database went away');
    }
    const { app, logged } = exportApp(async () => ({
      fileName: 'tramites-validados-2026-11-22.csv',
      lines: csvFile(['ID'], failing(), (id) => [id]),
    }));
    // The headers are out before the failure: the transfer breaks (a browser sees a failed download, the
    // test's client a reset connection), never a complete answer holding half the rows.
    await expect(app.inject({ url: '/export.csv' })).rejects.toMatchObject({ code: 'LIGHT_ECONNRESET' });
    await app.close();
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'export failed', file: 'tramites-validados-2026-11-22.csv' }),
    );
  });
});
