import type { Kysely } from 'kysely';
import { type Breakdown, type Results, resultPercent } from '../../../shared/results';
import type { Database } from '../../db/schema';
import type { SessionUser } from '../../plugins/auth';
import { requireDepartmentAccess } from '../access/access.service';
import { createSettingsRepository } from '../site/settings.repository';
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

/** Per municipality: records, voted, validated (vote and three photos), percent complete, votes. */
export async function readBreakdown(db: Kysely<Database>, now: Date): Promise<Breakdown> {
  const repo = createResultsRepository(db);
  const [candidates, departments, counters, ballots] = await Promise.all([
    repo.listCandidates(),
    repo.departmentProgress(),
    repo.candidateCounters(),
    repo.ballotCounters(),
  ]);
  const codeOf = new Map(candidates.map((c) => [c.id, c.code]));
  const votedBy = new Map(ballots.map((b) => [b.department_id, b.ballots]));
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
        voted: votedBy.get(d.id) ?? 0,
        validated: d.validated,
        percentComplete: d.total > 0 ? (d.validated / d.total) * 100 : 0,
        votes: Object.fromEntries(candidates.map((c) => [c.code, votes[c.code] ?? 0])),
      };
    }),
    computedAt: now.toISOString(),
  };
}

export interface TotalsDifference {
  department: string;
  /** A candidate code, or null for the department's count of voted records. */
  candidate: string | null;
  stored: number;
  recounted: number;
}

/**
 * Recounts the totals from the records and their ballots and compares them with the counters the
 * votes kept. An empty list means they agree to the vote.
 */
export async function checkTotals(db: Kysely<Database>): Promise<{
  differences: TotalsDifference[];
  ballots: number;
  votes: Record<string, number>;
}> {
  const repo = createResultsRepository(db);
  const [candidates, departments, storedVotes, recountedVotes, storedBallots, recountedBallots] = await Promise.all([
    repo.listCandidates(),
    repo.listDepartments(),
    repo.candidateCounters(),
    repo.recountCandidateVotes(),
    repo.ballotCounters(),
    repo.recountBallots(),
  ]);
  const slugOf = new Map(departments.map((d) => [d.id, d.slug]));
  const codeOf = new Map(candidates.map((c) => [c.id, c.code]));
  const differences: TotalsDifference[] = [];

  const compare = (
    stored: Map<string, number>,
    recounted: Map<string, number>,
    describe: (key: string) => Pick<TotalsDifference, 'department' | 'candidate'>,
  ) => {
    for (const key of new Set([...stored.keys(), ...recounted.keys()])) {
      const s = stored.get(key) ?? 0;
      const r = recounted.get(key) ?? 0;
      if (s !== r) differences.push({ ...describe(key), stored: s, recounted: r });
    }
  };
  const voteKey = (row: { department_id: number; candidate_id: number }) => `${row.department_id}:${row.candidate_id}`;
  compare(
    new Map(storedVotes.map((r) => [voteKey(r), r.votes])),
    new Map(recountedVotes.map((r) => [voteKey(r), r.votes])),
    (key) => {
      const [department, candidate] = key.split(':').map(Number) as [number, number];
      return {
        department: slugOf.get(department) ?? `#${department}`,
        candidate: codeOf.get(candidate) ?? `#${candidate}`,
      };
    },
  );
  compare(
    new Map(storedBallots.map((r) => [String(r.department_id), r.ballots])),
    new Map(recountedBallots.map((r) => [String(r.department_id), r.ballots])),
    (key) => ({ department: slugOf.get(Number(key)) ?? `#${key}`, candidate: null }),
  );

  const votes: Record<string, number> = Object.fromEntries(candidates.map((c) => [c.code, 0]));
  for (const r of recountedVotes) {
    const code = codeOf.get(r.candidate_id);
    if (code) votes[code] = (votes[code] ?? 0) + r.votes;
  }
  const ballots = recountedBallots.reduce((sum, r) => sum + r.ballots, 0);
  differences.sort(
    (a, b) => a.department.localeCompare(b.department) || (a.candidate ?? '').localeCompare(b.candidate ?? ''),
  );
  return { differences, ballots, votes };
}
