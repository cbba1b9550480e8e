import type { Kysely } from 'kysely';
import { ensureCloseSnapshot, readCloseSnapshot, readElection, stampClose } from '#server/core/election/election';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { writeExportAudit } from '#server/platform/export/csv-export';
import { NotFound, ServiceUnavailable } from '#server/platform/http/errors';
import type { Actor } from '#server/platform/session/identity';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import { requestTimestamp, TimestampError } from '#server/platform/timestamp/timestamp';
import { type ChainState, evidenceMessages } from '#shared/features/evidence/evidence';
import { verifyAuditChain } from './audit-verify';
import { createEvidenceRepository } from './evidence.repository';
import type { EvidenceKey } from './evidence-key';
import { type CloseEvidence, type PackageSummary, writeEvidencePackage } from './evidence-package';

const FIRST_PROBLEMS = 20;

export interface EvidenceDeps {
  db: Kysely<Database>;
  storage: PhotoStorage;
  key: EvidenceKey;
  now: () => Date;
  /** The RFC 3161 authority that stamps the chain's head at each export; none when absent. */
  timestampUrl?: string | undefined;
}

/** The evidence feature's use cases: the chain's state and check, the key's announcement, the package. */
/** The authority's stamp of a hash, or the export refused with 503: a package promised stamped never goes without. */
async function stampOrRefuse(url: string, hash: string): Promise<Buffer> {
  try {
    return await requestTimestamp(url, hash);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    throw ServiceUnavailable(
      error.reason === 'refused' ? evidenceMessages.timestampRefused : evidenceMessages.timestampUnavailable,
    );
  }
}

export function createEvidenceService(deps: EvidenceDeps) {
  const { db, key } = deps;
  const repo = createEvidenceRepository(db);

  /**
   * The close, for a package made after it: the chain's head its counts were taken at, and that head's
   * time-stamp. A close still without one is asked for it now (the export needs the authority anyway).
   */
  async function closeEvidence(now: Date): Promise<CloseEvidence | undefined> {
    const day = await readElection(db, now);
    if (!day.closedAt) return undefined;
    await ensureCloseSnapshot(db, day.closedAt, now);
    if (deps.timestampUrl) await stampClose(db, day.closedAt, { url: deps.timestampUrl, now, force: true });
    const snapshot = await readCloseSnapshot(db, day.closedAt);
    if (!snapshot) return undefined;
    const chainHead = snapshot.counts.chainHead ?? null;
    return {
      closedAt: day.closedAt,
      takenAt: snapshot.takenAt,
      chainHead,
      chainHeadRow: chainHead ? await repo.rowAt(chainHead.seq) : undefined,
      stamp: snapshot.stamp.reply,
      stampedAt: snapshot.stamp.stampedAt,
    };
  }

  return {
    async chainState(): Promise<ChainState> {
      const [head, last] = await Promise.all([repo.head(), repo.lastCheck()]);
      return {
        headSeq: Number(head?.seq ?? 0),
        keyFingerprint: key.fingerprint,
        lastCheck: last
          ? {
              at: last.at,
              ok: last.ok === 1,
              verifiedUpTo: last.verified_up_to,
              lastSeq: last.last_seq,
              problems: last.problems,
              firstProblems: JSON.parse(last.first_problems) as string[],
            }
          : null,
      };
    },

    /** Checks the chain against the tables and the files, and keeps how it ended for Auditoría. */
    async checkChain(actor: Actor): Promise<ChainState> {
      const report = await verifyAuditChain(db, { storage: deps.storage });
      await repo.saveCheck({
        at: deps.now().toISOString(),
        checked_by: actor.email ?? 'desconocido',
        ok: report.ok ? 1 : 0,
        verified_up_to: report.verifiedUpTo,
        last_seq: report.lastSeq,
        last_hash: report.lastHash,
        problems: report.problems.length,
        first_problems: JSON.stringify(report.problems.slice(0, FIRST_PROBLEMS).map((p) => p.message)),
      });
      return this.chainState();
    },

    /** Names the signing key in the audit log when it is new (first start, or another key given). */
    async announceKey(): Promise<void> {
      const last = await repo.lastDetailsOf('evidence.key');
      if (last?.includes(key.fingerprint)) return;
      await runChange(db, ({ audit }) =>
        audit({
          actorEmail: 'servidor',
          action: 'evidence.key',
          details: { fingerprint: key.fingerprint, source: key.source },
          at: deps.now(),
        }),
      );
    },

    /**
     * The evidence package of one municipality or all: its export is audited first, so the package's
     * chain head is that row, stamped by the time-stamp authority when one is configured.
     */
    async exportPackage(
      department: string | undefined,
      actor: Actor,
    ): Promise<{ stream: NodeJS.ReadableStream; done: Promise<PackageSummary>; at: Date }> {
      if (department && !(await repo.departmentExists(department))) throw NotFound(evidenceMessages.departmentNotFound);
      const at = deps.now();
      await writeExportAudit(db, {
        actorEmail: actor.email,
        action: 'evidence.export',
        departmentSlug: department ?? null,
        ip: actor.ip,
        details: { department: department ?? 'todos', keyFingerprint: key.fingerprint },
        at,
      });
      const head = await repo.lastChained();
      if (!head) throw new Error('the export row is missing from the chain');
      const stamp = deps.timestampUrl ? await stampOrRefuse(deps.timestampUrl, head.hash ?? '') : undefined;
      const close = await closeEvidence(at);
      const { stream, done } = writeEvidencePackage({
        repo,
        storage: deps.storage,
        key,
        department,
        head,
        stamp,
        close,
        at,
      });
      return { stream, done, at };
    },
  };
}
export type EvidenceService = ReturnType<typeof createEvidenceService>;
