import os from 'node:os';
import { type Kysely, PostgresAdapter } from 'kysely';
import { createRecordsAdminService } from '#server/features/records-admin/records-admin.service';
import { type Config, ConfigError, loadConfig } from '#server/platform/config/config';
import type { Database } from '#server/platform/db/schema';
import { HttpError } from '#server/platform/http/errors';
import { createImagePipeline } from '#server/platform/images/image-pipeline';
import { departmentKey } from '#server/platform/lib/text';
import { createPhotoStorage, uploadTempDir } from '#server/platform/storage/create-photo-storage';
import { formatCount, formatDecimal } from '#shared/platform/format';
import { type AirtableClientOptions, AirtableError, createAirtableClient } from './airtable.client';
import { importFromAirtable } from './airtable.import';
import type { AirtableImportReport, ImportNote } from './airtable.import-report';
import { departmentIndex } from './airtable.mapping';
import { createTerminalProgress, type ProgressStream } from './airtable.progress';
import { createWritebackWorker } from './airtable.writeback';
import { createAirtableOutboxRepository } from './airtable-outbox.repository';

export const AIRTABLE_HELP = `Airtable (la base de la app original; el token solo se lee de AIRTABLE_TOKEN)
  airtable:import [--municipio <slug>] Importa los trámites (tabla AIRTABLE_RECORDS_TABLE) y la agenda
                                      (AIRTABLE_AGENDA_TABLE): crea, actualiza y omite con motivo;
                                      los votos y fotos de Airtable llegan solo si Comando no tiene.
  airtable:push                       Envía ahora a Airtable los votos y fotos que esperan en la cola
                                      de escritura (AIRTABLE_WRITEBACK=1 lo hace solo, sin parar).`;

export interface AirtableCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface AirtableCliDeps {
  /** Defaults to the environment's configuration. */
  config?: Config;
  /** Client settings for tests (waits, timeouts); never the token. */
  client?: Partial<Omit<AirtableClientOptions, 'token' | 'baseId' | 'apiUrl'>>;
  /** Where the progress bar goes (stderr). */
  progress?: ProgressStream;
  /** Photo downloads (tests). */
  fetch?: typeof fetch;
}

const MAX_LISTED = 30;

class AirtableCliError extends Error {}

function airtableSettings(config: Config): { token: string; baseId: string } {
  const { token, baseId } = config.airtable;
  if (!token) {
    throw new AirtableCliError(
      'Falta AIRTABLE_TOKEN en el entorno: el token personal de Airtable (con permiso de lectura y, para la escritura de vuelta, de escritura sobre la base).',
    );
  }
  if (!baseId) throw new AirtableCliError('Falta AIRTABLE_BASE_ID en el entorno: el id de la base (empieza por app).');
  return { token, baseId };
}

function listNotes(io: AirtableCliIo, title: string, notes: ImportNote[]): void {
  if (notes.length === 0) return;
  io.out(`${title} (${formatCount(notes.length)}):`);
  for (const n of notes.slice(0, MAX_LISTED)) {
    io.out(`  ${n.table} ${n.airtableId}${n.label ? ` (${n.label})` : ''}: ${n.reason}`);
  }
  if (notes.length > MAX_LISTED) io.out(`  … y ${formatCount(notes.length - MAX_LISTED)} más.`);
}

/** The final report of an import, in Spanish, for the operator. */
export function printImportReport(io: AirtableCliIo, report: AirtableImportReport, tables: Config['airtable']): void {
  const line = (r: { read: number; created: number; updated: number; unchanged: number; skipped: unknown[] }) =>
    `${formatCount(r.read)} leídos · ${formatCount(r.created)} creados · ${formatCount(r.updated)} actualizados · ` +
    `${formatCount(r.unchanged)} sin cambios · ${formatCount(r.skipped.length)} omitidos`;
  io.out(`Trámites («${tables.recordsTable}»): ${line(report.records)}`);
  io.out(
    `  votos que llegaron de Airtable: ${formatCount(report.records.votes)} · fotos descargadas: ${formatCount(report.records.photos)}`,
  );
  io.out(`Agenda («${tables.agendaTable}»): ${line(report.agenda)}`);
  listNotes(io, 'Omitidos', [...report.records.skipped, ...report.agenda.skipped]);
  listNotes(io, 'Avisos', report.warnings);
}

/** 'sqlite' or 'postgres', from the Kysely instance the command line opened. */
function dialectOf(db: Kysely<Database>): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

