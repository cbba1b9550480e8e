// A local server that speaks the documented Airtable REST contract (v0) for one base, as real Airtable
// answers it and as the official `airtable` client calls it (tests/support/official-clients.test.ts):
//   GET   /v0/{baseId}/{table}?pageSize=&offset=&filterByFormula=&maxRecords=&fields[]=&sort[0][field]=&sort[0][direction]=
//         (or POST /v0/{baseId}/{table}/listRecords with the same as JSON) → { records: [{ id, createdTime, fields }], offset? }
//   GET   /v0/{baseId}/{table}/{recordId}  → the record (404 NOT_FOUND for an unknown id)
//   POST  /v0/{baseId}/{table}  { records: [{ fields }] } (at most 10) → { records }, or { fields } → the record
//   PATCH /v0/{baseId}/{table}  { records: [{ id, fields }] } (at most 10) → { records }; PATCH or PUT
//         /v0/{baseId}/{table}/{recordId} { fields } → the record; DELETE …/{recordId} → { deleted, id }
// with `Authorization: Bearer <token>`; 401 AUTHENTICATION_REQUIRED for a bad token; for an unknown table or
// base, 403 INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND with a personal access token (`pat…`, what Airtable
// answers since API keys were retired) or 404 TABLE_NOT_FOUND / NOT_FOUND with a legacy key; 422
// INVALID_FILTER_BY_FORMULA, INVALID_RECORDS (more than 10, or none), ROW_DOES_NOT_EXIST, UNKNOWN_FIELD_NAME
// (also in `fields` and `sort`), INVALID_VALUE_FOR_COLUMN; and 429 RATE_LIMIT_REACHED once a base gets more
// than 5 requests in a second, after which it answers 429 for 30 seconds (shorter in tests). It also serves
// attachment files (/files/…), outside the rate limit, as Airtable's CDN does. Switches for outages
// (connection cut, 503), slow answers and malformed JSON. Every request's arrival time is kept so tests can
// check the pace.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAirtableRecord {
  id: string;
  createdTime: string;
  fields: Record<string, unknown>;
}

/** ok; down: the connection is cut; error: 503; slow: answers after `slowMs`; malformed: broken JSON. */
export type AirtableMode = 'ok' | 'down' | 'error' | 'slow' | 'malformed';

export interface AirtableRequestLog {
  /** Arrival, in milliseconds (performance.now() of this process, or the `now` it was given). */
  at: number;
  method: string;
  /** Path and query, as received. */
  url: string;
  table: string | null;
  status: number;
}

export interface AirtablePatchLog {
  at: number;
  table: string;
  records: { id: string; fields: Record<string, unknown> }[];
}

export interface AirtableContractServer {
  url: string;
  baseId: string;
  token: string;
  mode: AirtableMode;
  slowMs: number;
  /** How long a base keeps answering 429 after it went over the limit (Airtable: 30 s). */
  penaltyMs: number;
  /** Requests a base may get in one second (Airtable: 5). Only tests about shapes, not pace, raise it. */
  rateLimit: number;
  /** Modes for the next requests, one each, before `mode` applies again. */
  script(modes: AirtableMode[]): void;
  /** The table's current rows (PATCHes applied). */
  table(name: string): FakeAirtableRecord[];
  setTable(name: string, records: FakeAirtableRecord[], options?: { attachmentFields?: string[] }): void;
  /** Every API request (not file downloads), in arrival order. */
  requests: AirtableRequestLog[];
  /** Every accepted PATCH. */
  patches: AirtablePatchLog[];
  /** Serves `data` at a new URL under /files/ (an attachment or a shared photo link). */
  addFile(name: string, data: Buffer, contentType?: string): string;
  fileRequests: string[];
  /** The most requests that arrived within any `windowMs` (accepted or not). */
  maxRequestsInWindow(windowMs?: number): number;
  close(): Promise<void>;
}

