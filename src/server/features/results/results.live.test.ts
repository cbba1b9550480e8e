import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSse, votesIn } from '#server/testing/sse';
import type { Results } from '#shared/features/results/results';
import { createLiveResults, type LiveResultsOptions } from './results.live';

const results = (fa: number): Results => ({
  candidates: [
    { code: 'FA', name: 'Fernando Álvarez', colour: '#1D4ED8', photoUrl: '/candidatos/fa.svg', votes: fa, percent: fa },
  ],
  denominator: 100,
  ballots: fa,
  computedAt: new Date().toISOString(),
});

let servers: FastifyInstance[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const s of servers) await s.close();
  servers = [];
});

/** A bare server whose one route is the live stream, with a counter the test moves. */
async function liveServer(options: Partial<LiveResultsOptions> = {}) {
  const state = { fa: 0, reads: 0 };
  const app = Fastify();
  const live = createLiveResults({
    read: async () => {
      state.reads += 1;
      return results(state.fa);
    },
    source: { kind: 'poll' },
    log: app.log,
    ...options,
  });
  app.addHook('preClose', async () => live.close());
  app.get('/stream', async (_request, reply) => {
    await live.open(reply);
    return reply;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(app);
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/stream`;
  return { state, live, url };
}

describe('live results hub', () => {
  it('reads the counters once per poll whatever the number of screens, and not at all when nobody watches', async () => {
    // The hub's intervals run on fake time (the poll, the heartbeat); the streams are real connections.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { state, live, url } = await liveServer({ pollMs: 100 });
    const streams = await Promise.all(Array.from({ length: 30 }, () => openSse(url)));
    await Promise.all(streams.map((s) => s.next((e) => e.event === 'resultados')));
    state.reads = 0;
    state.fa = 7;
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(streams.map((s) => s.next((e) => votesIn(e, 'FA') === 7)));
    // One read for all thirty streams, then one per 100 ms.
    expect(state.reads).toBe(1);
    await vi.advanceTimersByTimeAsync(400);
    expect(state.reads).toBe(5);
    // Unchanged totals are not sent again.
    expect(streams[0]!.events.filter((e) => e.event === 'resultados')).toHaveLength(2);

    for (const s of streams) s.close();
    await vi.waitFor(() => expect(live.size).toBe(0));
    const idle = state.reads;
    await vi.advanceTimersByTimeAsync(400);
    expect(state.reads).toBe(idle);
  });

  it('sends a heartbeat event so a dead connection shows', async () => {
    const { url } = await liveServer({ heartbeatMs: 80 });
    const stream = await openSse(url);
    await stream.next((e) => e.event === 'ping', 1_000);
    const ping = await stream.next(
      (e) => e.event === 'ping' && stream.events.filter((x) => x.event === 'ping').length >= 2,
      1_000,
    );
    expect(JSON.parse(ping.data)).toHaveProperty('at');
    stream.close();
  });

  it('ends a stream after its lifetime so the browser reconnects (and signs in again)', async () => {
    const { url } = await liveServer({ maxStreamMs: 200 });
    const stream = await openSse(url);
    const started = Date.now();
    await stream.ended;
    // 200 ms here against 10 minutes by default: 5 s tells the two apart on any machine.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers 503, not a stream, when the totals cannot be read', async () => {
    const { url } = await liveServer({
      read: async () => {
        throw new Error('database is down');
      },
    });
    const res = await fetch(url);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('tells the browser how soon to reconnect', async () => {
    const { url } = await liveServer();
    const raw = await fetch(url);
    const reader = raw.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toMatch(/^retry: \d+\n\n/);
    await reader.cancel();
  });
});
