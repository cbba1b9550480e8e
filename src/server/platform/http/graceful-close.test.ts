import { once } from 'node:events';
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#server/testing/test-app';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A client on one real keep-alive connection, reading HTTP/1.1 answers (with Content-Length) by hand. */
function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = Buffer.alloc(0);
  let ended = false;
  const errors: Error[] = [];
  const waiting: (() => void)[] = [];
  const wake = () => {
    for (const w of waiting.splice(0)) w();
  };
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake();
  });
  socket.on('end', () => {
    ended = true;
    wake();
  });
  socket.on('error', (error) => {
    errors.push(error);
    wake();
  });
  const changed = () => new Promise<void>((resolve) => waiting.push(resolve));

  return {
    socket,
    errors,
    connected: once(socket, 'connect'),
    write: (text: string) => socket.write(text),
    /** The next whole answer on the connection. */
    async answer(): Promise<RawAnswer> {
      for (;;) {
        const head = buffer.indexOf('\r\n\r\n');
        if (head >= 0) {
          const [statusLine = '', ...lines] = buffer.subarray(0, head).toString('latin1').split('\r\n');
          const headers = Object.fromEntries(
            lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
          );
          const length = Number(headers['content-length']);
          if (buffer.length >= head + 4 + length) {
            const body = buffer.subarray(head + 4, head + 4 + length).toString('utf8');
            buffer = buffer.subarray(head + 4 + length);
            return { status: Number(statusLine.split(' ')[1]), headers, body };
          }
        }
        if (ended || errors.length > 0) throw new Error(`la conexión terminó sin respuesta completa: ${errors[0]}`);
        await changed();
      }
    },
    /** Resolves once the server has closed the connection (FIN), rejects on a reset. */
    async closedByServer(): Promise<void> {
      while (!ended && errors.length === 0) await changed();
      if (errors.length > 0) throw errors[0];
    },
  };
}

it('closes without cutting anyone off: requests in flight get their whole answer with Connection: close, idle connections end cleanly', async () => {
  t = await createTestApp();
  const people = await signInPeople(t);
  const [recordId] = (await addRecords(t, SLUG_A, 1)) as [number];
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  const arrived: string[] = [];
  t.app.server.on('request', (req) => arrived.push(`${req.method} ${req.url}`));

  // An idle keep-alive connection: one answer, then nothing.
  const idle = rawClient(port);
  await idle.connected;
  idle.write('GET /api/health HTTP/1.1\r\nHost: comando.test\r\n\r\n');
  const first = await idle.answer();
  expect(first.status).toBe(200);
  expect(first.headers.connection).toBe('keep-alive');

  // A vote in flight: its headers and half its body have arrived.
  const vote = JSON.stringify({ candidates: ['FA'] });
  const voting = rawClient(port);
  await voting.connected;
  voting.write(
    `POST /api/validation/${SLUG_A}/records/${recordId}/vote HTTP/1.1\r\nHost: comando.test\r\n` +
      `Origin: ${TEST_ORIGIN}\r\nCookie: ${people.validatorA}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(vote)}\r\n\r\n${vote.slice(0, 5)}`,
  );
  // A request whose headers are still arriving.
  const late = rawClient(port);
  await late.connected;
  late.write('GET /api/health HTTP/1.1\r\nHost: comando.test\r\n');
  while (!arrived.some((r) => r.startsWith('POST'))) await new Promise((resolve) => setImmediate(resolve));

  // SIGTERM's work (server.ts): close the app, without waiting yet.
  const closing = t.app.close();
  await idle.closedByServer();
  expect(idle.errors).toEqual([]);

  voting.write(vote.slice(5));
  const voted = await voting.answer();
  expect(voted.status).toBe(201);
  expect(voted.headers.connection).toBe('close');
  expect(JSON.parse(voted.body)).toMatchObject({ record: { id: recordId } });
  await voting.closedByServer();

  // Served, not refused: the database is open until the last answer is out.
  late.write('\r\n');
  const served = await late.answer();
  expect(served.status).toBe(200);
  expect(served.headers.connection).toBe('close');
  expect(JSON.parse(served.body)).toEqual({ status: 'ok' });
  await late.closedByServer();

  await closing;
  expect([voting.errors, late.errors]).toEqual([[], []]);
  // Nobody connects any more.
  const refused = net.connect(port, '127.0.0.1');
  const [error] = (await once(refused, 'error')) as [NodeJS.ErrnoException];
  expect(error.code).toBe('ECONNREFUSED');
});

it('does not wait at the close for a connection on which nothing has arrived (a preconnect, a spare socket)', async () => {
  t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(address).port);
  const accepted = once(t.app.server, 'connection');
  const spare = rawClient(port);
  await spare.connected;
  await accepted;

  await t.app.close();
  await spare.closedByServer();
  expect(spare.errors).toEqual([]);
});
