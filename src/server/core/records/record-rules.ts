import { type RawBuilder, sql } from 'kysely';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';

/*
 * The records' rules written once, as SQL fragments every write of the kernel shares (src/server/core/records
 * is the only writer of the records, their ballots, photos and counters: decision 104).
 */

/** A record's column holding the current photo of a ballot slot. */
export const slotColumn = (kind: PhotoKind) => `${kind}_photo_id` as const;

/**
 * "Validated": the record has a vote and its three photos. In an UPDATE every expression reads the row as
 * it was, so the statement that writes one of the parts says so: `voting` (the vote is being written) or
 * `filling` (that slot is being filled) count as present.
 */
export function validatedSql(writing: { voting?: true; filling?: PhotoKind } = {}): RawBuilder<boolean> {
  const parts = [
    ...(writing.voting ? [] : [sql`voted_at is not null`]),
    ...PHOTO_KINDS.filter((k) => k !== writing.filling).map((k) => sql`${sql.ref(slotColumn(k))} is not null`),
  ];
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** `completed` as the rule says, after the write described by `writing`. */
export const completedSql = (writing: { voting?: true; filling?: PhotoKind } = {}) =>
  sql<number>`case when ${validatedSql(writing)} then 1 else 0 end`;

/** What a record that loses its vote (a clear, the drill's erasure) writes: it is not validated any more. */
export const NOT_VALIDATED = { completed: 0, validated_by: null } as const;

/**
 * Reviewed (decision 134): a validated record whose three current photos a reviewer found 'conforme'.
 * 1 or 0, as `record_counts.reviewed` counts it.
 */
export const reviewedSql = sql<number>`case when completed = 1 and ${sql.join(
  PHOTO_KINDS.map((k) => sql`${sql.ref(`${k}_review`)} = 'conforme'`),
  sql` and `,
)} then 1 else 0 end`;

/**
 * In the review queue: a validated pending record with a photo not yet reviewed. Written as migration 041's
 * partial index says it, so both databases use that index.
 */
export const inReviewQueueSql = sql<boolean>`(completed = 1 and status = 'pendiente' and (${sql.join(
  PHOTO_KINDS.map((k) => sql`${sql.ref(`${k}_review`)} is null`),
  sql` or `,
)}))`;

/**
 * A slot its reviewer reopened ('ilegible', 'no_corresponde') and no photo filled again: the card asks
 * for a retake (decision 134). 1 or 0; the lists read a record's review columns only when it is 1.
 */
export const awaitsRetakeSql = sql<number>`case when ${sql.join(
  PHOTO_KINDS.map(
    (k) => sql`(${sql.ref(`${k}_photo_id`)} is null and ${sql.ref(`${k}_review`)} in ('ilegible', 'no_corresponde'))`,
  ),
  sql` or `,
)} then 1 else 0 end`;

/** A slot's review columns. */
export const reviewColumn = (kind: PhotoKind) => `${kind}_review` as const;
export const reviewNoteColumn = (kind: PhotoKind) => `${kind}_review_note` as const;
