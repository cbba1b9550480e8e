import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSse, votesIn } from '#server/testing/sse';
import {
  applyBreakdownChange,
  type Breakdown,
  type BreakdownChange,
  type Results,
  type Timeline,
} from '#shared/features/results/results';
import { createLiveResults, type LiveResultsOptions } from './results.live';

const timelineOf = (fa: number): Timeline => ({
  candidates: [],
  denominator: 100,
  day: '2026-12-06',
  dayStartsAt: '2026-12-06T04:00:00.000Z',
  before: {},
  buckets: [{ at: '2026-12-06T14:00:00.000Z', votes: { FA: fa }, running: { FA: fa } }],
  closedAt: null,
  computedAt: new Date().toISOString(),
});

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

/**
 * A bare server whose one route is the live stream, with a counter the test moves. The Cookie header
 * names who watches (`who=ana`); `state.allowed` says who may go on watching.
 */
async function liveServer(options: Partial<LiveResultsOptions> = {}) {
  const state = { fa: 0, reads: 0, allowed: new Map<string, boolean>(), checks: 0, failing: false };
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
  app.get('/stream', async (request, reply) => {
    const who = /who=(\w+)/.exec(request.headers.cookie ?? '')?.[1];
    await live.open(
      reply,
      who
        ? {
            key: who,
            async allowed() {
              state.checks += 1;
              if (state.failing) throw new Error('database is down');
              return state.allowed.get(who) ?? true;
            },
          }
        : undefined,
    );
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

  it('sends the map and the timeline with the totals: read once per change for every screen, whole at first, then what changed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const reads = { breakdown: 0, timeline: 0 };
    const view = { mara: 0 };
    const row = (slug: string, voted: number) => ({
      slug,
      title: slug,
      total: 10,
      voted,
      validated: 0,
      percentComplete: 0,
      reviewed: 0,
      votes: { FA: voted },
      photos: 0,
    });
    const { state, url } = await liveServer({
      pollMs: 100,
      views: {
        breakdown: async () => {
          reads.breakdown += 1;
          return {
            candidates: [],
            rows: [row('mara', view.mara), row('sucre', 1)],
            computedAt: new Date().toISOString(),
          };
        },
        timeline: async () => {
          reads.timeline += 1;
          const at = '2026-12-06T14:00:00.000Z';
          return {
            candidates: [],
            denominator: 100,
            day: '2026-12-06',
            dayStartsAt: '2026-12-06T04:00:00.000Z',
            before: {},
            buckets: [{ at, votes: { FA: state.fa }, running: { FA: state.fa } }],
            closedAt: null,
            computedAt: new Date().toISOString(),
          };
        },
      },
    });
    const streams = await Promise.all(Array.from({ length: 30 }, () => openSse(url)));
    const first = await Promise.all(streams.map((s) => s.next((e) => e.event === 'linea')));
    expect(JSON.parse(first[0]!.data)).toMatchObject({ whole: true });
    expect(JSON.parse(streams[0]!.events.find((e) => e.event === 'avance')!.data)).toMatchObject({
      whole: true,
      rows: [{ slug: 'mara' }, { slug: 'sucre' }],
    });
    reads.breakdown = 0;
    reads.timeline = 0;
    state.fa = 1;
    view.mara = 1;
    await vi.advanceTimersByTimeAsync(100);
    const changed = await Promise.all(
      streams.map((s) => s.next((e) => e.event === 'avance' && !JSON.parse(e.data).whole)),
    );
    // Only the row that changed, to every screen, from one read.
    expect(JSON.parse(changed[0]!.data).rows).toEqual([row('mara', 1)]);
    await Promise.all(streams.map((s) => s.next((e) => e.event === 'linea' && !JSON.parse(e.data).whole)));
    expect(reads).toEqual({ breakdown: 1, timeline: 1 });
    // Nothing changed: nothing is sent.
    await vi.advanceTimersByTimeAsync(300);
    expect(streams[0]!.events.filter((e) => e.event === 'avance')).toHaveLength(2);
    for (const s of streams) s.close();
  });

  it('gives a screen that fell behind (its socket full) everything whole once it catches up, never a change it cannot apply', async () => {
    // Rows big enough that the changes (200 of 50 KB: 10 MB) fill the socket of a screen that does not
    // read, whatever the kernel's buffers; few of them, as every change compares every row.
    const padding = 'x'.repeat(50_000);
    // Each change moves one department only: a screen that skipped changes cannot make do with the last one.
    const voted = Array.from({ length: 4 }, () => 0);
    const breakdown = () => ({
      candidates: [],
      rows: voted.map((v, i) => ({
        slug: `d${i}`,
        title: `${padding}${i}`,
        total: 10,
        voted: v,
        validated: 0,
        percentComplete: 0,
        reviewed: 0,
        votes: {},
        photos: 0,
      })),
      computedAt: new Date().toISOString(),
    });
    const { live, url } = await liveServer({
      views: { breakdown: async () => breakdown(), timeline: async () => timelineOf(0) },
    });
    // A raw client that stops reading after the first write, then reads everything at the end, applying
    // every event it gets in order as a screen does (each block once, as it arrives: ~10 MB in all).
    let pending = '';
    let kept: Breakdown | undefined;
    const events: BreakdownChange[] = [];
    const take = (chunk: string) => {
      const blocks = (pending + chunk).split('\n\n');
      pending = blocks.pop() ?? '';
      for (const block of blocks) {
        if (!block.startsWith('event: avance')) continue;
        const change = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as BreakdownChange;
        events.push(change);
        kept = applyBreakdownChange(kept, change);
      }
    };
    const res = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(url, { headers: { accept: 'text/event-stream' } }, resolve),
    );
    res.setEncoding('utf8');
    await new Promise<void>((resolve) => res.once('data', (chunk: string) => resolve(take(chunk))));
    res.pause();
    for (let i = 1; i <= 200; i++) {
      voted[i % voted.length] = i;
      await live.refresh();
    }
    res.on("data", take);
    res.resume();
    // What the screen keeps ends as the server's figures.
    const expected = breakdown().rows.map((r) => r.voted);
    await vi.waitFor(() => expect(kept?.rows.map((r) => r.voted)).toEqual(expected), { timeout: 10_000 });
    // It skipped changes: fewer events than the 200 changes, the last of them whole.
    expect(events.length).toBeLessThan(201);
    expect(events.at(-1)).toMatchObject({ whole: true });
    res.destroy();
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

  it('ends the stream of someone who lost access before new totals go out, when the access version moves', async () => {
    let version = 0;
    // No timer in play: the check happens because the version moved, before the totals are sent.
    const { state, live, url } = await liveServer({ accessVersion: () => version, accessCheckMs: 3_600_000 });
    const ana = await openSse(url, 'who=ana');
    const bea = await openSse(url, 'who=bea');
    await Promise.all([ana, bea].map((s) => s.next((e) => e.event === 'resultados')));
    state.allowed.set('ana', false);
    version += 1;
    state.fa = 9;
    await live.refresh();
    await ana.ended;
    await bea.next((e) => votesIn(e, 'FA') === 9);
    expect(ana.events.filter((e) => votesIn(e, 'FA') === 9)).toEqual([]);
    expect(live.size).toBe(1);
    // Unchanged version: nothing to check again.
    const checks = state.checks;
    state.fa = 10;
    await live.refresh();
    expect(state.checks).toBe(checks);
    bea.close();
  });

  it('checks open streams every accessCheckMs where there is no version (PostgreSQL), once per session', async () => {
    const { state, live, url } = await liveServer({ accessCheckMs: 50 });
    const anas = await Promise.all([openSse(url, 'who=ana'), openSse(url, 'who=ana')]);
    const bea = await openSse(url, 'who=bea');
    await Promise.all([...anas, bea].map((s) => s.next((e) => e.event === 'resultados')));
    state.checks = 0;
    await live.checkAccess();
    expect(state.checks).toBe(2);
    state.allowed.set('ana', false);
    // Ended by the timer, not by anything the test calls.
    await Promise.all(anas.map((s) => s.ended));
    expect(live.size).toBe(1);
    bea.close();
  });

  it('keeps a stream open when its access cannot be checked (the database is down), and asks again', async () => {
    const { state, live, url } = await liveServer({ accessCheckMs: 3_600_000 });
    const ana = await openSse(url, 'who=ana');
    await ana.next((e) => e.event === 'resultados');
    state.failing = true;
    await live.checkAccess();
    expect(live.size).toBe(1);
    state.failing = false;
    state.allowed.set('ana', false);
    await live.checkAccess();
    await ana.ended;
    expect(live.size).toBe(0);
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