const RECORDS_FIELDS = [
  'Comunidades',
  'Nombre',
  'UBCH',
  'Telefono',
  'status',
  'rephrase',
  'voto',
  'gobernador',
  'an',
  'clez',
  'date',
  'sent',
  'isToday',
];
const AGENDA_FIELDS = ['fecha', 'hora_24h', 'descripcion', 'lugar', 'date'];

/** An Airtable-looking record id: 'rec' and 14 letters or digits, the same for the same seed. */
export function airtableId(seed: number, prefix = 'rec'): string {
  return `${prefix}${seed.toString(36).padStart(14, '0').slice(-14)}`;
}

export interface MakeRecordsOptions {
  slugs?: string[];
  /** Every how many records one comes voted (0: none). */
  votedEvery?: number;
  /** First seed for the ids (several sets in one base must not collide). */
  start?: number;
}

/** `n` rows of the records table (Zulia) as the original app kept them: all pending. */
export function makeAirtableRecords(n: number, options: MakeRecordsOptions = {}): FakeAirtableRecord[] {
  const slugs = options.slugs ?? ['cabimas', 'lagunillas', 'mara', 'san-francisco'];
  const ballots = ['FA', 'LC', 'NR', 'FA,LC', 'LC,NR'];
  const start = options.start ?? 1;
  return Array.from({ length: n }, (_, i) => {
    const seed = start + i;
    const fields: Record<string, unknown> = {
      Comunidades: `Comunidad ${seed % 97}`,
      Nombre: `Persona ${seed}`,
      UBCH: `UBCH ${seed % 31}`,
      Telefono: `0414-${String(1_000_000 + seed).slice(-7)}`,
      status: 'pendiente',
      rephrase: slugs[i % slugs.length],
      date: '2026-11-20',
    };
    if (options.votedEvery && i % options.votedEvery === 0) fields.voto = ballots[i % ballots.length];
    return { id: airtableId(seed), createdTime: '2026-11-01T12:00:00.000Z', fields };
  });
}

