import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  type ElectionNow,
  ensureCloseSnapshot,
  lockElection,
  readCloseSnapshot,
  readElection,
  stampClose,
} from '#server/core/election/election';
import { createElectionRepository } from '#server/core/election/election.repository';
import { createRecordChangesRepository } from '#server/core/records/record-changes.repository';
import { recordListAnswers } from '#server/core/records/records';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { BadRequest, Conflict } from '#server/platform/http/errors';
import { createIdempotencyRepository } from '#server/platform/idempotency/idempotency.repository';
import type { CopyWatch } from '#server/platform/replica/copy-watch';
import { currentEpoch } from '#server/platform/replica/epoch';
import type { Actor, SessionUser } from '#server/platform/session/identity';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import {
  type CloseResults,
  type CloseStampState,
  type DrillCounts,
  type DrillEndBody,
  type DrillEndResult,
  type ElectionAdmin,
  type ElectionCloseBody,
  type ElectionPhaseBody,
  type ElectionStatus,
  electionMessages,
  type ItemsAsked,
  type ItemsHeld,
  OUTSTANDING_LISTED,
  type Outstanding,
} from '#shared/features/election/election';
import { wallTimeToInstant } from '#shared/platform/wall-time';
import { removeDrillAccounts } from './drill-accounts';

/** Late arrivals the Jornada section lists (the newest); the count covers them all. */
const LATE_LISTED = 200;
const HOUR_MS = 3_600_000;

/**
 * The election day's use cases (docs/decisions/078): its status as the pages read it, and the admins'
 * changes of phase and of the close set in advance, each audited with who, when and why. The check every
 * write runs lives in platform/election.
 */
