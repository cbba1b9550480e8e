import type { Kysely } from 'kysely';
import { createPhotoReviewsRepository, type PhotoVerdict } from '#server/core/records/photo-reviews.repository';
import { departmentLists } from '#server/core/records/records';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { type ReviewDepartment, reviewDepartments } from '#server/platform/access/review-grants';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { NotFound, Refusal } from '#server/platform/http/errors';
import type { Actor, SessionUser } from '#server/platform/session/identity';
import { checkEmail } from '#server/platform/session/passwords';
import {
  photoReviewMessages,
  type ReviewGrantInput,
  type ReviewGrants,
  type ReviewInput,
  type ReviewItem,
  type ReviewQueue,
  type ReviewResult,
} from '#shared/features/photo-review/photo-review';
import { PHOTO_KINDS } from '#shared/platform/constants';
import { recordMessages } from '#shared/platform/records';
import { createPhotoReviewRepository } from './photo-review.repository';

/*
 * Photo review (decision 134): the queue a reviewer works through, a record's review (a use case with its
 * audit row, written by the records kernel) and the admins' naming of reviewers.
 */

const cursorOf = (votedAt: string, id: number) => `${votedAt}_${id}`;
function parseCursor(cursor: string | undefined): { votedAt: string; id: number } | null {
  if (!cursor) return null;
  const at = cursor.lastIndexOf('_');
  return { votedAt: cursor.slice(0, at), id: Number(cursor.slice(at + 1)) };
}

