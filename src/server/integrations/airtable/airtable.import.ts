import type { Kysely } from 'kysely';
import { createAgendaRepository } from '#server/features/agenda/agenda.repository';
import { createPhotosRepository } from '#server/features/records/photos.repository';
import { storePhoto } from '#server/features/records/photos.service';
import { createRecordsRepository } from '#server/features/records/records.repository';
import { createVoteWriter } from '#server/features/records/records.service';
import { createRecordsAdminRepository } from '#server/features/records/records-admin.repository';
import { writeAudit } from '#server/platform/audit/audit.repository';
import type { Database } from '#server/platform/db/schema';
import { HttpError } from '#server/platform/http/errors';
import type { ImagePipeline } from '#server/platform/images/image-pipeline';
import { createLimiter } from '#server/platform/lib/limiter';
import type { SessionUser } from '#server/platform/session/identity';
import { parseMaxBytes } from '#server/platform/settings/settings.repository';
import type { PhotoStorage } from '#server/platform/storage/photo-storage';
import { PHOTO_MAX_BYTES_SETTING } from '#shared/features/records/photos';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';
import type { AirtableClient, AirtableRecord } from './airtable.client';
import {
  type AirtableAgendaRow,
  type AirtableRecordRow,
  departmentIndex,
  mapAgendaRow,
  mapRecordRow,
} from './airtable.mapping';
import { downloadPhoto, PhotoDownloadError } from './airtable.photos';
import { createAirtableRepository, type ImportedRecordRow } from './airtable.repository';

/** Who casts the votes and uploads the photos that arrive from Airtable, as the records and audit say. */
export const AIRTABLE_IMPORT_USER: SessionUser = { id: 0, email: 'airtable:import', role: 'staff' };

/** Progress of a long step: a count, or a bar when the total is known. */
export interface ImportProgress {
  phase(label: string, total?: number): void;
  advance(n?: number): void;
  end(): void;
}
const noProgress: ImportProgress = { phase() {}, advance() {}, end() {} };

/** A row left out (or a part of it), and why. */
export interface ImportNote {
  table: string;
  airtableId: string;
  /** The person's name or the event's description, when there is one. */
  label: string;
  reason: string;
}

export interface TableReport {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: ImportNote[];
}

export interface AirtableImportReport {
  records: TableReport & { votes: number; photos: number };
  agenda: TableReport;
  /** Parts of imported rows that were not (a photo that did not download, a vote for an unknown code). */
  warnings: ImportNote[];
}

export interface AirtableImportOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  client: AirtableClient;
  tables: { records: string; agenda: string };
  storage: PhotoStorage;
  images: ImagePipeline;
  /** Where downloaded photos wait while they are checked. */
  tempDir: string;
  now: () => Date;
  /** The operator, for the audit row of the import. */
  actor: string;
  /** Only the records this formula keeps (e.g. one municipality). */
  recordsFormula?: string;
  progress?: ImportProgress;
  /** Photo downloads at once. */
  photoConcurrency?: number;
  photoTimeoutMs?: number;
  /** For photo downloads (tests). */
  fetch?: typeof fetch;
}

/** Rows per write transaction of the import. */
const WRITE_BATCH = 500;
/** Votes handed to the vote writer together (grouped into one commit on SQLite). */
const VOTE_BATCH = 200;

const labelOf = (fields: Record<string, unknown>, name: string) => {
  const value = fields[name];
  return typeof value === 'string' ? value.trim().slice(0, 80) : '';
};

async function readAll(
  client: AirtableClient,
  table: string,
  progress: ImportProgress,
  filterByFormula?: string,
): Promise<AirtableRecord[]> {
  const rows: AirtableRecord[] = [];
  progress.phase(`Leyendo «${table}» de Airtable`);
  try {
    for await (const page of client.pages(table, { filterByFormula })) {
      rows.push(...page);
      progress.advance(page.length);
    }
  } finally {
    progress.end();
  }
  return rows;
}

const sameFields = (local: ImportedRecordRow, row: AirtableRecordRow) =>
  local.comunidad === row.fields.comunidad &&
  local.nombre === row.fields.nombre &&
  local.ubch === row.fields.ubch &&
  local.telefono === row.fields.telefono;

