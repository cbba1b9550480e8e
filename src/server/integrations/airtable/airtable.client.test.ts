import { afterEach, describe, expect, it } from 'vitest';
import {
  type AirtableContractServer,
  makeAirtableRecords,
  startAirtableContractServer,
} from '#tests/support/airtable-contract-server';
import { type AirtableClientOptions, AirtableError, createAirtableClient } from './airtable.client';
import { createRateLimiter } from './airtable.rate-limit';

let server: AirtableContractServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(records = 250) {
  server = await startAirtableContractServer({ tables: { Zulia: makeAirtableRecords(records), agenda: [] } });
  return server;
}

/** A client of the test server whose waits are recorded, and only really slept when asked. */
function clientOf(s: AirtableContractServer, options: Partial<AirtableClientOptions> & { realWaitMs?: number } = {}) {
  const waits: number[] = [];
  const { realWaitMs = 0, ...rest } = options;
  const client = createAirtableClient({
    token: s.token,
    baseId: s.baseId,
    apiUrl: s.url,
    limiter: createRateLimiter(),
    sleep: async (ms) => {
      waits.push(ms);
      if (realWaitMs) await new Promise((r) => setTimeout(r, realWaitMs));
    },
    ...rest,
  });
  return { client, waits };
}

async function failureOf(promise: Promise<unknown>): Promise<AirtableError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AirtableError) return error;
    throw error;
  }
  throw new Error('se esperaba un error de Airtable');
}

