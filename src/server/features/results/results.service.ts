import type { Kysely } from 'kysely';
import { readElection } from '#server/core/election/election';
import { requireDepartmentAccess } from '#server/platform/access/access.service';
import { createVersionedCache, dataVersionOf } from '#server/platform/cache/cache';
import type { Database } from '#server/platform/db/schema';
import type { SessionUser } from '#server/platform/session/identity';
import { createSettingsRepository } from '#server/platform/settings/settings.repository';
import {
  type Breakdown,
  type Results,
  resultPercent,
  resultsSchema,
  TIMELINE_STEP_MINUTES,
  type Timeline,
} from '#shared/features/results/results';
import { dateInTimeZone } from '#shared/platform/format';
import { createResultsRepository } from './results.repository';

/** The allow-list of the Resultados page (admins see it too): the results, breakdown and downloads. */
export const RESULTS_DEPARTMENT = 'resultados';

export async function requireResultsAccess(db: Kysely<Database>, user: SessionUser | null): Promise<SessionUser> {
  await requireDepartmentAccess(db, user, RESULTS_DEPARTMENT);
  // requireDepartmentAccess throws for a visitor, so the user is known here.
  return user as SessionUser;
}

/** The totals of the page, from the counters: cost independent of the number of records. */
export async function readResults(db: Kysely<Database>, now: Date): Promise<Results> {
  const repo = createResultsRepository(db);
  const [candidates, ballots, settings] = await Promise.all([
    repo.candidateVotes(),
    repo.ballots(),
    createSettingsRepository(db).getAll(),
  ]);
  const denominator = settings.resultsDenominator;
  return {
    candidates: candidates.map((c) => ({
      code: c.code,
      name: c.name,
      colour: c.colour,
      photoUrl: c.photo_url,
      votes: c.votes,
      percent: resultPercent(c.votes, denominator),
    })),
    denominator,
    ballots,
    computedAt: now.toISOString(),
  };
}

/**
 * Keeps what `read` returns until the database changes. On SQLite the data version tells (this
 * process's writes at once, any other connection's within a millisecond: cache.ts), so the
 * answer is never stale, even right after a vote, and the readers between two changes share one read. On
 * PostgreSQL other instances write too and nothing cheap tells, so every call reads. `refresh` adapts
 * a kept value (its timestamp) before it is reused.
 */
export function untilDatabaseChanges<T>(
  db: Kysely<Database>,
  read: () => Promise<T>,
  refresh: (kept: T) => T = (kept) => kept,
): () => Promise<T> {
  const version = dataVersionOf(db);
  if (!version) return read;
  const kept = createVersionedCache<T>(version);
  return async () => refresh(await kept('', read));
}

const stampedNow =
  (clock: () => Date) =>
  <T extends { computedAt: string }>(kept: T): T => ({ ...kept, computedAt: clock().toISOString() });

/** The totals for the hot paths: the endpoint under load and the stream's poll. */
export const createResultsReader = (db: Kysely<Database>, clock: () => Date) =>
  untilDatabaseChanges(db, () => readResults(db, clock()), stampedNow(clock));

/**
 * The totals as GET /api/results sends them (sendSerialized): checked against the response schema and
 * written as JSON once per database change; each read only puts its own `computedAt` in front of
 * that text (decision 138: the whole answer's JSON.stringify was a thirtieth of each read).
 */
export function createResultsAnswer(db: Kysely<Database>, clock: () => Date): () => Promise<string> {
  const written = untilDatabaseChanges(db, async () => {
    const { computedAt: _, ...totals } = resultsSchema.parse(await readResults(db, clock()));
    // The members of the object, without its opening brace: never empty, the schema has more fields.
    return JSON.stringify(totals).slice(1);
  });
  return async () => `{"computedAt":${JSON.stringify(clock().toISOString())},${await written()}`;
}

/** The breakdown, read again only when something changed. */
export const createBreakdownReader = (db: Kysely<Database>, clock: () => Date) =>
  untilDatabaseChanges(db, () => readBreakdown(db, clock()), stampedNow(clock));

