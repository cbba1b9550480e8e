import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { Unavailable } from '#server/platform/http/errors';
import {
  type Breakdown,
  breakdownSchema,
  RESULTS_BREAKDOWN_EVENT,
  RESULTS_EVENT,
  RESULTS_HEARTBEAT_MS,
  RESULTS_PING_EVENT,
  RESULTS_TIMELINE_EVENT,
  type Results,
  resultsSchema,
  type Timeline,
  timelineSchema,
} from '#shared/features/results/results';
import { messages } from '#shared/platform/messages';
import { breakdownChange, timelineChange } from './results.changes';
import { listenToResultsChannel, type ResultsChannel } from './results.repository';

/** The map's and the timeline's figures, read with the totals and sent on the same stream (decision 087). */
export interface LiveViews {
  breakdown: () => Promise<Breakdown>;
  timeline: () => Promise<Timeline>;
}

export interface LiveResultsOptions {
  /** Reads the current totals (from the counters). */
  read: () => Promise<Results>;
  /** Reads the map's and the timeline's figures; without it the stream carries the totals only. */
  views?: LiveViews;
  /**
   * Where changes come from. 'postgres': LISTEN on the channel the counters' triggers notify, so a vote
   * through any instance reaches this one. 'poll': read the counters every `pollMs` (SQLite, one process).
   */
  source: { kind: 'postgres'; connectionString: string } | { kind: 'poll' };
  log: FastifyBaseLogger;
  /** SQLite: how often the counters are read while someone watches. */
  pollMs?: number;
  /** PostgreSQL: a read now and then anyway, in case a notice was lost while reconnecting. */
  safetyPollMs?: number;
  heartbeatMs?: number;
  /** A stream is ended after about this long; the browser reconnects at once, signed in again. */
  maxStreamMs?: number;
  /** How often the open streams' access is checked again (revoked, disabled, removed, signed out). */
  accessCheckMs?: number;
  /**
   * A number that moves whenever access may have changed (SQLite's access version: this process's
   * writes at once, any other connection's within a millisecond). With it, streams are checked only
   * when it moved, and always before new totals go out; without it (PostgreSQL), every `accessCheckMs`.
   */
  accessVersion?: () => number;
}

/** Who is behind a stream, checked again while it stays open. */
export interface StreamAccess {
  /** Streams with the same key (a session) share one check per round. */
  key: string;
  /** Whether the stream may go on; false ends it. */
  allowed(): Promise<boolean>;
}

interface Client {
  res: ServerResponse;
  /** A frame could not be written because the socket was full: once it drains, it gets everything whole. */
  behind?: boolean;
  timer: NodeJS.Timeout;
  access?: StreamAccess;
}

const RETRY_MS = 2_000;
const NOTIFY_BATCH_MS = 20;
const MAX_RECONNECT_MS = 10_000;

const sseFrame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** What the streams were last sent: what a change is worked out against, and what a new stream gets. */
interface Snapshot {
  key: string;
  results: Results;
  breakdown: Breakdown | undefined;
  timeline: Timeline | undefined;
  /** Every event whole: the first thing a stream gets, and what a stream that fell behind gets. */
  whole: string;
}

/**
 * One shared source of result changes per process, and the open event streams it feeds. Whatever the
 * number of people watching, the counters (and the map's and the timeline's figures) are read once per
 * change (or once per poll on SQLite), what changed is worked out and serialised once, and the same
 * string is written to every stream.
 */