describe('Airtable client against the documented REST contract', () => {
  it('reads a table page by page (pageSize 100, following offset until there is none), with the token', async () => {
    const s = await start(250);
    const { client } = clientOf(s);
    const rows = await client.list('Zulia');
    expect(rows.map((r) => r.id)).toEqual(s.table('Zulia').map((r) => r.id));
    expect(rows[0]?.fields.Nombre).toBe('Persona 1');
    const urls = s.requests.map((r) => new URL(r.url, s.url));
    expect(urls).toHaveLength(3);
    expect(urls.every((u) => u.pathname === `/v0/${s.baseId}/Zulia` && u.searchParams.get('pageSize') === '100')).toBe(
      true,
    );
    expect(urls[0]?.searchParams.has('offset')).toBe(false);
    expect(urls[1]?.searchParams.get('offset')).toMatch(/^itr/);
    expect(s.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('passes filterByFormula; a formula Airtable cannot read is a 422 INVALID_FILTER_BY_FORMULA, not retried', async () => {
    const s = await start(40);
    const { client } = clientOf(s);
    const cabimas = await client.list('Zulia', { filterByFormula: "{rephrase} = 'cabimas'" });
    expect(cabimas).toHaveLength(10);
    expect(cabimas.every((r) => r.fields.rephrase === 'cabimas')).toBe(true);
    expect(await client.list('Zulia', { filterByFormula: "AND({rephrase} = 'mara', NOT({voto} = ''))" })).toEqual([]);

    const before = s.requests.length;
    const bad = await failureOf(client.list('Zulia', { filterByFormula: "{rephrase = 'cabimas'" }));
    expect(bad).toMatchObject({ kind: 'invalid_request', status: 422, type: 'INVALID_FILTER_BY_FORMULA' });
    expect(bad.message).toMatch(/Airtable rechazó la solicitud/);
    const unknownField = await failureOf(client.list('Zulia', { filterByFormula: "{municipio} = 'x'" }));
    expect(unknownField.type).toBe('INVALID_FILTER_BY_FORMULA');
    expect(s.requests.length - before).toBe(2);
  });

  it('names a bad token (401 AUTHENTICATION_REQUIRED), and the table with a 403 as Airtable answers an unknown one, without retrying', async () => {
    const s = await start(5);
    const wrongToken = clientOf(s, { token: 'patOTRO.token' });
    const auth = await failureOf(wrongToken.client.list('Zulia'));
    expect(auth).toMatchObject({ kind: 'auth', status: 401, type: 'AUTHENTICATION_REQUIRED' });
    expect(auth.message).toContain('AIRTABLE_TOKEN');
    expect(auth.message).not.toContain('patOTRO');

    const { client, waits } = clientOf(s);
    const table = await failureOf(client.list('Zuliaa'));
    expect(table).toMatchObject({ kind: 'auth', status: 403, type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND' });
    expect(table.message).toMatch(
      /^Airtable rechazó el acceso a la tabla «Zuliaa» de la base appPRUEBAS0000001 \(403 INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND: .*\)\. Revisa que la tabla «Zuliaa» exista con ese nombre exacto \(AIRTABLE_RECORDS_TABLE, AIRTABLE_AGENDA_TABLE\), AIRTABLE_BASE_ID, y que el token de AIRTABLE_TOKEN pueda leer y escribir esa base\.$/,
    );
    const base = await failureOf(clientOf(s, { baseId: 'appOTRABASE000001' }).client.list('Zulia'));
    expect(base).toMatchObject({ status: 403, type: 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND' });
    expect(base.message).toContain('appOTRABASE000001');
    expect(waits).toEqual([]);
    expect(s.requests).toHaveLength(3);
  });

  it('names the table when a legacy API key gets 404 TABLE_NOT_FOUND', async () => {
    server = await startAirtableContractServer({ token: 'keyLEGADO0000001', tables: { Zulia: [] } });
    const table = await failureOf(clientOf(server).client.list('Zuliaa'));
    expect(table).toMatchObject({ kind: 'not_found', status: 404, type: 'TABLE_NOT_FOUND' });
    expect(table.message).toContain('«Zuliaa»');
  });

  it('never sends more than 5 requests per second to a base, even from two clients at once', async () => {
    const s = await start(1_200);
    const limiter = createRateLimiter();
    const a = clientOf(s, { limiter }).client;
    const b = clientOf(s, { limiter }).client;
    const started = performance.now();
    const [rowsA, rowsB] = await Promise.all([a.list('Zulia'), b.list('Zulia')]);
    const seconds = (performance.now() - started) / 1000;
    expect(rowsA).toHaveLength(1_200);
    expect(rowsB).toHaveLength(1_200);
    expect(s.requests).toHaveLength(24);
    expect(s.requests.every((r) => r.status === 200)).toBe(true);
    expect(s.maxRequestsInWindow(1_000)).toBeLessThanOrEqual(5);
    // 24 requests at 5 a second take at least (24 - 5) / 5 s. How much longer depends on the machine:
    // that is the benchmark's business (`npm run bench -- airtable`), not this test's.
    expect(seconds).toBeGreaterThanOrEqual(3.8);
  });

  it('after a 429 waits 30 s (as Airtable asks) and tries again', async () => {
    const s = await start(150);
    s.penaltyMs = 300;
    // Someone else (another program on the same base) went over the limit: the base answers 429.
    const raw = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${s.url}/v0/${s.baseId}/Zulia`, { headers: { authorization: `Bearer ${s.token}` } }),
      ),
    );
    expect(raw.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await raw.find((r) => r.status === 429)?.json()).toEqual({
      errors: [{ error: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded. Please try again later' }],
    });

    const { client, waits } = clientOf(s, { realWaitMs: 400 });
    const rows = await client.list('Zulia');
    expect(rows).toHaveLength(150);
    expect(waits).toContain(30_000);
    expect(s.requests.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(2);
  });

  it('gives up on a base that keeps answering 429, with a named error', async () => {
    const s = await start(5);
    s.penaltyMs = 60_000;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${s.url}/v0/${s.baseId}/Zulia`, { headers: { authorization: `Bearer ${s.token}` } }),
      ),
    );
    const { client, waits } = clientOf(s, { maxRateLimitWaits: 2 });
    const error = await failureOf(client.list('Zulia'));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, type: 'RATE_LIMIT_REACHED' });
    expect(waits).toEqual([30_000, 30_000]);
  });

  it('retries an outage (connection cut, 503) with growing waits, and names it when it lasts', async () => {
    const s = await start(150);
    s.script(['down', 'error']);
    const { client, waits } = clientOf(s, { attempts: 4 });
    expect(await client.list('Zulia')).toHaveLength(150);
    expect(waits).toEqual([1_000, 2_000]);

    s.mode = 'down';
    const down = clientOf(s, { attempts: 3 });
    const error = await failureOf(down.client.list('Zulia'));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/^No se pudo hablar con Airtable/);
    expect(down.waits).toEqual([1_000, 2_000]);

    s.mode = 'error';
    const failing = await failureOf(clientOf(s, { attempts: 2 }).client.list('Zulia'));
    expect(failing).toMatchObject({ kind: 'unavailable', status: 503, type: 'SERVICE_UNAVAILABLE' });
  });

  it('gives up on a slow answer after its timeout and tries again', async () => {
    const s = await start(50);
    s.slowMs = 2_000;
    s.script(['slow']);
    const { client, waits } = clientOf(s, { timeoutMs: 200 });
    expect(await client.list('Zulia')).toHaveLength(50);
    expect(waits).toEqual([1_000]);

    s.mode = 'slow';
    const error = await failureOf(clientOf(s, { timeoutMs: 100, attempts: 2 }).client.list('Zulia'));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('sin respuesta en 0.1 s');
  });

  it('treats malformed JSON as a failed answer: retried, then named', async () => {
    const s = await start(150);
    s.script(['malformed']);
    const { client, waits } = clientOf(s);
    expect(await client.list('Zulia')).toHaveLength(150);
    expect(waits).toEqual([1_000]);

    s.mode = 'malformed';
    const error = await failureOf(clientOf(s, { attempts: 2 }).client.list('Zulia'));
    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
    expect(error.message).toContain('JSON inválido');
  });

  it('updates up to 10 records per PATCH; the contract refuses more (422 INVALID_RECORDS) and unknown ids', async () => {
    const s = await start(12);
    const { client } = clientOf(s);
    const ids = s.table('Zulia').map((r) => r.id);
    const ten = ids.slice(0, 10).map((id) => ({ id, fields: { voto: 'FA' } }));
    const answer = await client.update('Zulia', ten);
    expect(answer).toHaveLength(10);
    expect(answer[0]?.fields).toMatchObject({ Nombre: 'Persona 1', voto: 'FA' });
    expect(s.table('Zulia').filter((r) => r.fields.voto === 'FA')).toHaveLength(10);
    expect(s.patches).toHaveLength(1);

    const eleven = ids.slice(0, 11).map((id) => ({ id, fields: { voto: 'LC' } }));
    const refused = await failureOf(client.update('Zulia', eleven));
    expect(refused.kind).toBe('invalid_request');
    expect(s.requests).toHaveLength(1);

    // The contract server itself answers as Airtable does.
    const res = await fetch(`${s.url}/v0/${s.baseId}/Zulia`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ records: eleven }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).error.type).toBe('INVALID_RECORDS');

    const missing = await failureOf(client.update('Zulia', [{ id: 'recNOEXISTE00000', fields: { voto: 'FA' } }]));
    expect(missing).toMatchObject({ kind: 'invalid_request', status: 422, type: 'ROW_DOES_NOT_EXIST' });
    const unknownField = await failureOf(client.update('Zulia', [{ id: ids[0] as string, fields: { votos: 'FA' } }]));
    expect(unknownField.type).toBe('UNKNOWN_FIELD_NAME');
  });
});