export function createElectionService(
  db: Kysely<Database>,
  clock: () => Date,
  options: {
    storage?: PhotoStorage;
    onFileLeft?: (key: string, error: unknown) => void;
    /** The RFC 3161 authority that stamps the chain's head at each close (TIMESTAMP_URL); none when absent. */
    timestampUrl?: string | undefined;
    /** Up to when the off-machine copy holds what was stored (decision 135); none: nothing is secured. */
    securedBefore?: CopyWatch['securedBefore'];
  } = {},
) {
  const repo = createElectionRepository(db);

  /**
   * A change of phase's first step: the day's row, locked exclusively (decision 094), so that the votes and
   * photos under way commit before it and those after it see the new phase.
   */
  async function lockForChange(trx: Kysely<Database>, now: Date): Promise<ElectionNow> {
    const day = await readElection(trx, now);
    if (!day.row) await createElectionRepository(trx).ensureRow(now.toISOString(), day.graceHours);
    return lockElection(trx, now, 'update');
  }

  /** What the drill holds now: its votes and its photos. */
  async function drillCounts(trx: Kysely<Database> = db): Promise<DrillCounts> {
    const items = await createElectionRepository(trx).openDrillItems();
    const votes = items.filter((i) => i.kind === 'vote').length;
    return { votes, photos: items.length - votes };
  }

  /**
   * The close's time-stamp as Jornada shows it; a close still without one is asked for it again, at most
   * once a minute (stampClose). Null before the close or with no authority set.
   */
  async function closeStamp(day: ElectionNow, now: Date): Promise<CloseStampState | null> {
    if (!day.closedAt || !options.timestampUrl) return null;
    // A close set in advance has its counts (and their chain head) kept by the first look after it.
    await ensureCloseSnapshot(db, day.closedAt, now);
    const stamp = await stampClose(db, day.closedAt, { url: options.timestampUrl, now });
    return stamp ? { stampedAt: stamp.stampedAt, triedAt: stamp.triedAt, error: stamp.error } : null;
  }

  async function lateCount(day: ElectionNow): Promise<number> {
    return day.closedAt ? repo.countLateArrivals(day.closedAt) : 0;
  }

  return {
    async status(): Promise<ElectionStatus> {
      const now = clock();
      const day = await readElection(db, now);
      return {
        phase: day.phase,
        closesAt: day.closesAt,
        closedAt: day.closedAt,
        lateArrivals: await lateCount(day),
        now: now.toISOString(),
        epoch: await currentEpoch(db),
      };
    },

    /**
     * The counts kept at the close, with names, and the late arrivals apart. A close set in advance
     * whose counts nobody has asked for yet has them kept now (nothing can have arrived since without
     * keeping them first): a plain write, like other bookkeeping, with no audit row.
     */
    /**
     * A phone asks about its items by item key (decision 135): which the server holds of this person's,
     * and which of those the off-machine copy holds ('Asegurado'), with the epoch it is in.
     */
    async itemsHeld(user: SessionUser, asked: ItemsAsked): Promise<ItemsHeld> {
      const copy = (await options.securedBefore?.()) ?? { kind: 'none' as const, before: null };
      const stored = await createIdempotencyRepository(db).storedBy(asked.keys, user.email);
      const before = copy.before?.toISOString();
      return {
        epoch: await currentEpoch(db),
        copy: copy.kind,
        held: stored.map((s) => s.itemKey),
        secured: before === undefined ? [] : stored.filter((s) => s.createdAt < before).map((s) => s.itemKey),
      };
    },

    async closeResults(): Promise<CloseResults> {
      const now = clock();
      const day = await readElection(db, now);
      const empty: CloseResults = {
        closedAt: null,
        takenAt: null,
        ballots: 0,
        candidates: [],
        departments: [],
        lateArrivals: 0,
      };
      if (!day.closedAt) return empty;
      await ensureCloseSnapshot(db, day.closedAt, now);
      const snapshot = await readCloseSnapshot(db, day.closedAt);
      if (!snapshot) return empty;
      const records = createRecordsRepository(db);
      const [candidates, departments] = await Promise.all([records.listCandidates(), records.listMunicipalities()]);
      const codeOf = new Map(candidates.map((c) => [c.id, c.code]));
      const byDepartment = new Map<number, { ballots: number; votes: Record<string, number> }>();
      const line = (id: number) => {
        let found = byDepartment.get(id);
        if (!found) {
          found = { ballots: 0, votes: {} };
          byDepartment.set(id, found);
        }
        return found;
      };
      for (const b of snapshot.counts.ballots) line(b.department_id).ballots += Number(b.ballots);
      const totals = new Map<string, number>();
      for (const c of snapshot.counts.candidates) {
        const code = codeOf.get(c.candidate_id);
        if (!code) continue;
        const votes = line(c.department_id).votes;
        votes[code] = (votes[code] ?? 0) + Number(c.votes);
        totals.set(code, (totals.get(code) ?? 0) + Number(c.votes));
      }
      return {
        closedAt: day.closedAt,
        takenAt: snapshot.takenAt,
        ballots: [...byDepartment.values()].reduce((sum, d) => sum + d.ballots, 0),
        candidates: candidates.map((c) => ({ code: c.code, name: c.name, votes: totals.get(c.code) ?? 0 })),
        departments: departments
          .filter((d) => byDepartment.has(d.id))
          .map((d) => ({ slug: d.slug, title: d.title, ...(byDepartment.get(d.id) ?? { ballots: 0, votes: {} }) })),
        lateArrivals: await lateCount(day),
      };
    },

    async admin(): Promise<ElectionAdmin> {
      const now = clock();
      const day = await readElection(db, now);
      const late = day.closedAt ? await repo.listLateArrivals(day.closedAt, LATE_LISTED) : [];
      return {
        phase: day.phase,
        closesAt: day.closesAt,
        closedAt: day.closedAt,
        lateArrivals: await lateCount(day),
        graceHours: day.graceHours,
        closeStamp: await closeStamp(day, now),
        changedAt: day.row?.changed_at ?? null,
        changedBy: day.row?.changed_by ?? null,
        reason: day.row?.reason ?? null,
        drill: day.phase === 'simulacro' ? await drillCounts() : null,
        received: await createRecordsRepository(db).receivedTotals(),
        now: now.toISOString(),
        epoch: await currentEpoch(db),
        late: late.map((l) => ({
          kind: l.kind,
          slug: l.department_slug,
          title: l.title ?? l.department_slug,
          recordId: l.record_id,
          record: l.nombre ?? '',
          by: l.user_email,
          at: l.arrived_at,
        })),
      };
    },

    /**
     * 'Por llegar' (decision 101): after the close, what phones reported before it (the keys heard, bound
     * to person, record and slot, decision 094) and the server has not received yet, by municipality or
     * parish and validator; with the grace's end, after which nothing of it is taken and the list is
     * empty. Admins see every department, others those on their lists (as Campo).
     */
    async outstanding(user: SessionUser): Promise<Outstanding> {
      const now = clock();
      const day = await readElection(db, now);
      const answer: Outstanding = {
        closedAt: day.closedAt,
        graceEndsAt: null,
        generatedAt: now.toISOString(),
        total: 0,
        departments: [],
      };
      if (!day.closedAt) return answer;
      const graceEnds = new Date(new Date(day.closedAt).getTime() + day.graceHours * HOUR_MS);
      answer.graceEndsAt = graceEnds.toISOString();
      if (now.getTime() >= graceEnds.getTime()) return answer;
      const { rows, total } = await repo.outstanding(
        day.closedAt,
        user.role === 'admin' ? null : user.email,
        OUTSTANDING_LISTED,
      );
      answer.total = total;
      for (const row of rows) {
        let department = answer.departments.at(-1);
        if (department?.slug !== row.slug) {
          department = { slug: row.slug, title: row.title, validators: [] };
          answer.departments.push(department);
        }
        let validator = department.validators.at(-1);
        if (validator?.email !== row.user_email) {
          validator = { email: row.user_email, items: [] };
          department.validators.push(validator);
        }
        validator.items.push({ kind: row.kind, recordId: row.record_id, record: row.nombre, heardAt: row.heard_at });
      }
      return answer;
    },

    /**
     * Moves the day to another phase, with why. Closing keeps the time it closed; reopening (from
     * 'cerrada' to 'en_curso') forgets the close and any close set in advance. The drill starts from
     * 'preparacion' with no vote and no photo stored (so the results count only the drill during it),
     * and ends only through endDrill, which erases it.
     */
    async setPhase(input: ElectionPhaseBody, actor: Actor): Promise<ElectionStatus> {
      const now = clock();
      const at = now.toISOString();
      await runChange(db, async ({ trx, audit }) => {
        const day = await lockForChange(trx, now);
        if (day.phase === input.phase) throw BadRequest(electionMessages.samePhase);
        if (day.phase === 'simulacro') throw Conflict(electionMessages.drillLeave);
        if (
          input.phase === 'simulacro' &&
          (day.phase !== 'preparacion' || (await createElectionRepository(trx).anyVoteOrPhoto()))
        ) {
          throw Conflict(electionMessages.drillNotClean);
        }
        const reopening = day.phase === 'cerrada';
        // The drill is an era of its own: what phones capture in it is stamped as such (decision 094).
        const era = input.phase === 'simulacro' ? randomUUID() : (day.row?.era ?? null);
        if (input.phase === 'simulacro') await createElectionRepository(trx).startEra(era ?? '', true, at);
        await createElectionRepository(trx).save({
          era,
          phase: input.phase,
          // A close set in advance stays while the day has not closed; closing or reopening ends it.
          closes_at: input.phase === 'cerrada' || reopening ? null : (day.row?.closes_at ?? null),
          closed_at: input.phase === 'cerrada' ? at : null,
          grace_hours: day.graceHours,
          changed_at: at,
          changed_by: actor.email,
          reason: input.reason,
        });
        // Closing by hand keeps the counts of this instant, in the same change.
        if (input.phase === 'cerrada') await ensureCloseSnapshot(trx, at, now);
        await audit({
          actorEmail: actor.email,
          action: reopening ? 'election.reopen' : 'election.phase',
          target: 'election',
          ip: actor.ip,
          details: {
            from: day.phase,
            to: input.phase,
            reason: input.reason,
            ...(day.closedAt ? { closedAt: day.closedAt } : {}),
          },
          at: now,
        });
      });
      // After the commit, never inside it: the chain's head at the close, stamped by the authority. One that
      // is down or slow leaves the close without a stamp (it is asked again later), never undone or held.
      if (input.phase === 'cerrada' && options.timestampUrl) {
        await stampClose(db, at, { url: options.timestampUrl, now: clock(), force: true });
      }
      return this.status();
    },

    /**
     * 'Terminar simulacro' (docs/decisions/079): every drill vote and photo goes, in one change: the
     * records back to what they were (no vote, no photo, their revision and last change), the ballots,
     * the photo rows and the answers kept for their keys deleted, the counters recounted, one audit row
     * with the counts, and the day back in 'preparacion'. The admin confirms the counts they were shown:
     * if the drill has more since, nothing is erased and they are shown the new ones. The photos' files
     * are deleted once the change has committed. The drill's items stay listed as erased, so that a phone
     * sending one later is told 'Era del simulacro'.
     */
    async endDrill(input: DrillEndBody, actor: Actor): Promise<DrillEndResult> {
      const now = clock();
      const at = now.toISOString();
      const erased = await runChange(
        db,
        async ({ trx, audit }) => {
          const day = await lockForChange(trx, now);
          if (day.phase !== 'simulacro') throw Conflict(electionMessages.notInDrill);
          const tx = createElectionRepository(trx);
          const items = await tx.openDrillItems();
          const counts = await drillCounts(trx);
          if (counts.votes !== input.votes || counts.photos !== input.photos) {
            throw Conflict(electionMessages.drillCountsChanged(counts.votes, counts.photos), { drill: counts });
          }
          // Each record as its first drill item found it.
          const before = new Map<number, { revision: number; updatedAt: string }>();
          for (const i of items) {
            if (!before.has(i.record_id)) {
              before.set(i.record_id, { revision: i.record_revision, updatedAt: i.record_updated_at });
            }
          }
          const photoIds = items.flatMap((i) => (i.photo_id === null ? [] : [i.photo_id]));
          const files = await tx.photoFiles(photoIds);
          const sharedUrls = await tx.photoSharedUrls(photoIds);
          const kernel = createRecordChangesRepository(trx);
          for (const [recordId, was] of before) await kernel.restoreRecord(recordId, was);
          await kernel.deleteDrillBallotsAndPhotos([...before.keys()], photoIds);
          await tx.deleteDrillKeys(items.flatMap((i) => (i.item_key === null ? [] : [i.item_key])));
          await createRecordsRepository(trx).rebuildTotals();
          await tx.markDrillErased(at);
          // The rehearsal's accounts go with the drill they were made for (decision 103).
          const accountsRemoved = await removeDrillAccounts(trx);
          // What phones said they held during the drill vouches for nothing after it.
          await tx.forgetHeardKeys();
          // A new era: phones drop what they kept of the drill's at their next contact (decision 094).
          if (day.row?.era) await tx.endEra(day.row.era, at);
          const era = randomUUID();
          await tx.startEra(era, false, at);
          await tx.save({
            era,
            phase: 'preparacion',
            closes_at: day.row?.closes_at ?? null,
            closed_at: null,
            grace_hours: day.graceHours,
            changed_at: at,
            changed_by: actor.email,
            reason: input.reason,
          });
          await audit({
            actorEmail: actor.email,
            action: 'election.drill_end',
            target: 'election',
            ip: actor.ip,
            details: {
              votes: counts.votes,
              photos: counts.photos,
              files: files.length,
              ...(accountsRemoved > 0 ? { accounts: accountsRemoved } : {}),
              reason: input.reason,
            },
            at: now,
          });
          return { counts, files, sharedUrls, accountsRemoved };
        },
        { forget: [recordListAnswers] },
      );
      // After the commit: a file that cannot be deleted now is left to the storage sweep, and said. The
      // copies a storage published under a person's name, with their links, go too (decision 093).
      // The link names the person: only the photo's id is logged.
      for (const published of erased.sharedUrls) {
        try {
          await options.storage?.unpublish?.(published.url);
        } catch (error) {
          options.onFileLeft?.(`photo:${published.id}`, error);
        }
      }
      let filesDeleted = 0;
      for (const key of erased.files) {
        try {
          await options.storage?.delete(key);
          filesDeleted += options.storage ? 1 : 0;
        } catch (error) {
          options.onFileLeft?.(key, error);
        }
      }
      return {
        message: electionMessages.drillEnded(erased.counts.votes, erased.counts.photos),
        votes: erased.counts.votes,
        photos: erased.counts.photos,
        filesDeleted,
        files: erased.files.length,
        accountsRemoved: erased.accountsRemoved,
      };
    },

    /** Sets (or clears) the close in advance, in Caracas time, and the grace after it. */
    async scheduleClose(input: ElectionCloseBody, actor: Actor): Promise<ElectionStatus> {
      const now = clock();
      const at = now.toISOString();
      // Typed as Caracas time, whatever the admin's own device's zone.
      const closesAt = input.closesAt === null ? null : wallTimeToInstant(input.closesAt);
      if (closesAt === undefined) throw BadRequest(electionMessages.closeTimeInvalid);
      if (closesAt && closesAt.getTime() <= now.getTime()) throw BadRequest(electionMessages.closeTimePast);
      await runChange(db, async ({ trx, audit }) => {
        const day = await lockForChange(trx, now);
        if (day.phase === 'cerrada' && day.closedAt) {
          // Closed already: the grace may still change; the close itself only by reopening.
          if (closesAt) throw Conflict(electionMessages.closedForAdmins(day.closedAt));
        }
        await createElectionRepository(trx).save({
          phase: day.row?.phase ?? day.phase,
          closes_at: day.phase === 'cerrada' ? (day.row?.closes_at ?? null) : (closesAt?.toISOString() ?? null),
          closed_at: day.row?.closed_at ?? null,
          grace_hours: input.graceHours,
          changed_at: at,
          changed_by: actor.email,
          reason: input.reason,
        });
        await audit({
          actorEmail: actor.email,
          action: 'election.close_time',
          target: 'election',
          ip: actor.ip,
          details: { closesAt: closesAt?.toISOString() ?? null, graceHours: input.graceHours, reason: input.reason },
          at: now,
        });
      });
      return this.status();
    },
  };
}
export type ElectionService = ReturnType<typeof createElectionService>;
