import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Config } from '#server/platform/config/config';
import { fixture, multipart } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#server/testing/test-app';

let t: TestApp | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  t = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const TIMEOUT_MESSAGE =
  'La solicitud tardó demasiado en llegar y no se procesó: no se guardó nada. Revisa tu conexión e intenta de nuevo.';

async function listening(timeouts: Config['timeouts']): Promise<{ t: TestApp; port: number }> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-timeouts-'));
  t = await createTestApp({ dataDir, timeouts });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, port: (t.app.server.address() as net.AddressInfo).port };
}

interface RawExchange {
  socket: net.Socket;
  /** Everything the server sent, once it closed the connection. */
  closed: Promise<string>;
}

/** Opens a connection and sends a request's head; the body is the test's to send, or not. */
async function rawRequest(port: number, head: string[]): Promise<RawExchange> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  socket.on('error', () => {});
  // Generous: the limits under test are a fraction of a second; only a server that never closes hits this.
  const closed = new Promise<string>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`the server kept the connection open: ${received}`)), 10_000);
    socket.once('close', () => {
      clearTimeout(guard);
      resolve(received);
    });
  });
  socket.write([...head, '', ''].join('\r\n'));
  return { socket, closed };
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { message: string };

const jsonHead = (length: number) => [
  'POST /api/auth/login HTTP/1.1',
  'Host: 127.0.0.1',
  `Origin: ${TEST_ORIGIN}`,
  'Content-Type: application/json',
  `Content-Length: ${length}`,
];

describe('request timeouts', () => {
  it('answers 408 and closes the connection when a JSON body never arrives', async () => {
    const { port } = await listening({ bodyMs: 200, requestMs: 600_000 });
    const { closed } = await rawRequest(port, jsonHead(60));
    const answer = await closed;
    expect(statusOf(answer)).toBe(408);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(bodyOf(answer).message).toBe(TIMEOUT_MESSAGE);
  });

  it('does the same when the body trickles in a byte at a time', async () => {
    const { port } = await listening({ bodyMs: 300, requestMs: 600_000 });
    const body = JSON.stringify({ email: 'nadie@comando.test', password: 'x'.repeat(30) });
    const { socket, closed } = await rawRequest(port, jsonHead(body.length));
    let sent = 0;
    const trickle = setInterval(() => {
      if (sent < body.length && !socket.destroyed) socket.write(body[sent++] ?? '');
    }, 50);
    const answer = await closed.finally(() => clearInterval(trickle));
    expect(sent).toBeLessThan(body.length);
    expect(statusOf(answer)).toBe(408);
    expect(bodyOf(answer).message).toBe(TIMEOUT_MESSAGE);
  });

  it('leaves a body that arrives in time alone', async () => {
    const { t } = await listening({ bodyMs: 5_000, requestMs: 600_000 });
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nadie@comando.test', password: 'clave-incorrecta-123' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('lets an upload pause longer than the body limit (uploads have their idle timer)', async () => {
    const { t, port } = await listening({ bodyMs: 200, requestMs: 600_000 });
    const people = await signInPeople(t);
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const body = multipart({ data: fixture('ballot.jpg'), filename: 'a.jpg', contentType: 'image/jpeg' });
    const { socket, closed } = await rawRequest(port, [
      `POST /api/validation/${SLUG_A}/records/${id}/photos/gobernador HTTP/1.1`,
      'Host: 127.0.0.1',
      `Origin: ${TEST_ORIGIN}`,
      `Cookie: ${people.validatorA}`,
      `Content-Type: ${body.headers['content-type']}`,
      `Content-Length: ${body.payload.length}`,
      'Connection: close',
    ]);
    socket.write(body.payload.subarray(0, 2000));
    // Twice the body limit (a slower machine only makes the pause longer).
    await new Promise((resolve) => setTimeout(resolve, 400));
    socket.write(body.payload.subarray(2000));
    const answer = await closed;
    expect(statusOf(answer)).toBe(201);
  });

  it('ends any request, uploads included, that has not arrived whole within the request limit', async () => {
    const { t, port } = await listening({ bodyMs: 60_000, requestMs: 400 });
    const people = await signInPeople(t);
    const [id] = (await addRecords(t, SLUG_A, 1)) as [number];
    const body = multipart({ data: fixture('ballot.jpg'), filename: 'a.jpg', contentType: 'image/jpeg' });
    const { socket, closed } = await rawRequest(port, [
      `POST /api/validation/${SLUG_A}/records/${id}/photos/gobernador HTTP/1.1`,
      'Host: 127.0.0.1',
      `Origin: ${TEST_ORIGIN}`,
      `Cookie: ${people.validatorA}`,
      `Content-Type: ${body.headers['content-type']}`,
      `Content-Length: ${body.payload.length}`,
    ]);
    // A byte every 50 ms: never idle long enough for the upload's own timer.
    let sent = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(body.payload.subarray(sent, ++sent));
    }, 50);
    const answer = await closed.finally(() => clearInterval(trickle));
    expect(sent).toBeLessThan(body.payload.length);
    expect(statusOf(answer)).toBe(408);
    expect(bodyOf(answer).message).toBe(TIMEOUT_MESSAGE);
  });
});

/**
 * A body the server refuses before reading it (too large) ends its request at once. Whatever the
 * request started (the body's deadline) must end with it: a timer left behind that later destroys
 * a stream nobody reads threw an unhandled 'error' and ended the whole process.
 */
describe('a body refused before it is read', () => {
  /** Errors that would have ended the process had the test runner not caught them. */
  function watchUncaught() {
    const seen: unknown[] = [];
    const listener = (error: unknown) => seen.push(error);
    process.on('uncaughtException', listener);
    return { seen, stop: () => process.off('uncaughtException', listener) };
  }

  it('leaves no deadline running: 45 s later the server still answers (fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comando-timeouts-'));
    t = await createTestApp({ dataDir, timeouts: { bodyMs: 30_000, requestMs: 600_000 } });
    const uncaught = watchUncaught();
    // The database's own timers (PostgreSQL's pool keeps one per idle connection) are not the request's.
    const before = vi.getTimerCount();
    try {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-length': '2000000' },
        payload: 'x',
      });
      expect(res.statusCode).toBe(413);
      expect(vi.getTimerCount()).toBe(before);
      await vi.advanceTimersByTimeAsync(45_000);
      expect(uncaught.seen).toEqual([]);
      expect((await t.request({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      uncaught.stop();
    }
  });

  it('over a real socket: the 413, then the server still answers after the body limit has passed', async () => {
    const { port } = await listening({ bodyMs: 100, requestMs: 600_000 });
    const uncaught = watchUncaught();
    try {
      const { socket, closed } = await rawRequest(port, [
        'OPTIONS /api/auth/login HTTP/1.1',
        'Host: 127.0.0.1',
        'Content-Type: application/json',
        'Content-Length: 2000000',
        'Connection: close',
      ]);
      socket.write('{"a":');
      expect(statusOf(await closed)).toBe(413);
      // Three body limits: a deadline still running would have fired by then (a slower machine only
      // makes the wait longer, never the check wrong).
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(uncaught.seen).toEqual([]);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      uncaught.stop();
    }
  });
});
