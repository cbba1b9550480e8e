import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuditChainChecksTable, Database } from '#server/platform/db/schema';

const CHAIN_COLUMNS = [
  'id',
  'seq',
  'prev_hash',
  'hash',
  'at',
  'actor_email',
  'action',
  'department_slug',
  'target',
  'ip',
  'details',
] as const;

export interface ChainRow {
  id: number;
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
  at: string;
  actor_email: string | null;
  action: string;
  department_slug: string | null;
  target: string | null;
  ip: string | null;
  details: string | null;
}

export interface RecordState {
  id: number;
  department_slug: string;
  nombre: string;
  comunidad: string;
  ubch: string;
  telefono: string;
  status: string;
  vote_codes: string | null;
  voted_at: string | null;
  voted_by: string | null;
  gobernador_photo_id: number | null;
  an_photo_id: number | null;
  clez_photo_id: number | null;
  vote_counted: number;
  completed: number;
}

/** A close's kept counts and stamp (election_close_snapshots), as the chain's check reads them. */
export interface CloseSnapshotState {
  closed_at: string;
  counts: string;
  stamp: string | null;
}

/** One counter as kept, by department slug; `candidate` and the quarter only where the counter has them. */
export interface CounterState {
  department: string;
  candidate?: string;
  hour?: string;
  quarter?: number;
  value: number;
}

export interface PhotoState {
  id: number;
  record_id: number;
  kind: string;
  original_key: string;
  sha256: string;
  size_bytes: number;
  content_type: string;
  uploaded_by: string;
  uploaded_at: string;
  replaced_at: string | null;
  /** Its review (decision 134), if a reviewer looked at it. */
  review_verdict: string | null;
  review_note: string | null;
  reviewed_by: string | null;
  reviewed_at: string | null;
}