/** Per municipality: records, voted, validated (vote and three photos), percent complete, votes. */
export async function readBreakdown(db: Kysely<Database>, now: Date): Promise<Breakdown> {
  const repo = createResultsRepository(db);
  const [candidates, departments, counters] = await Promise.all([
    repo.listCandidates(),
    repo.departmentProgress(),
    repo.candidateCounters(),
  ]);
  const codeOf = new Map(candidates.map((c) => [c.id, c.code]));
  const votesBy = new Map<number, Record<string, number>>();
  for (const c of counters) {
    const code = codeOf.get(c.candidate_id);
    if (!code) continue;
    const row = votesBy.get(c.department_id) ?? {};
    row[code] = (row[code] ?? 0) + c.votes;
    votesBy.set(c.department_id, row);
  }
  return {
    candidates: candidates.map((c) => ({ code: c.code, name: c.name, colour: c.colour })),
    rows: departments.map((d) => {
      const votes = votesBy.get(d.id) ?? {};
      return {
        slug: d.slug,
        title: d.title,
        total: d.total,
        voted: d.voted,
        validated: d.validated,
        percentComplete: d.total > 0 ? (d.validated / d.total) * 100 : 0,
        reviewed: d.reviewed,
        votes: Object.fromEntries(candidates.map((c) => [c.code, votes[c.code] ?? 0])),
        photos: d.photos,
      };
    }),
    computedAt: now.toISOString(),
  };
}

export interface TotalsDifference {
  department: string;
  /**
   * What is counted: a candidate code, 'votados' (records voted whose vote counts, any status),
   * 'pendientes:…', 'fotos' (ballot photos received), or a candidate's votes in a quarter of an hour ('FA 2026-12-06T13:15', UTC).
   */
  counter: string;
  stored: number;
  recounted: number;
}

/**
 * Recounts every counter from the records and their ballots and compares it with what the votes,
 * inserts and photos kept: votes per candidate, records voted (results), the pending / voted /
 * validated progress (breakdown), the photos received (the map) and the votes per quarter of an hour
 * (timeline). An empty list means
 * they agree exactly.
 */
export async function checkTotals(db: Kysely<Database>): Promise<{
  differences: TotalsDifference[];
  ballots: number;
  votes: Record<string, number>;
}> {
  const repo = createResultsRepository(db);
  const [
    candidates,
    departments,
    storedVotes,
    recountedVotes,
    storedBallots,
    recountedBallots,
    storedProgress,
    recountedProgress,
    storedQuarters,
    recountedQuarters,
    storedPhotos,
    recountedPhotos,
  ] = await Promise.all([
    repo.listCandidates(),
    repo.listDepartments(),
    repo.candidateCounters(),
    repo.recountCandidateVotes(),
    repo.ballotCounters(),
    repo.recountBallots(),
    repo.progressCounters(),
    repo.recountProgress(),
    repo.quarterCounters(),
    repo.recountQuarterVotes(),
    repo.photoCounters(),
    repo.recountPhotos(),
  ]);
  const slugOf = new Map(departments.map((d) => [d.id, d.slug]));
  const codeOf = new Map(candidates.map((c) => [c.id, c.code]));
  const department = (id: number) => slugOf.get(id) ?? `#${id}`;

  // Every counter as "department|counter" -> value, stored and recounted.
  const stored = new Map<string, number>();
  const recounted = new Map<string, number>();
  const put = (map: Map<string, number>, departmentId: number, counter: string, value: number) =>
    map.set(`${department(departmentId)}|${counter}`, value);
  for (const [map, rows] of [
    [stored, storedVotes],
    [recounted, recountedVotes],
  ] as const) {
    for (const r of rows) put(map, r.department_id, codeOf.get(r.candidate_id) ?? `#${r.candidate_id}`, r.votes);
  }
  for (const [map, rows] of [
    [stored, storedBallots],
    [recounted, recountedBallots],
  ] as const) {
    for (const r of rows) put(map, r.department_id, 'votados', r.ballots);
  }
  for (const [map, rows] of [
    [stored, storedProgress],
    [recounted, recountedProgress],
  ] as const) {
    for (const r of rows) {
      put(map, r.department_id, 'pendientes:total', r.total);
      put(map, r.department_id, 'pendientes:votados', r.voted);
      put(map, r.department_id, 'pendientes:validados', r.validated);
      put(map, r.department_id, 'pendientes:revisados', r.reviewed);
    }
  }

  // The timeline's counters: a candidate's votes in a quarter of an hour, as 'FA 2026-12-06T13:15'.
  for (const [map, rows] of [
    [stored, storedQuarters],
    [recounted, recountedQuarters],
  ] as const) {
    for (const r of rows) {
      const code = codeOf.get(r.candidate_id) ?? `#${r.candidate_id}`;
      put(map, r.department_id, `${code} ${r.hour}:${String(r.quarter * 15).padStart(2, '0')}`, r.votes);
    }
  }

  // The photos received (decision 087).
  for (const [map, rows] of [
    [stored, storedPhotos],
    [recounted, recountedPhotos],
  ] as const) {
    for (const r of rows) put(map, r.department_id, 'fotos', r.photos);
  }

  const differences: TotalsDifference[] = [];
  for (const key of new Set([...stored.keys(), ...recounted.keys()])) {
    const s = stored.get(key) ?? 0;
    const r = recounted.get(key) ?? 0;
    if (s === r) continue;
    const [dep, counter] = key.split('|') as [string, string];
    differences.push({ department: dep, counter, stored: s, recounted: r });
  }
  differences.sort((a, b) => a.department.localeCompare(b.department) || a.counter.localeCompare(b.counter));

  const votes: Record<string, number> = Object.fromEntries(candidates.map((c) => [c.code, 0]));
  for (const r of recountedVotes) {
    const code = codeOf.get(r.candidate_id);
    if (code) votes[code] = (votes[code] ?? 0) + r.votes;
  }
  const ballots = recountedBallots.reduce((sum, r) => sum + r.ballots, 0);
  return { differences, ballots, votes };
}