export function createPhotoReviewService(db: Kysely<Database>, clock: () => Date) {
  const repo = createPhotoReviewRepository(db);
  const kernel = createPhotoReviewsRepository(db);

  /** The municipalities the person may review, all of them or the one asked for (404 if not theirs). */
  async function scope(user: SessionUser, slug: string | undefined) {
    const allowed = await reviewDepartments(db, user);
    // Someone who reviews nothing finds no queue: the same 404 as any page they may not open.
    if (allowed.length === 0) throw new Refusal('not_in_your_departments', photoReviewMessages.notReviewer);
    if (slug === undefined) return { allowed, chosen: allowed };
    const one = allowed.find((d) => d.slug === slug);
    if (!one) throw new Refusal('not_in_your_departments', recordMessages.recordNotFound);
    return { allowed, chosen: [one] };
  }

  async function itemsOf(ids: number[]): Promise<ReviewItem[]> {
    const rows = await repo.records(ids);
    const photoIds = rows.flatMap((r) => PHOTO_KINDS.map((k) => r[`${k}_photo_id`]).filter((id) => id !== null));
    const photos = new Map((await repo.photos(photoIds)).map((p) => [p.id, p]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      return [
        {
          recordId: r.id,
          municipality: { slug: r.slug, title: r.title },
          ubch: r.ubch,
          votedAt: r.voted_at ?? '',
          votes: r.vote_codes ? r.vote_codes.split(',').filter(Boolean) : [],
          photos: PHOTO_KINDS.flatMap((kind) => {
            const photo = photos.get(r[`${kind}_photo_id`] ?? -1);
            if (!photo) return [];
            return [
              {
                kind,
                id: photo.id,
                url: `/api/photos/${photo.id}`,
                thumbUrl: `/api/photos/${photo.id}?variant=thumb`,
                verdict: r[`${kind}_review`],
                uploadedBy: photo.uploaded_by,
                uploadedAt: photo.uploaded_at,
              },
            ];
          }),
        },
      ];
    });
  }

  return {
    /** A page of the queue: validated records with a photo to review, oldest vote first. */
    async queue(
      user: SessionUser,
      query: { municipio?: string; despues?: string; limite: number },
    ): Promise<ReviewQueue> {
      const { allowed, chosen } = await scope(user, query.municipio);
      const ids = chosen.map((d) => d.id);
      const rows = await kernel.queue(ids, parseCursor(query.despues), query.limite + 1, user.email);
      const page = rows.slice(0, query.limite);
      const last = page.at(-1);
      return {
        items: await itemsOf(page.map((r) => r.id)),
        next: rows.length > query.limite && last ? cursorOf(last.voted_at, last.id) : null,
        waiting: await kernel.queueSize(ids),
        municipalities: allowed.map((d: ReviewDepartment) => ({ slug: d.slug, title: d.title })),
      };
    },

    /**
     * A reviewer's verdicts on a record's photos: 'conforme' keeps a photo, 'ilegible' and 'no
     * corresponde' send its slot back to the validator's phone. Refused for a municipality not given to
     * the reviewer (as if absent), for their own photos, and when another review got there first.
     */
    async review(user: SessionUser, recordId: number, input: ReviewInput, ip: string | null): Promise<ReviewResult> {
      const now = clock();
      const [record] = await repo.records([recordId]);
      const allowed = await reviewDepartments(db, user);
      const department = allowed.find((d) => d.id === record?.department_id);
      if (!record || !department) throw new Refusal('not_in_your_departments', recordMessages.recordNotFound);
      const photos = new Map((await repo.photos(input.verdicts.map((v) => v.photoId))).map((p) => [p.id, p]));
      for (const v of input.verdicts) {
        const photo = photos.get(v.photoId);
        if (!photo || photo.record_id !== recordId || photo.kind !== v.kind) {
          throw new Refusal('already_reviewed', photoReviewMessages.alreadyReviewed);
        }
        if (photo.uploaded_by === user.email) throw new Refusal('own_upload', photoReviewMessages.ownUpload);
      }
      const verdicts: PhotoVerdict[] = input.verdicts.map((v) => ({
        kind: v.kind,
        photoId: v.photoId,
        verdict: v.verdict,
        note: v.note ? v.note : null,
      }));
      return runChange(
        db,
        async ({ trx, audit }) => {
          const done = await createPhotoReviewsRepository(trx).review(
            recordId,
            verdicts,
            user.email,
            now.toISOString(),
          );
          if (!done) throw new Refusal('already_reviewed', photoReviewMessages.alreadyReviewed);
          await audit({
            actorEmail: user.email,
            action: 'photo.review',
            departmentSlug: department.slug,
            target: `record:${recordId}`,
            ip,
            details: {
              verdicts: verdicts.map((v) => ({ kind: v.kind, photoId: v.photoId, verdict: v.verdict, note: v.note })),
              ...(done.reopened ? { reopened: true } : {}),
              ...(done.reviewed ? { reviewed: true } : {}),
            },
            at: now,
          });
          return { message: photoReviewMessages.reviewed, reopened: done.reopened, reviewed: done.reviewed };
        },
        // A reopened slot shows on the validators' cards at once.
        { forget: [departmentLists([department.slug])] },
      );
    },

    /** Every reviewer and their municipalities (admins). */
    async grants(): Promise<ReviewGrants> {
      const [grants, municipalities] = await Promise.all([
        repo.grants(),
        createRecordsRepository(db).listMunicipalities(),
      ]);
      return { grants, municipalities: municipalities.map((m) => ({ slug: m.slug, title: m.title })) };
    },

    /** Names a reviewer of a municipality (audited when new). */
    async grant(input: ReviewGrantInput, actor: Actor): Promise<void> {
      await changeGrant(input, actor, 'add');
    },

    /** Takes a municipality from a reviewer (audited when there was such a grant). */
    async revoke(input: ReviewGrantInput, actor: Actor): Promise<void> {
      await changeGrant(input, actor, 'remove');
    },
  };

  async function changeGrant(input: ReviewGrantInput, actor: Actor, how: 'add' | 'remove') {
    const email = how === 'add' ? checkEmail(input.email) : input.email;
    const municipality = await createRecordsRepository(db).findMunicipality(input.slug);
    if (!municipality) throw NotFound(photoReviewMessages.notMunicipality);
    const now = clock();
    await runChange(db, async ({ trx, audit }) => {
      const grants = createPhotoReviewRepository(trx);
      const changed =
        how === 'add'
          ? await grants.addGrant(municipality.id, email, now.toISOString())
          : await grants.removeGrant(municipality.id, email);
      if (!changed) return;
      await audit({
        actorEmail: actor.email,
        action: how === 'add' ? 'review.grant' : 'review.revoke',
        departmentSlug: municipality.slug,
        target: email,
        ip: actor.ip,
        at: now,
      });
    });
  }
}
export type PhotoReviewService = ReturnType<typeof createPhotoReviewService>;