function valueAfter(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (!value || value.startsWith('--')) throw new AirtableCliError(`Falta el valor de ${flag}.`);
  return value;
}

/**
 * `npm run cli -- airtable:import` and `airtable:push`. The token comes only from the environment
 * (AIRTABLE_TOKEN): an argument would stay in the shell's history and the process list.
 */
export async function runAirtableCommand(
  command: 'airtable:import' | 'airtable:push',
  args: string[],
  db: Kysely<Database>,
  io: AirtableCliIo,
  now: () => Date = () => new Date(),
  deps: AirtableCliDeps = {},
): Promise<number> {
  try {
    if (args.some((a) => /^--?(token|api-?key|clave)/i.test(a))) {
      throw new AirtableCliError(
        'El token de Airtable no se pasa como argumento (quedaría en el historial): expórtalo en AIRTABLE_TOKEN.',
      );
    }
    const config = deps.config ?? loadConfig();
    const { token, baseId } = airtableSettings(config);
    const clientOptions = { token, baseId, apiUrl: config.airtable.apiUrl, ...deps.client };

    if (command === 'airtable:push') return await push(db, io, now, config, clientOptions);

    const unknownFlag = args.find((a) => a.startsWith('--') && a !== '--municipio');
    if (unknownFlag)
      throw new AirtableCliError(`Opción desconocida: ${unknownFlag}. Uso: airtable:import [--municipio <slug>]`);
    let recordsFormula: string | undefined;
    const only = valueAfter(args, '--municipio');
    if (only) {
      const department = departmentIndex(await createRecordsAdminService(db, now).listMunicipalities()).get(
        departmentKey(only),
      );
      if (!department)
        throw new AirtableCliError(`El municipio o parroquia «${only}» no existe (ver access:departments).`);
      recordsFormula = `{rephrase} = '${department.slug}'`;
    }

    const started = Date.now();
    io.out(`Importando desde Airtable: base ${baseId}${only ? `, solo ${only}` : ''}.`);
    const report = await importFromAirtable({
      db,
      dialect: dialectOf(db),
      client: createAirtableClient(clientOptions),
      tables: { records: config.airtable.recordsTable, agenda: config.airtable.agendaTable },
      storage: createPhotoStorage(config),
      images: createImagePipeline(),
      tempDir: uploadTempDir(config.dataDir),
      now,
      actor: `cli:${safeUsername()}`,
      recordsFormula,
      progress: createTerminalProgress(deps.progress ?? process.stderr),
      fetch: deps.fetch,
    });
    printImportReport(io, report, config.airtable);
    io.out(`Terminado en ${formatDecimal((Date.now() - started) / 1000, 1)} s.`);
    return 0;
  } catch (error) {
    if (
      error instanceof AirtableCliError ||
      error instanceof AirtableError ||
      error instanceof ConfigError ||
      error instanceof HttpError
    ) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

/** Drains the write-back outbox once, backoff or not, and says what is left. */
async function push(
  db: Kysely<Database>,
  io: AirtableCliIo,
  now: () => Date,
  config: Config,
  clientOptions: AirtableClientOptions,
): Promise<number> {
  const outbox = createAirtableOutboxRepository(db);
  const worker = createWritebackWorker({
    db,
    // One try per round: what fails stays in the outbox for the next run or the server's worker.
    client: createAirtableClient({ attempts: 1, ...clientOptions }),
    table: config.airtable.recordsTable,
    now,
  });
  const result = await worker.drain({ ignoreBackoff: true });
  const counts = await outbox.countByState();
  io.out(
    `Enviados a Airtable: ${formatCount(result.sent)} cambios en ${formatCount(result.requests)} solicitudes. ` +
      `En cola: ${formatCount(counts.pending)} · rechazados: ${formatCount(counts.failed)} · enviados en total: ${formatCount(counts.sent)}.`,
  );
  if (result.retrying > 0) {
    const waiting = await outbox.list('pending', 1);
    io.err(
      `Airtable no recibió ${formatCount(result.retrying)} cambios: ${waiting[0]?.last_error ?? 'sin detalle'} Siguen en la cola.`,
    );
  }
  const failed = await outbox.list('failed', MAX_LISTED);
  if (failed.length > 0) {
    io.out(`Rechazados por Airtable (no se reintentan):`);
    for (const f of failed) io.out(`  trámite ${f.record_id} (${f.airtable_id}) ${f.field}: ${f.last_error ?? ''}`);
  }
  return result.retrying > 0 || result.failed > 0 ? 1 : 0;
}

function safeUsername(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'desconocido';
  }
}