const STEP_MS = TIMELINE_STEP_MINUTES * 60_000;

/**
 * When the campaign's day of `now` began. America/Caracas keeps UTC−4 all year (no summer time since
 * 2016), so its midnight is 04:00 UTC and its quarters of an hour are UTC's.
 */
export function caracasDayStart(now: Date): { day: string; startsAt: Date } {
  const day = dateInTimeZone(now);
  return { day, startsAt: new Date(`${day}T00:00:00-04:00`) };
}

/**
 * The day's votes per quarter of an hour, from its first vote up to now (quarters without votes
 * included, so the line shows a pause), and each candidate's running total. The quarters come from the
 * counters the vote keeps (quarter_totals, decision 083): a few hundred rows at most, however many votes
 * the day holds. The votes before the day are the counters' totals less the day's, so the last running
 * total is what the cards show. While the day is closed, it names when (the mark on the chart).
 */
export async function readTimeline(db: Kysely<Database>, now: Date): Promise<Timeline> {
  const repo = createResultsRepository(db);
  const { day, startsAt } = caracasDayStart(now);
  const quarterStart = Math.floor(now.getTime() / STEP_MS) * STEP_MS;
  const [candidates, quarters, settings, election] = await Promise.all([
    repo.candidateVotes(),
    repo.votesByQuarter(startsAt.toISOString().slice(0, 13)),
    createSettingsRepository(db).getAll(),
    readElection(db, now),
  ]);
  const codeOf = new Map(candidates.map((c) => [c.id, c.code]));
  const zero = () => Object.fromEntries(candidates.map((c) => [c.code, 0])) as Record<string, number>;
  const byStart = new Map<number, Record<string, number>>();
  for (const q of quarters) {
    const code = codeOf.get(q.candidate_id);
    // A quarter whose votes were all corrected away or voided is not a quarter with votes.
    if (!code || q.votes === 0) continue;
    const at = new Date(`${q.hour}:00:00.000Z`).getTime() + q.quarter * STEP_MS;
    const votes = byStart.get(at) ?? zero();
    votes[code] = (votes[code] ?? 0) + q.votes;
    byStart.set(at, votes);
  }
  const today = zero();
  for (const votes of byStart.values()) {
    for (const code of Object.keys(today)) today[code] = (today[code] ?? 0) + (votes[code] ?? 0);
  }
  const before = Object.fromEntries(candidates.map((c) => [c.code, Math.max(0, c.votes - (today[c.code] ?? 0))]));

  const buckets: Timeline['buckets'] = [];
  if (byStart.size > 0) {
    const first = Math.min(...byStart.keys());
    const last = Math.max(quarterStart, ...byStart.keys());
    const running = { ...before };
    for (let at = first; at <= last; at += STEP_MS) {
      const votes = byStart.get(at) ?? zero();
      for (const code of Object.keys(running)) running[code] = (running[code] ?? 0) + (votes[code] ?? 0);
      buckets.push({ at: new Date(at).toISOString(), votes: { ...votes }, running: { ...running } });
    }
  }
  return {
    candidates: candidates.map((c) => ({ code: c.code, name: c.name, colour: c.colour })),
    denominator: settings.resultsDenominator,
    day,
    dayStartsAt: startsAt.toISOString(),
    before,
    buckets,
    // The close's mark (decision 078's close), on the day it happened.
    closedAt: election.closedAt && election.closedAt >= startsAt.toISOString() ? election.closedAt : null,
    computedAt: now.toISOString(),
  };
}

/**
 * The timeline for the screens: on SQLite read again only when something changed (a few hundred
 * counter rows), whoever asks.
 */
export function createTimelineReader(db: Kysely<Database>, clock: () => Date): () => Promise<Timeline> {
  return untilDatabaseChanges(db, () => readTimeline(db, clock()), stampedNow(clock));
}