/** What the chain's check and the evidence package read: the audit chain, records, ballots and photos. */
export function createEvidenceRepository(db: Kysely<Database>) {
  const records = () =>
    db
      .selectFrom('records')
      .innerJoin('departments', 'departments.id', 'records.department_id')
      .select([
        'records.id',
        'departments.slug as department_slug',
        'records.nombre',
        'records.comunidad',
        'records.ubch',
        'records.telefono',
        'records.status',
        'records.vote_codes',
        'records.voted_at',
        'records.voted_by',
        'records.gobernador_photo_id',
        'records.an_photo_id',
        'records.clez_photo_id',
        'records.vote_counted',
        'records.completed',
      ]);

  return {
    /** Chained rows in chain order, after a place. */
    chainPage(afterSeq: number, limit: number): Promise<ChainRow[]> {
      return db
        .selectFrom('audit_log')
        .select(CHAIN_COLUMNS)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute();
    },

    /** Rows written around the chain (no place in it). */
    unchained(limit: number): Promise<ChainRow[]> {
      return db
        .selectFrom('audit_log')
        .select(CHAIN_COLUMNS)
        .where('seq', 'is', null)
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /** The chain's last row. */
    lastChained(): Promise<ChainRow | undefined> {
      return db
        .selectFrom('audit_log')
        .select(CHAIN_COLUMNS)
        .where('seq', 'is not', null)
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    /** The chained row at a place. */
    rowAt(seq: number): Promise<ChainRow | undefined> {
      return db.selectFrom('audit_log').select(CHAIN_COLUMNS).where('seq', '=', seq).executeTakeFirst();
    },

    /** The details of the last row of an action (the last key announced). */
    async lastDetailsOf(action: string): Promise<string | null | undefined> {
      const row = await db
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', action)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.details;
    },

    head(): Promise<{ seq: number; hash: string } | undefined> {
      return db.selectFrom('audit_chain_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirst();
    },

    /** Records in id order after an id, of one department or all. */
    recordsPage(afterId: number, limit: number, departmentSlug?: string): Promise<RecordState[]> {
      let query = records().where('records.id', '>', afterId);
      if (departmentSlug) query = query.where('departments.slug', '=', departmentSlug);
      return query.orderBy('records.id').limit(limit).execute();
    },

    /** The ballot rows of some records, as candidate codes. */
    async ballotCodes(recordIds: readonly number[]): Promise<Map<number, string[]>> {
      const out = new Map<number, string[]>();
      if (recordIds.length === 0) return out;
      const rows = await db
        .selectFrom('record_votes')
        .innerJoin('candidates', 'candidates.id', 'record_votes.candidate_id')
        .select(['record_votes.record_id', 'candidates.code'])
        .where('record_votes.record_id', 'in', recordIds)
        .execute();
      for (const row of rows) {
        const list = out.get(row.record_id) ?? [];
        list.push(row.code);
        out.set(row.record_id, list);
      }
      return out;
    },

    /** Every photo of some records, current and replaced, oldest first. */
    photosOf(recordIds: readonly number[]): Promise<PhotoState[]> {
      if (recordIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('photos')
        .leftJoin('photo_reviews', 'photo_reviews.photo_id', 'photos.id')
        .select([
          'photos.id',
          'photos.record_id',
          'photos.kind',
          'photos.original_key',
          'photos.sha256',
          'photos.size_bytes',
          'photos.content_type',
          'photos.uploaded_by',
          'photos.uploaded_at',
          'photos.replaced_at',
          'photo_reviews.verdict as review_verdict',
          'photo_reviews.note as review_note',
          'photo_reviews.reviewed_by',
          'photo_reviews.reviewed_at',
        ])
        .where('photos.record_id', 'in', recordIds)
        .orderBy('photos.id')
        .execute();
    },

    /** The chained rows about some records (target `record:<id>`), in chain order. */
    auditOf(targets: readonly string[]): Promise<ChainRow[]> {
      if (targets.length === 0) return Promise.resolve([]);
      return db.selectFrom('audit_log').select(CHAIN_COLUMNS).where('target', 'in', targets).orderBy('seq').execute();
    },

    /** Every department's and candidate's id with its slug or code (the counters and the close's counts name ids). */
    async names(): Promise<{ departments: Map<number, string>; candidates: Map<number, string> }> {
      const [departments, candidates] = await Promise.all([
        db.selectFrom('departments').select(['id', 'slug']).execute(),
        db.selectFrom('candidates').select(['id', 'code']).execute(),
      ]);
      return {
        departments: new Map(departments.map((d) => [d.id, d.slug])),
        candidates: new Map(candidates.map((c) => [c.id, c.code])),
      };
    },

    /** Every counter the results, the progress, the map and the timeline read, as kept. */
    async counters(): Promise<{
      ballots: { department_id: number; value: number }[];
      candidates: { department_id: number; candidate_id: number; value: number }[];
      quarters: { department_id: number; candidate_id: number; hour: string; quarter: number; value: number }[];
      progress: { department_id: number; total: number; voted: number; validated: number }[];
      photos: { department_id: number; value: number }[];
    }> {
      const [ballots, candidates, quarters, progress, photos] = await Promise.all([
        db.selectFrom('vote_totals').select(['department_id', 'ballots as value']).execute(),
        db.selectFrom('candidate_totals').select(['department_id', 'candidate_id', 'votes as value']).execute(),
        db
          .selectFrom('quarter_totals')
          .select(['department_id', 'candidate_id', 'hour', 'quarter', 'votes as value'])
          .execute(),
        db.selectFrom('record_counts').select(['department_id', 'total', 'voted', 'validated']).execute(),
        db.selectFrom('photo_totals').select(['department_id', 'photos as value']).execute(),
      ]);
      return { ballots, candidates, quarters, progress, photos };
    },

    /** The counts kept at each close, oldest first. */
    closeSnapshots(): Promise<CloseSnapshotState[]> {
      return db
        .selectFrom('election_close_snapshots')
        .select(['closed_at', 'counts', 'stamp'])
        .orderBy('closed_at')
        .execute();
    },

    /** The day's row (phase, close set in advance, close by hand), if any. */
    election(): Promise<{ phase: string; closes_at: string | null; closed_at: string | null } | undefined> {
      return db
        .selectFrom('election')
        .select(['phase', 'closes_at', 'closed_at'])
        .where('id', '=', 1)
        .executeTakeFirst();
    },

    async saveCheck(check: Insertable<AuditChainChecksTable>): Promise<void> {
      await db.insertInto('audit_chain_checks').values(check).execute();
    },

    lastCheck(): Promise<Selectable<AuditChainChecksTable> | undefined> {
      return db.selectFrom('audit_chain_checks').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
    },

    async departmentExists(slug: string): Promise<boolean> {
      return (
        (await db
          .selectFrom('departments')
          .select('id')
          .where('slug', '=', slug)
          .where('kind', '=', 'municipality')
          .executeTakeFirst()) !== undefined
      );
    },
  };
}
export type EvidenceRepository = ReturnType<typeof createEvidenceRepository>;
