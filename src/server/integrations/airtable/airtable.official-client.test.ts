// The official `airtable` client (a dev dependency) against our Airtable stand-in: if the stand-in refuses
// what the client sends, ignores a parameter Airtable honours, or answers in a shape the client cannot
// read, it is narrower than real Airtable and the tests that rely on it prove less than they claim.
import Airtable from 'airtable';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AirtableContractServer,
  makeAirtableRecords,
  startAirtableContractServer,
} from '#tests/support/airtable-contract-server';
import { createAirtableClient } from './airtable.client';
import { createRateLimiter } from './airtable.rate-limit';

let server: AirtableContractServer;
beforeEach(async () => {
  server = await startAirtableContractServer({ tables: { Zulia: makeAirtableRecords(12), agenda: [] } });
  // This file checks shapes, not pace (airtable.client.test.ts checks the 5 requests a second).
  server.rateLimit = 1_000;
});
afterEach(async () => server.close());

const base = () =>
  new Airtable({ apiKey: server.token, endpointUrl: server.url, noRetryIfRateLimited: true }).base(server.baseId);

describe('the official Airtable client against the stand-in', () => {
  it('lists every page', async () => {
    const rows = await base()('Zulia').select({ pageSize: 5 }).all();
    expect(rows.map((r) => r.id)).toEqual(server.table('Zulia').map((r) => r.id));
    expect(rows[0]?.get('Nombre')).toBe('Persona 1');
    expect(server.requests).toHaveLength(3);
  });

  it('honours fields, sort and maxRecords', async () => {
    const rows = await base()('Zulia')
      .select({
        fields: ['Nombre', 'rephrase'],
        sort: [
          { field: 'rephrase', direction: 'asc' },
          { field: 'Nombre', direction: 'desc' },
        ],
        maxRecords: 4,
        pageSize: 3,
      })
      .all();
    expect(rows.map((r) => r.fields)).toEqual([
      { Nombre: 'Persona 9', rephrase: 'cabimas' },
      { Nombre: 'Persona 5', rephrase: 'cabimas' },
      { Nombre: 'Persona 1', rephrase: 'cabimas' },
      { Nombre: 'Persona 6', rephrase: 'lagunillas' },
    ]);
    expect(server.requests).toHaveLength(2); // maxRecords counts over the pages
    const first = new URL(server.requests[0]?.url ?? '', server.url).searchParams;
    expect(first.getAll('fields[]')).toEqual(['Nombre', 'rephrase']);
    expect(first.get('sort[1][direction]')).toBe('desc');
  });

  it('filters with a formula, and refuses an unknown field in fields or sort as Airtable does', async () => {
    const mara = await base()('Zulia').select({ filterByFormula: "{rephrase} = 'mara'" }).all();
    expect(mara.map((r) => r.get('Nombre'))).toEqual(['Persona 3', 'Persona 7', 'Persona 11']);
    for (const select of [{ fields: ['municipio'] }, { sort: [{ field: 'municipio' }] }]) {
      await expect(base()('Zulia').select(select).all()).rejects.toMatchObject({
        statusCode: 422,
        error: 'UNKNOWN_FIELD_NAME',
      });
    }
  });

  it('creates records (one, or several at once) and reads one back', async () => {
    const one = await base()('Zulia').create({ Nombre: 'Nueva Persona', rephrase: 'mara' });
    expect(one.id).toMatch(/^rec/);
    expect(one.get('Nombre')).toBe('Nueva Persona');
    const several = await base()('Zulia').create([{ fields: { Nombre: 'Otra' } }, { fields: { Nombre: 'Una más' } }]);
    expect(several.map((r) => r.get('Nombre'))).toEqual(['Otra', 'Una más']);
    expect((await base()('Zulia').find(one.id)).get('rephrase')).toBe('mara');
    expect(server.table('Zulia')).toHaveLength(15);
    await expect(base()('Zulia').create({ Municipio: 'x' })).rejects.toMatchObject({
      statusCode: 422,
      error: 'UNKNOWN_FIELD_NAME',
    });
  });

  it('updates one record, and several at once, keeping the other fields', async () => {
    const [a, b] = server.table('Zulia');
    const updated = await base()('Zulia').update(a!.id, { voto: 'FA' });
    expect(updated.fields).toMatchObject({ Nombre: 'Persona 1', voto: 'FA' });
    const both = await base()('Zulia').update([
      { id: a!.id, fields: { gobernador: 'https://comando.example/api/photos/1' } },
      { id: b!.id, fields: { voto: 'LC' } },
    ]);
    expect(both.map((r) => r.get('voto'))).toEqual(['FA', 'LC']);
    expect(server.table('Zulia')[0]?.fields).toMatchObject({
      Nombre: 'Persona 1',
      voto: 'FA',
      gobernador: 'https://comando.example/api/photos/1',
    });
    expect(server.patches.map((p) => p.records.length)).toEqual([1, 2]);
  });

  it('gets 403 for a table that does not exist, as Airtable answers a personal access token', async () => {
    await expect(base()('Zuliaa').select().all()).rejects.toMatchObject({ statusCode: 403 });
    // Our client reads the same answer and names the table.
    const ours = createAirtableClient({
      token: server.token,
      baseId: server.baseId,
      apiUrl: server.url,
      limiter: createRateLimiter(),
    });
    await expect(ours.list('Zuliaa')).rejects.toMatchObject({
      status: 403,
      type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
      message: expect.stringContaining('«Zuliaa»'),
    });
  });
});
