import { sql } from 'kysely';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { verifyAuditChain } from '#server/features/evidence/audit-verify';
import { writeAudit } from '#server/platform/audit/audit.repository';
import { openDatabase } from '#server/platform/db/database';
import { seedBenchRecords } from './data/records-seed';
import type { BenchSuite } from './types';

const RECORDS = 100_000;
const AUDIT_ROWS = 300_000;

/**
 * `audit:verify` on an election's worth of data: 100,000 voted records and 300,000 chained audit rows
 * (each record's vote, and sign-ins between them), walked and replayed against the tables (decision
 * 073), with every counter recounted and compared (095). No photo files: their reading is the disk's
 * speed, not the check's.
 */
export const suite: BenchSuite = {
  name: 'Evidencias: audit:verify',
  async seed(db, now) {
    const { ids } = await seedBenchRecords(db, RECORDS, {
      departments: ['cabimas', 'lagunillas', 'baralt', 'bolivar'],
    });
    const at = now.toISOString();
    await db.kysely.transaction().execute(async (trx) => {
      await sql`update records set vote_codes = 'FA,NR', voted_at = ${at}, voted_by = 'bench@comando.example'`.execute(
        trx,
      );
      await sql`insert into record_votes (record_id, candidate_id, created_at)
        select r.id, c.id, ${at} from records r cross join candidates c where c.code in ('FA', 'NR')`.execute(trx);
      // The counters as the votes would have moved them: the check recounts them (decision 095).
      await createRecordsRepository(trx).rebuildTotals();
      let written = 0;
      for (const [slug, list] of Object.entries(ids)) {
        for (const id of list) {
          await writeAudit(trx, {
            actorEmail: 'bench@comando.example',
            action: 'record.vote',
            departmentSlug: slug,
            target: `record:${id}`,
            details: { candidates: ['FA', 'NR'] },
            at: now,
          });
          written += 1;
        }
      }
      for (; written < AUDIT_ROWS; written++) {
        await writeAudit(trx, { actorEmail: 'bench@comando.example', action: 'auth.login', ip: '10.0.0.1', at: now });
      }
    });
  },
  cases: [],
  async extra(_origin, _pid, dataDir) {
    const db = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      const started = performance.now();
      const report = await verifyAuditChain(db.kysely);
      const ms = Math.round(performance.now() - started);
      return [
        {
          suite: 'Evidencias: audit:verify',
          caso: `audit:verify, ${report.records.toLocaleString('es')} registros y ${report.rows.toLocaleString('es')} filas`,
          'p50 ms': ms,
          objetivo: '< 60000 ms, todo coincide',
          errores: report.problems.length,
          ok: ms < 60_000 && report.ok ? 'sí' : 'NO',
        },
      ];
    } finally {
      await db.close();
    }
  },
};