/** `n` rows of the agenda table over a few days. */
export function makeAirtableAgenda(n: number, start = 1): FakeAirtableRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: airtableId(start + i, 'rec'),
    createdTime: '2026-11-01T12:00:00.000Z',
    fields: {
      fecha: `2026-11-${String(20 + (i % 5)).padStart(2, '0')}`,
      hora_24h: `${String(8 + (i % 10)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
      descripcion: `Evento ${start + i}`,
      lugar: `Lugar ${start + i}`,
    },
  }));
}

// --- a small reader of Airtable formulas ----------------------------------------------------------------

class FormulaError extends Error {}
type Value = string | number | boolean;

const asText = (v: Value) => (typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
const truthy = (v: Value) => (typeof v === 'string' ? v !== '' : Boolean(v));
const fieldValue = (value: unknown): Value => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  return JSON.stringify(value);
};

/**
 * Parses the part of Airtable's formula language the tests need ({Field}, 'text', numbers, =, !=, <, >,
 * <=, >=, &, AND, OR, NOT, BLANK, TRUE, FALSE, LOWER, UPPER, LEN) into a predicate; anything else, or a
 * field the table does not have, is an invalid formula.
 */
function compileFormula(source: string, fields: Set<string>): (row: Record<string, unknown>) => boolean {
  let pos = 0;
  const skip = () => {
    while (pos < source.length && /\s/.test(source[pos] as string)) pos++;
  };
  const peek = (s: string) => {
    skip();
    return source.startsWith(s, pos);
  };
  const expect = (s: string) => {
    if (!peek(s)) throw new FormulaError(`se esperaba ${s}`);
    pos += s.length;
  };
  type Node = (row: Record<string, unknown>) => Value;

  const primary = (): Node => {
    skip();
    const ch = source[pos];
    if (ch === '{') {
      const end = source.indexOf('}', pos);
      if (end < 0) throw new FormulaError('llave sin cerrar');
      const name = source.slice(pos + 1, end);
      pos = end + 1;
      if (!fields.has(name)) throw new FormulaError(`Unknown field names: ${name}`);
      return (row) => fieldValue(row[name]);
    }
    if (ch === "'" || ch === '"') {
      let out = '';
      pos++;
      while (pos < source.length && source[pos] !== ch) {
        if (source[pos] === '\\') pos++;
        out += source[pos] ?? '';
        pos++;
      }
      if (source[pos] !== ch) throw new FormulaError('texto sin cerrar');
      pos++;
      return () => out;
    }
    if (ch === '(') {
      pos++;
      const inner = comparison();
      expect(')');
      return inner;
    }
    const num = /^-?\d+(\.\d+)?/.exec(source.slice(pos));
    if (num) {
      pos += num[0].length;
      const n = Number(num[0]);
      return () => n;
    }
    const ident = /^[A-Z_]+/.exec(source.slice(pos));
    if (!ident) throw new FormulaError('expresión inválida');
    pos += ident[0].length;
    expect('(');
    const args: Node[] = [];
    if (!peek(')')) {
      args.push(comparison());
      while (peek(',')) {
        pos++;
        args.push(comparison());
      }
    }
    expect(')');
    const name = ident[0];
    const one = () => {
      if (args.length !== 1) throw new FormulaError(`${name} lleva un argumento`);
      return args[0] as Node;
    };
    switch (name) {
      case 'AND':
        return (row) => args.every((a) => truthy(a(row)));
      case 'OR':
        return (row) => args.some((a) => truthy(a(row)));
      case 'NOT': {
        const a = one();
        return (row) => !truthy(a(row));
      }
      case 'BLANK':
        return () => '';
      case 'TRUE':
        return () => true;
      case 'FALSE':
        return () => false;
      case 'LOWER': {
        const a = one();
        return (row) => asText(a(row)).toLowerCase();
      }
      case 'UPPER': {
        const a = one();
        return (row) => asText(a(row)).toUpperCase();
      }
      case 'LEN': {
        const a = one();
        return (row) => asText(a(row)).length;
      }
      default:
        throw new FormulaError(`función desconocida ${name}`);
    }
  };
  const concat = (): Node => {
    let left = primary();
    while (peek('&')) {
      pos++;
      const l = left;
      const r = primary();
      left = (row) => asText(l(row)) + asText(r(row));
    }
    return left;
  };
  const comparison = (): Node => {
    const left = concat();
    skip();
    const op = ['!=', '<=', '>=', '=', '<', '>'].find((o) => source.startsWith(o, pos));
    if (!op) return left;
    pos += op.length;
    const right = concat();
    return (row) => {
      const a = left(row);
      const b = right(row);
      const numeric = typeof a === 'number' && typeof b === 'number';
      const x = numeric ? a : asText(a);
      const y = numeric ? b : asText(b);
      switch (op) {
        case '=':
          return x === y;
        case '!=':
          return x !== y;
        case '<':
          return x < y;
        case '>':
          return x > y;
        case '<=':
          return x <= y;
        default:
          return x >= y;
      }
    };
  };

  const root = comparison();
  skip();
  if (pos !== source.length) throw new FormulaError('sobra texto al final');
  return (row) => truthy(root(row));
}

// --- list parameters, as Airtable reads them -------------------------------------------------------------

interface ListQuery {
  pageSize?: unknown;
  offset?: string;
  maxRecords?: unknown;
  filterByFormula?: string;
  fields?: unknown;
  sort?: { field?: unknown; direction?: unknown }[];
}

/**
 * The query string of a list request: `fields[]=A&fields[]=B` (also `fields[0]=A`), and
 * `sort[0][field]=A&sort[0][direction]=desc`, the way Airtable's clients encode them.
 */
function listQueryOf(params: URLSearchParams): ListQuery {
  const query: ListQuery = {};
  const fields: string[] = [];
  const sort: { field?: unknown; direction?: unknown }[] = [];
  for (const [key, value] of params) {
    if (key === 'pageSize' || key === 'maxRecords') query[key] = value;
    else if (key === 'offset' || key === 'filterByFormula') query[key] = value;
    else if (/^fields\[\d*\]$/.test(key)) fields.push(value);
    else {
      const match = /^sort\[(\d+)\]\[(field|direction)\]$/.exec(key);
      if (match) {
        const index = Number(match[1]);
        sort[index] ??= {};
        (sort[index] as Record<string, unknown>)[match[2] as string] = value;
      }
    }
  }
  if (fields.length > 0) query.fields = fields;
  if (sort.length > 0) query.sort = sort;
  return query;
}

const sortValue = (value: unknown): string | number => {
  if (typeof value === 'number') return value;
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/** Stable sort by each key in turn; empty cells first when ascending, as in Airtable's grid. */
function sortRows(rows: FakeAirtableRecord[], sort: { field: string; direction?: 'asc' | 'desc' }[]) {
  if (sort.length === 0) return rows;
  return [...rows].sort((a, b) => {
    for (const { field, direction } of sort) {
      const x = sortValue(a.fields[field]);
      const y = sortValue(b.fields[field]);
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'es');
      if (order !== 0) return direction === 'desc' ? -order : order;
    }
    return 0;
  });
}

/** Only the named fields (Airtable leaves out the others, and empty ones). */
function pickFields(fields: Record<string, unknown>, names: unknown): Record<string, unknown> {
  if (!Array.isArray(names)) return { ...fields };
  return Object.fromEntries(names.filter((n) => fields[n] !== undefined).map((n) => [n, fields[n]]));
}

// --- the server -----------------------------------------------------------------------------------------

interface TableState {
  records: FakeAirtableRecord[];
  fields: Set<string>;
  attachmentFields: Set<string>;
}

export interface StartOptions {
  token?: string;
  baseId?: string;
  /** Tables by name; the records table and the agenda table know the original app's fields. */
  tables?: Record<string, FakeAirtableRecord[]>;
  port?: number;
  /**
   * The clock arrivals are counted on (the rate limit, the penalty): performance.now() unless a test
   * gives the stand-in and the client's rate limiter one clock of their own.
   */
  now?: () => number;
}

export async function startAirtableContractServer(options: StartOptions = {}): Promise<AirtableContractServer> {
  const token = options.token ?? 'patPRUEBAS.token-de-prueba';
  const baseId = options.baseId ?? 'appPRUEBAS0000001';
  const now = options.now ?? (() => performance.now());
  const tables = new Map<string, TableState>();
  const files = new Map<string, { data: Buffer; contentType: string }>();
  const iterators = new Map<string, { table: string; rows: FakeAirtableRecord[]; next: number }>();
  const state = {
    mode: 'ok' as AirtableMode,
    slowMs: 10_000,
    penaltyMs: 30_000,
    rateLimit: 5,
    scripted: [] as AirtableMode[],
    blockedUntil: 0,
    requests: [] as AirtableRequestLog[],
    patches: [] as AirtablePatchLog[],
    fileRequests: [] as string[],
  };

  const setTable = (name: string, records: FakeAirtableRecord[], opts: { attachmentFields?: string[] } = {}) => {
    const known = name === 'agenda' ? AGENDA_FIELDS : RECORDS_FIELDS;
    const fields = new Set([...known, ...records.flatMap((r) => Object.keys(r.fields))]);
    tables.set(name, {
      records: records.map((r) => ({ ...r, fields: { ...r.fields } })),
      fields,
      attachmentFields: new Set(opts.attachmentFields ?? []),
    });
  };
  for (const [name, records] of Object.entries(options.tables ?? { Zulia: [], agenda: [] })) setTable(name, records);

  const server = http.createServer((req, res) => {
    const arrived = now();
    const url = new URL(req.url ?? '/', 'http://localhost');

    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      state.fileRequests.push(url.pathname + url.search);
      const file = files.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('Not found');
      }
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.data.length) });
      return res.end(file.data);
    }

    const mode = state.scripted.shift() ?? state.mode;
    if (mode === 'down') {
      req.socket.destroy();
      return;
    }

    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const tableName = parts[0] === 'v0' && (parts.length === 3 || parts.length === 4) ? (parts[2] as string) : null;
    const log: AirtableRequestLog = {
      at: arrived,
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      table: tableName,
      status: 0,
    };
    state.requests.push(log);

    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        log.status = status;
        const write = () => {
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
          res.end(typeof body === 'string' ? body : JSON.stringify(body));
        };
        if (mode === 'slow') {
          const timer = setTimeout(write, state.slowMs);
          res.on('close', () => clearTimeout(timer));
        } else write();
      };
      const fail = (status: number, type: string, message: string) => send(status, { error: { type, message } });

      if (mode === 'error') return fail(503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable');

      // More than five requests in the last second (rateLimit), or still serving the 30-second penalty: 429.
      const recent = state.requests.filter((r) => r.at > arrived - 1_000).length;
      if (arrived < state.blockedUntil || recent > state.rateLimit) {
        if (arrived >= state.blockedUntil) state.blockedUntil = arrived + state.penaltyMs;
        return send(429, {
          errors: [{ error: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded. Please try again later' }],
        });
      }

      if (req.headers.authorization !== `Bearer ${token}`) {
        return fail(401, 'AUTHENTICATION_REQUIRED', 'Authentication required');
      }
      if (parts[0] !== 'v0' || parts.length < 3 || parts.length > 4) return send(404, { error: 'NOT_FOUND' });
      const table = parts[1] === baseId ? tables.get(tableName as string) : undefined;
      if (!table) {
        // With a personal access token Airtable does not tell an unknown table (or base) from one the
        // token may not see; legacy API keys got a 404.
        if (token.startsWith('pat')) {
          return fail(
            403,
            'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND',
            'Invalid permissions, or the requested model was not found. Check that both your user and your token have the required permissions, and that the model names and/or ids are correct.',
          );
        }
        if (parts[1] !== baseId) return send(404, { error: 'NOT_FOUND' });
        return fail(404, 'TABLE_NOT_FOUND', `Could not find table ${tableName} in application ${baseId}`);
      }
      const sub = parts[3];
      const body = (): Record<string, unknown> | undefined => {
        try {
          const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
          return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
            ? (parsed as Record<string, unknown>)
            : undefined;
        } catch {
          return undefined;
        }
      };
      const invalidRequest = () =>
        fail(422, 'INVALID_REQUEST_UNKNOWN', 'Invalid request: parameter validation failed. Check your request data.');

      if (req.method === 'GET' && sub === undefined) return list(listQueryOf(url.searchParams));
      if (req.method === 'POST' && sub === 'listRecords') {
        const b = body();
        return b ? list(b) : invalidRequest();
      }
      if (sub !== undefined && sub !== 'listRecords') {
        const row = table.records.find((r) => r.id === sub);
        if (!row) return send(404, { error: 'NOT_FOUND' });
        if (req.method === 'GET') return send(200, row);
        if (req.method === 'DELETE') {
          table.records.splice(table.records.indexOf(row), 1);
          return send(200, { deleted: true, id: row.id });
        }
        if (req.method === 'PATCH' || req.method === 'PUT') {
          const b = body();
          if (!b?.fields || typeof b.fields !== 'object') return invalidRequest();
          const problem = checkFields(b.fields as Record<string, unknown>);
          if (problem) return problem();
          if (req.method === 'PUT') row.fields = {};
          Object.assign(row.fields, b.fields);
          state.patches.push({
            at: arrived,
            table: tableName as string,
            records: [{ id: row.id, fields: b.fields as Record<string, unknown> }],
          });
          return send(200, { ...row, fields: { ...row.fields } });
        }
        return send(404, { error: 'NOT_FOUND' });
      }
      if (req.method === 'POST') return create(body());
      if (req.method === 'PATCH') return update(body());
      return send(404, { error: 'NOT_FOUND' });

      /** A field name the table does not have, as Airtable answers it; undefined when all are known. */
      function checkFields(fields: Record<string, unknown>) {
        for (const [name, value] of Object.entries(fields)) {
          if (!table!.fields.has(name)) return () => fail(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
          if (table!.attachmentFields.has(name) && !Array.isArray(value)) {
            return () =>
              fail(
                422,
                'INVALID_VALUE_FOR_COLUMN',
                `Field "${name}" cannot accept the provided value: attachments must be an array`,
              );
          }
        }
        return undefined;
      }

      function list(query: ListQuery) {
        const pageSize = Number(query.pageSize ?? 100);
        const maxRecords = query.maxRecords === undefined ? undefined : Number(query.maxRecords);
        if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) return invalidRequest();
        if (maxRecords !== undefined && (!Number.isInteger(maxRecords) || maxRecords < 1)) return invalidRequest();
        const fields = query.fields;
        if (fields !== undefined && (!Array.isArray(fields) || fields.some((f) => typeof f !== 'string'))) {
          return invalidRequest();
        }
        for (const name of fields ?? []) {
          if (!table!.fields.has(name)) return fail(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
        }
        const sort = query.sort ?? [];
        for (const s of sort) {
          if (!s || typeof s.field !== 'string') return invalidRequest();
          if (!table!.fields.has(s.field)) return fail(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${s.field}"`);
          if (s.direction !== undefined && s.direction !== 'asc' && s.direction !== 'desc') return invalidRequest();
        }
        const offset = query.offset;
        let iterator: { table: string; rows: FakeAirtableRecord[]; next: number };
        if (offset) {
          const found = iterators.get(offset);
          if (!found || found.table !== tableName) {
            return fail(422, 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE', 'The iterator is not available');
          }
          iterators.delete(offset);
          iterator = found;
        } else {
          let rows = table!.records;
          const formula = query.filterByFormula;
          if (formula) {
            try {
              const keep = compileFormula(formula, table!.fields);
              rows = rows.filter((r) => keep(r.fields));
            } catch (error) {
              return fail(
                422,
                'INVALID_FILTER_BY_FORMULA',
                `The formula for filtering records is invalid: ${(error as Error).message}`,
              );
            }
          }
          rows = sortRows(rows, sort as { field: string; direction?: 'asc' | 'desc' }[]);
          if (maxRecords !== undefined) rows = rows.slice(0, maxRecords);
          iterator = {
            table: tableName as string,
            rows: rows.map((r) => ({ ...r, fields: pickFields(r.fields, fields) })),
            next: 0,
          };
        }
        const page = iterator.rows.slice(iterator.next, iterator.next + pageSize);
        iterator.next += page.length;
        let nextOffset: string | undefined;
        if (iterator.next < iterator.rows.length) {
          nextOffset = `itr${randomBytes(7).toString('hex')}/${page.at(-1)?.id ?? ''}`;
          iterators.set(nextOffset, iterator);
        }
        if (mode === 'malformed') return send(200, '{"records": [{"id": "rec1", "fields": {"Nombre": "rot');
        return send(200, { records: page, ...(nextOffset ? { offset: nextOffset } : {}) });
      }

      function create(b: Record<string, unknown> | undefined) {
        if (!b) return invalidRequest();
        // `{ fields }` creates one record and answers it; `{ records: [...] }` up to ten.
        const single = b.records === undefined && b.fields !== undefined;
        const items = single ? [{ fields: b.fields }] : b.records;
        if (!Array.isArray(items) || items.length === 0) {
          return fail(422, 'INVALID_RECORDS', '"records" must be an array of at least one record');
        }
        if (items.length > 10) {
          return fail(
            422,
            'INVALID_RECORDS',
            `A maximum of 10 records can be created per request but you have provided ${items.length}.`,
          );
        }
        for (const item of items as { fields?: unknown }[]) {
          if (!item || typeof item.fields !== 'object' || item.fields === null) return invalidRequest();
          const problem = checkFields(item.fields as Record<string, unknown>);
          if (problem) return problem();
        }
        const created = (items as { fields: Record<string, unknown> }[]).map((item) => {
          const row = {
            id: `rec${randomBytes(7).toString('hex')}`,
            createdTime: new Date().toISOString(),
            fields: { ...item.fields },
          };
          table!.records.push(row);
          return { ...row, fields: { ...row.fields } };
        });
        return send(200, single ? created[0] : { records: created });
      }

      function update(b: Record<string, unknown> | undefined) {
        if (!b) return invalidRequest();
        const records = b.records;
        if (!Array.isArray(records) || records.length === 0) {
          return fail(422, 'INVALID_RECORDS', '"records" must be an array of at least one record');
        }
        if (records.length > 10) {
          return fail(
            422,
            'INVALID_RECORDS',
            `A maximum of 10 records can be updated per request but you have provided ${records.length}.`,
          );
        }
        const changes: { row: FakeAirtableRecord; fields: Record<string, unknown> }[] = [];
        for (const item of records as { id?: unknown; fields?: unknown }[]) {
          const row = table!.records.find((r) => r.id === item.id);
          if (!row) return fail(422, 'ROW_DOES_NOT_EXIST', `Record ID ${String(item.id)} does not exist in this table`);
          if (!item.fields || typeof item.fields !== 'object') {
            return fail(422, 'INVALID_RECORDS', 'Each record must have "fields"');
          }
          const fields = item.fields as Record<string, unknown>;
          const problem = checkFields(fields);
          if (problem) return problem();
          changes.push({ row, fields });
        }
        for (const c of changes) Object.assign(c.row.fields, c.fields);
        state.patches.push({
          at: arrived,
          table: tableName as string,
          records: changes.map((c) => ({ id: c.row.id, fields: c.fields })),
        });
        if (mode === 'malformed') return send(200, '{"records": [');
        return send(200, { records: changes.map((c) => ({ ...c.row, fields: { ...c.row.fields } })) });
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${address.port}`;

  return {
    url: origin,
    baseId,
    token,
    get mode() {
      return state.mode;
    },
    set mode(m: AirtableMode) {
      state.mode = m;
    },
    get slowMs() {
      return state.slowMs;
    },
    set slowMs(ms: number) {
      state.slowMs = ms;
    },
    get penaltyMs() {
      return state.penaltyMs;
    },
    set penaltyMs(ms: number) {
      state.penaltyMs = ms;
    },
    get rateLimit() {
      return state.rateLimit;
    },
    set rateLimit(n: number) {
      state.rateLimit = n;
    },
    script(modes) {
      state.scripted.push(...modes);
    },
    table(name) {
      return tables.get(name)?.records ?? [];
    },
    setTable,
    get requests() {
      return state.requests;
    },
    get patches() {
      return state.patches;
    },
    addFile(name, data, contentType = 'image/jpeg') {
      files.set(name, { data, contentType });
      return `${origin}/files/${encodeURIComponent(name)}`;
    },
    get fileRequests() {
      return state.fileRequests;
    },
    maxRequestsInWindow(windowMs = 1_000) {
      const times = state.requests.map((r) => r.at).sort((a, b) => a - b);
      let best = 0;
      let first = 0;
      for (let last = 0; last < times.length; last++) {
        while ((times[last] as number) - (times[first] as number) >= windowMs) first++;
        best = Math.max(best, last - first + 1);
      }
      return best;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// `tsx tests/support/airtable-contract-server.ts <port> <records>`: run it on its own (manual checks).
if (process.argv[1]?.endsWith('airtable-contract-server.ts')) {
  const port = Number(process.argv[2] ?? 4314);
  const n = Number(process.argv[3] ?? 2_000);
  const server = await startAirtableContractServer({
    port,
    tables: { Zulia: makeAirtableRecords(n, { votedEvery: 7 }), agenda: makeAirtableAgenda(20) },
  });
  console.log(`Airtable de prueba con ${n} registros en ${server.url} (base ${server.baseId}, token ${server.token})`);
}