/**
 * Imports an Airtable base of the original app: the records table (Zulia) and the agenda table, read
 * completely first (nothing changes if Airtable fails while reading). Rows are matched by their
 * Airtable id (`source_id`), so a second run updates instead of duplicating, and changes nothing when
 * Airtable did not change. Records: new ones are inserted with their department's counts; changed
 * names, phones, communities, UBCH and municipality are updated (a record with a vote keeps its
 * municipality); a vote Airtable has arrives as a vote through the vote service, and photo links are
 * downloaded and stored through the photo service, both only while Comando has none: Comando is the
 * source of truth for votes and photos. Records Comando voided are left alone. Agenda events follow
 * Airtable. Rows that cannot be imported are skipped with the reason.
 */
export async function importFromAirtable(options: AirtableImportOptions): Promise<AirtableImportReport> {
  const { db, client, tables, now } = options;
  const progress = options.progress ?? noProgress;
  const airtable = createAirtableRepository(db);
  const records = createRecordsRepository(db);
  const report: AirtableImportReport = {
    records: { read: 0, created: 0, updated: 0, unchanged: 0, skipped: [], votes: 0, photos: 0 },
    agenda: { read: 0, created: 0, updated: 0, unchanged: 0, skipped: [] },
    warnings: [],
  };

  const recordRows = await readAll(client, tables.records, progress, options.recordsFormula);
  const agendaRows = await readAll(client, tables.agenda, progress);
  report.records.read = recordRows.length;
  report.agenda.read = agendaRows.length;

  // --- records: check every row, then compare with what earlier imports brought --------------------------
  const municipalities = await records.listMunicipalities();
  const departments = departmentIndex(municipalities);
  const departmentById = new Map(municipalities.map((d) => [d.id, d]));
  const rows: AirtableRecordRow[] = [];
  const seen = new Set<string>();
  for (const record of recordRows) {
    const note = (reason: string): ImportNote => ({
      table: tables.records,
      airtableId: record.id,
      label: labelOf(record.fields, 'Nombre'),
      reason,
    });
    if (seen.has(record.id)) continue;
    seen.add(record.id);
    const mapped = mapRecordRow(record, departments);
    if (!mapped.ok) {
      report.records.skipped.push(note(mapped.reason));
      continue;
    }
    rows.push(mapped.row);
    for (const warning of mapped.row.warnings) report.warnings.push(note(warning));
  }
  const warn = (row: AirtableRecordRow, reason: string) =>
    report.warnings.push({
      table: tables.records,
      airtableId: row.airtableId,
      label: row.fields.nombre,
      reason,
    });

  const existing = new Map((await airtable.recordsBySource(rows.map((r) => r.sourceId))).map((r) => [r.source_id, r]));
  const toCreate: AirtableRecordRow[] = [];
  const toUpdate: { row: AirtableRecordRow; local: ImportedRecordRow; target: ImportedRecordRow }[] = [];
  /** Each imported record with Comando's copy as it is once the fields are written. */
  const targets: { row: AirtableRecordRow; record: ImportedRecordRow; isNew: boolean }[] = [];
  const changed = new Set<string>();
  for (const row of rows) {
    const local = existing.get(row.sourceId);
    if (!local) {
      toCreate.push(row);
      continue;
    }
    if (local.status !== 'pendiente') {
      // Voided in Comando: Comando decides, Airtable's copy no longer moves it.
      report.records.unchanged++;
      continue;
    }
    let departmentId = row.departmentId;
    if (departmentId !== local.department_id && local.voted_at !== null) {
      const kept = departmentById.get(local.department_id)?.slug ?? String(local.department_id);
      warn(row, `ya tiene voto en Comando: sigue en ${kept} (su voto cuenta allí)`);
      departmentId = local.department_id;
    }
    const target = { ...local, ...row.fields, department_id: departmentId };
    if (departmentId !== local.department_id || !sameFields(local, row)) toUpdate.push({ row, local, target });
    targets.push({ row, record: target, isNew: false });
  }

  if (toCreate.length + toUpdate.length > 0) {
    progress.phase('Guardando registros', toCreate.length + toUpdate.length);
    try {
      for (let i = 0; i < toCreate.length; i += WRITE_BATCH) {
        const batch = toCreate.slice(i, i + WRITE_BATCH);
        // insertMany moves each department's pending count in the same transaction.
        const ids = await records.insertMany(
          batch.map((row) => ({ departmentId: row.departmentId, sourceId: row.sourceId, ...row.fields })),
          now(),
        );
        batch.forEach((row, j) => {
          const record: ImportedRecordRow = {
            id: ids[j] as number,
            source_id: row.sourceId,
            department_id: row.departmentId,
            ...row.fields,
            status: 'pendiente',
            voted_at: null,
            gobernador_photo_id: null,
            an_photo_id: null,
            clez_photo_id: null,
          };
          targets.push({ row, record, isNew: true });
        });
        report.records.created += batch.length;
        progress.advance(batch.length);
      }
      for (let i = 0; i < toUpdate.length; i += WRITE_BATCH) {
        const batch = toUpdate.slice(i, i + WRITE_BATCH);
        await db.transaction().execute(async (trx) => {
          const tx = createRecordsAdminRepository(trx);
          const counts = createRecordsRepository(trx);
          for (const { row, local, target } of batch) {
            const moves = target.department_id !== local.department_id;
            const done = await tx.updateFields(
              local.id,
              { departmentId: target.department_id, ...row.fields },
              now(),
              moves,
            );
            if (!done) {
              // Voted (or voided) in Comando since it was read: Comando's state stands.
              Object.assign(target, local);
              warn(row, 'cambió en Comando durante la importación: no se actualizó');
              continue;
            }
            if (moves) {
              // An unvoted record: it counts as pending in its new department only.
              await counts.bumpCounts(local.department_id, { total: -1 });
              await counts.bumpCounts(target.department_id, { total: 1 });
            }
            changed.add(row.sourceId);
          }
        });
        progress.advance(batch.length);
      }
    } finally {
      progress.end();
    }
  }

  // --- votes Airtable has and Comando does not: through the vote service (counters, audit) -----------
  const votes = targets.filter(({ row, record }) => row.voteCodes !== null && record.voted_at === null);
  if (votes.length > 0) {
    const writer = createVoteWriter(db, options.dialect);
    progress.phase('Votos', votes.length);
    try {
      for (let i = 0; i < votes.length; i += VOTE_BATCH) {
        const batch = votes.slice(i, i + VOTE_BATCH);
        const results = await Promise.allSettled(
          batch.map(({ row, record }) => {
            const department = departmentById.get(record.department_id) as { id: number; slug: string };
            return writer.cast({
              department,
              recordId: record.id,
              codes: row.voteCodes as string[],
              user: AIRTABLE_IMPORT_USER,
              ip: null,
              now: now(),
            });
          }),
        );
        results.forEach((result, j) => {
          const { row, isNew } = batch[j] as (typeof batch)[number];
          if (result.status === 'fulfilled') {
            report.records.votes++;
            if (!isNew) changed.add(row.sourceId);
            return;
          }
          const error = result.reason;
          if (!(error instanceof HttpError)) throw error;
          // 409: voted in Comando meanwhile, and Comando's vote stands.
          if (error.statusCode !== 409) warn(row, `voto ${row.voteCodes?.join(',')}: ${error.message}`);
        });
        progress.advance(batch.length);
      }
    } finally {
      progress.end();
    }
  }

  // --- photo links: downloaded, checked and stored like uploads, only into empty slots ----------------
  const photoJobs: {
    row: AirtableRecordRow;
    record: ImportedRecordRow;
    kind: PhotoKind;
    url: string;
    isNew: boolean;
  }[] = [];
  for (const { row, record, isNew } of targets) {
    for (const kind of PHOTO_KINDS) {
      const url = row.photos[kind];
      if (url && record[`${kind}_photo_id`] === null) photoJobs.push({ row, record, kind, url, isNew });
    }
  }
  if (photoJobs.length > 0) {
    const maxBytes = parseMaxBytes(await createPhotosRepository(db).getSetting(PHOTO_MAX_BYTES_SETTING));
    const limiter = createLimiter(options.photoConcurrency ?? 4);
    let unexpected: unknown;
    progress.phase('Fotos', photoJobs.length);
    try {
      await Promise.all(
        photoJobs.map((job) =>
          limiter.run(async () => {
            try {
              const { record } = job;
              const department = departmentById.get(record.department_id) as {
                id: number;
                slug: string;
                title: string;
              };
              const upload = await downloadPhoto(job.url, {
                maxBytes,
                tempDir: options.tempDir,
                timeoutMs: options.photoTimeoutMs,
                fetch: options.fetch,
              });
              try {
                await storePhoto(
                  { db, storage: options.storage, images: options.images },
                  {
                    department,
                    record: { id: record.id, nombre: record.nombre },
                    kind: job.kind,
                    current: null,
                    upload,
                    user: AIRTABLE_IMPORT_USER,
                    ip: null,
                    now: now(),
                  },
                );
              } finally {
                await upload.discard();
              }
              report.records.photos++;
              if (!job.isNew) changed.add(job.row.sourceId);
            } catch (error) {
              if (error instanceof PhotoDownloadError) warn(job.row, `foto ${job.kind}: ${error.message}`);
              else if (error instanceof HttpError && error.statusCode === 409) {
                // Filled in Comando meanwhile: Comando's photo stands.
              } else if (error instanceof HttpError && error.statusCode < 500) {
                warn(job.row, `foto ${job.kind}: ${error.message}`);
              } else unexpected ??= error;
            } finally {
              progress.advance();
            }
          }),
        ),
      );
    } finally {
      progress.end();
    }
    if (unexpected) throw unexpected;
  }
  report.records.updated = changed.size;
  report.records.unchanged += targets.length - report.records.created - changed.size;

  // --- agenda: Airtable's events, matched by their Airtable id -------------------------------------
  const events: AirtableAgendaRow[] = [];
  const seenEvents = new Set<string>();
  for (const record of agendaRows) {
    if (seenEvents.has(record.id)) continue;
    seenEvents.add(record.id);
    const mapped = mapAgendaRow(record);
    if (mapped.ok) events.push(mapped.row);
    else {
      report.agenda.skipped.push({
        table: tables.agenda,
        airtableId: record.id,
        label: labelOf(record.fields, 'descripcion'),
        reason: mapped.reason,
      });
    }
  }
  const knownEvents = new Map(
    (await airtable.agendaBySource(events.map((e) => e.sourceId))).map((e) => [e.source_id, e]),
  );
  const eventChanges = events.filter((e) => {
    const local = knownEvents.get(e.sourceId);
    return (
      !local ||
      local.fecha !== e.fecha ||
      local.hora_24h !== e.hora24h ||
      local.descripcion !== e.descripcion ||
      local.lugar !== e.lugar
    );
  });
  report.agenda.unchanged = events.length - eventChanges.length;
  if (eventChanges.length > 0) {
    progress.phase('Agenda', eventChanges.length);
    try {
      // The agenda repository's transaction: the public agenda's cache forgets the old events.
      await createAgendaRepository(db).transaction(async (trx) => {
        const tx = createAirtableRepository(trx);
        for (const event of eventChanges) {
          const local = knownEvents.get(event.sourceId);
          if (local) {
            await tx.updateAgenda(local.id, event, now());
            report.agenda.updated++;
          } else {
            await tx.insertAgenda(event.sourceId, event, now());
            report.agenda.created++;
          }
          progress.advance();
        }
      });
    } finally {
      progress.end();
    }
  }

  await writeAudit(db, {
    actorEmail: options.actor,
    action: 'airtable.import',
    target: `airtable:${client.baseId}`,
    details: {
      records: {
        table: tables.records,
        read: report.records.read,
        created: report.records.created,
        updated: report.records.updated,
        unchanged: report.records.unchanged,
        skipped: report.records.skipped.length,
        votes: report.records.votes,
        photos: report.records.photos,
      },
      agenda: {
        table: tables.agenda,
        read: report.agenda.read,
        created: report.agenda.created,
        updated: report.agenda.updated,
        unchanged: report.agenda.unchanged,
        skipped: report.agenda.skipped.length,
      },
      warnings: report.warnings.length,
      ...(options.recordsFormula ? { filterByFormula: options.recordsFormula } : {}),
    },
    at: now(),
  });
  return report;
}