describe('rate limiter', () => {
  it('lets 5 requests through at once, then one more each time one of them is a second (and a margin) old', async () => {
    let clock = 0;
    const slept: number[] = [];
    const limiter = createRateLimiter({
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    });
    const starts: number[] = [];
    for (let i = 0; i < 12; i++) {
      const answered = await limiter.take();
      starts.push(clock);
      answered(); // answered at once
    }
    expect(starts.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(starts.slice(5, 10)).toEqual([1_050, 1_050, 1_050, 1_050, 1_050]);
    expect(starts.slice(10)).toEqual([2_100, 2_100]);
    for (let i = 5; i < starts.length; i++) {
      expect((starts[i] as number) - (starts[i - 5] as number)).toBeGreaterThanOrEqual(1_000);
    }
  });

  it('counts a token from the answer: requests released together after a stall still arrive a second apart', async () => {
    let clock = 0;
    const limiter = createRateLimiter({
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    // Five requests leave at 0 but, the event loop being stuck, arrive and are answered only at 900 ms.
    const first = await Promise.all(Array.from({ length: 5 }, () => limiter.take()));
    clock = 900;
    for (const answered of first) answered();
    // Counting from when they were taken, the next five could leave at 1,050 ms and land 150 ms after
    // the first five: ten in one second at Airtable. Counted from their answers, they wait.
    const next = await limiter.take();
    expect(clock).toBe(1_950);
    next();
  });

  it('keeps a sixth request waiting while five are still on their way', async () => {
    let clock = 0;
    const limiter = createRateLimiter({
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    const first = await Promise.all(Array.from({ length: 5 }, () => limiter.take()));
    let sixthStarted = false;
    const sixth = limiter.take().then((answered) => {
      sixthStarted = true;
      return answered;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sixthStarted).toBe(false);
    clock = 3_000; // a slow answer
    first[0]?.();
    (await sixth)();
    expect(clock).toBe(4_050);
  });
});