export function createLiveResults(options: LiveResultsOptions) {
  const log = options.log;
  const pollMs = options.pollMs ?? 250;
  const safetyPollMs = options.safetyPollMs ?? 5_000;
  const heartbeatMs = options.heartbeatMs ?? RESULTS_HEARTBEAT_MS;
  const maxStreamMs = options.maxStreamMs ?? 10 * 60_000;
  const accessCheckMs = options.accessCheckMs ?? 500;
  const accessVersion = options.accessVersion;

  const clients = new Set<Client>();
  let snapshot: Snapshot | undefined;
  let reading: Promise<void> | undefined;
  let dirty = false;
  let closed = false;
  let started = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let notifyTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let channel: ResultsChannel | undefined;
  let reconnectDelay = 250;
  let connecting: Promise<void> | undefined;
  let accessTimer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;
  let checkedVersion = accessVersion?.() ?? 0;

  const changeKey = (r: Results) =>
    JSON.stringify([
      r.denominator,
      r.ballots,
      r.candidates.map((c) => [c.code, c.votes, c.name, c.colour, c.photoUrl]),
    ]);

  function send(client: Client, frame: string): void {
    if (client.behind) return;
    if (client.res.writableNeedDrain) {
      // A slow screen gets everything as it is once it catches up, never a growing queue of old changes.
      client.behind = true;
      return;
    }
    client.res.write(frame);
  }

  async function readOnce(): Promise<void> {
    const [rawResults, rawBreakdown, rawTimeline] = await Promise.all([
      options.read(),
      options.views?.breakdown(),
      options.views?.timeline(),
    ]);
    const results = resultsSchema.parse(rawResults);
    const breakdown = rawBreakdown && breakdownSchema.parse(rawBreakdown);
    const timeline = rawTimeline && timelineSchema.parse(rawTimeline);
    const key = changeKey(results);
    // Only what changed goes out: the totals, the map's rows, the timeline's quarters.
    let frame = snapshot?.key === key ? '' : sseFrame(RESULTS_EVENT, results);
    const map = breakdown && breakdownChange(snapshot?.breakdown, breakdown);
    if (map) frame += sseFrame(RESULTS_BREAKDOWN_EVENT, map);
    const line = timeline && timelineChange(snapshot?.timeline, timeline);
    if (line) frame += sseFrame(RESULTS_TIMELINE_EVENT, line);
    if (snapshot && frame === '') return;
    let whole = sseFrame(RESULTS_EVENT, results);
    if (breakdown) whole += sseFrame(RESULTS_BREAKDOWN_EVENT, { ...breakdown, whole: true });
    if (timeline) whole += sseFrame(RESULTS_TIMELINE_EVENT, { ...timeline, whole: true });
    snapshot = { key, results, breakdown, timeline, whole };
    // Access that changed since the last check is checked first: nobody gets totals after losing it.
    if (accessVersion && accessVersion() !== checkedVersion) await checkAccess();
    for (const client of clients) send(client, frame);
  }

  function end(client: Client): void {
    remove(client);
    client.res.end();
  }

  /**
   * Asks again, for every open stream, whether its person may still see the results, and ends the
   * streams of those who may not (access revoked, account disabled or removed, session ended). One
   * check per session however many streams it has; concurrent calls share one round.
   */
  function checkAccess(): Promise<void> {
    checking ??= (async () => {
      const version = accessVersion?.() ?? 0;
      const rounds = new Map<string, Promise<boolean>>();
      const verdicts = [...clients].map(async (client) => {
        const { access } = client;
        if (!access) return;
        let verdict = rounds.get(access.key);
        if (!verdict) {
          verdict = access.allowed();
          rounds.set(access.key, verdict);
        }
        try {
          if (!(await verdict)) end(client);
        } catch (error) {
          // The database cannot say (an outage): the stream stays; the next round asks again.
          log.warn({ err: error }, 'could not check a results stream’s access');
        }
      });
      await Promise.all(verdicts);
      checkedVersion = version;
    })().finally(() => {
      checking = undefined;
    });
    return checking;
  }

  /** Reads the counters; concurrent calls share one read, and a call during a read causes one more. */
  function refresh(): Promise<void> {
    if (closed) return Promise.resolve();
    if (reading) {
      dirty = true;
      return reading;
    }
    reading = (async () => {
      do {
        dirty = false;
        try {
          await readOnce();
        } catch (error) {
          log.warn({ err: error }, 'could not read the result counters');
        }
      } while (dirty && !closed);
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  }

  function onNotify(): void {
    if (notifyTimer || closed) return;
    // A burst of votes is read once.
    notifyTimer = setTimeout(() => {
      notifyTimer = undefined;
      void refresh();
    }, NOTIFY_BATCH_MS);
  }

  function setPoll(ms: number): void {
    if (pollTimer) clearInterval(pollTimer);
    pollTimer = setInterval(() => {
      if (clients.size > 0) void refresh();
    }, ms);
    pollTimer.unref();
  }

  async function connect(connectionString: string): Promise<void> {
    try {
      channel = await listenToResultsChannel(connectionString, { onNotify, onError: onChannelError });
      if (closed) {
        await channel.close();
        return;
      }
      reconnectDelay = 250;
      setPoll(safetyPollMs);
      // Notices sent while we were not listening are lost: read once now.
      void refresh();
    } catch (error) {
      onChannelError(error as Error);
    }
  }

  function onChannelError(error: Error): void {
    const lost = channel;
    channel = undefined;
    void lost?.close();
    if (closed || options.source.kind !== 'postgres') return;
    log.warn({ err: error }, 'results LISTEN connection lost; reconnecting');
    // Until it is back, read often enough to keep the one-second promise.
    setPoll(Math.min(1_000, safetyPollMs));
    if (reconnectTimer) return;
    const { connectionString } = options.source;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connecting = connect(connectionString);
    }, reconnectDelay);
    reconnectTimer.unref();
    reconnectDelay = Math.min(MAX_RECONNECT_MS, reconnectDelay * 2);
  }

  /** Starts the change source and the heartbeat with the first stream. */
  async function start(): Promise<void> {
    if (started) return connecting;
    started = true;
    heartbeatTimer = setInterval(() => {
      const frame = sseFrame(RESULTS_PING_EVENT, { at: new Date().toISOString() });
      for (const client of clients) if (!client.res.writableNeedDrain) client.res.write(frame);
    }, heartbeatMs);
    heartbeatTimer.unref();
    accessTimer = setInterval(() => {
      if (clients.size === 0 || (accessVersion && accessVersion() === checkedVersion)) return;
      void checkAccess();
    }, accessCheckMs);
    accessTimer.unref();
    if (options.source.kind === 'postgres') {
      connecting = connect(options.source.connectionString);
      await connecting;
    } else {
      setPoll(pollMs);
    }
  }

  function remove(client: Client): void {
    clearTimeout(client.timer);
    clients.delete(client);
  }

  return {
    /**
     * Answers a request with an event stream: the current totals (and views) at once, then every change. Reads
     * before taking over the reply, so a database failure is still an ordinary error answer.
     */
    async open(reply: FastifyReply, access?: StreamAccess): Promise<void> {
      await start();
      await refresh();
      if (!snapshot) throw Unavailable(messages.api.unavailableRead);
      reply.hijack();
      const res = reply.raw;
      // The headers other hooks set (security headers) go out too: the reply is ours from here.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) res.setHeader(name, value);
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        // Proxies (nginx) must pass each event on as it comes.
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      res.socket?.setNoDelay(true);
      res.socket?.setKeepAlive(true, 30_000);
      res.write(`retry: ${RETRY_MS}\n\n${snapshot.whole}`);
      const lifetime = maxStreamMs * (0.9 + Math.random() * 0.2);
      const client: Client = { res, timer: setTimeout(() => res.end(), lifetime), access };
      client.timer.unref();
      clients.add(client);
      res.on('drain', () => {
        if (!client.behind || !snapshot) return;
        client.behind = false;
        res.write(snapshot.whole);
      });
      res.on('close', () => remove(client));
      res.on('error', () => remove(client));
    },

    /** Reads the counters now (tests and callers that know something changed). */
    refresh,

    /** Checks every open stream's access now (tests and callers that know access changed). */
    checkAccess,

    get size(): number {
      return clients.size;
    },

    get current(): Results | undefined {
      return snapshot?.results;
    },

    /** Ends every stream (the browsers reconnect elsewhere or later) and stops listening. */
    async close(): Promise<void> {
      closed = true;
      for (const timer of [pollTimer, heartbeatTimer, notifyTimer, reconnectTimer, accessTimer]) {
        if (timer) clearTimeout(timer);
      }
      for (const client of clients) {
        clearTimeout(client.timer);
        client.res.end();
      }
      clients.clear();
      await connecting;
      await channel?.close();
      channel = undefined;
      await reading;
      await checking;
    },
  };
}
export type LiveResults = ReturnType<typeof createLiveResults>;
