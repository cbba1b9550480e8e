import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuditEntry } from '#server/platform/audit/audit.repository';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { CSV_BOM, type CsvValue, csvLine, csvLines } from '#server/platform/lib/csv';
import { TIME_ZONE } from '#shared/platform/constants';
import { dateInTimeZone } from '#shared/platform/format';

/*
 * The one way a file of our data leaves the server (docs/decisions/105): the audit log, the results' two
 * CSV files, the records of a municipality and the evidence package's CSV files.
 *
 *   const csv = await auditedCsvExport(db, {
 *     audit: { actorEmail, action: 'audit.export', ip, details, at: now },
 *     name: 'auditoria', at: now,
 *     header: ['Fecha', 'Persona'],
 *     pages: cursorPages({ first: null, size: 2_000, read: (before, size) => repo.exportPage(before, size), next: (r) => r.id }),
 *     line: (r) => [csvDateTime(r.at), r.actor_email],
 *   });
 *   return sendExport(request, reply, csv);
 *
 * Its guarantees, each named by a test (csv-export.test.ts): the audit row is stored before the first
 * byte is read, and a refused audit row sends nothing; the file starts with the BOM and its header;
 * rows are read page by page as the client reads, never all at once; a failure half-way ends the
 * download cut short (never a file that looks whole) and is logged; the file is named with the date
 * of Caracas, not of UTC.
 */

/** The rows of an export, read a page at a time: each page starts after the last row of the one before. */
export async function* cursorPages<Row, Cursor>(options: {
  /** Where the first page starts (0 for ids that count up, null for 'from the newest'). */
  first: Cursor;
  size: number;
  read: (after: Cursor, size: number) => Promise<Row[]>;
  /** The cursor a row leaves for the next page (usually its id). */
  next: (row: Row) => Cursor;
}): AsyncGenerator<Row[]> {
  for (let after = options.first; ; ) {
    const page = await options.read(after, options.size);
    if (page.length === 0) return;
    yield page;
    const last = page.at(-1);
    if (page.length < options.size || last === undefined) return;
    after = options.next(last);
  }
}

/** A CSV file as Excel opens it: the BOM with the header line, then each page's lines as it comes. */
export async function* csvFile<Row>(
  header: CsvValue[],
  pages: AsyncIterable<Row[]> | Iterable<Row[]>,
  line: (row: Row) => CsvValue[],
): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(header);
  for await (const page of pages) {
    const chunk = csvLines(page.map(line));
    if (chunk) yield chunk;
  }
}

/** 'registros-maracaibo-2026-11-22.csv': the day is the one on Caracas' clocks (or the zone given). */
export function exportFileName(name: string, at: Date, extension = 'csv', timeZone: string = TIME_ZONE): string {
  return `${name}-${dateInTimeZone(at, timeZone)}.${extension}`;
}

/** An export ready to send: its file name and its lines, read as the client reads them. */
export interface CsvExport {
  fileName: string;
  lines: AsyncIterable<string> | Iterable<string>;
}

export interface AuditedCsvExport<Row> {
  /**
   * The export's audit row (who took which data, and how many): stored in its own change before the
   * first line is read. A function reads in that change (a count of the rows as the export starts).
   */
  audit: AuditEntry | ((trx: Kysely<Database>) => Promise<AuditEntry>);
  /** The file's name before its date ('auditoria'), and the instant that dates it. */
  name: string;
  at: Date;
  /** The zone of the date in the file's name: Caracas unless told. */
  timeZone?: string;
  header: CsvValue[];
  pages: AsyncIterable<Row[]> | Iterable<Row[]>;
  line: (row: Row) => CsvValue[];
}

/**
 * An export's audit row, in its own change (docs/decisions/072), stored before the file is read: the
 * evidence package's ZIP writes it so, and every CSV export through auditedCsvExport.
 */
export function writeExportAudit(
  db: Kysely<Database>,
  audit: AuditEntry | ((trx: Kysely<Database>) => Promise<AuditEntry>),
): Promise<void> {
  return runChange(db, async (change) => change.audit(typeof audit === 'function' ? await audit(change.trx) : audit));
}

/** Stores the export's audit row, then gives the file to send: nothing leaves that the log does not name. */
export async function auditedCsvExport<Row>(db: Kysely<Database>, spec: AuditedCsvExport<Row>): Promise<CsvExport> {
  await writeExportAudit(db, spec.audit);
  return {
    fileName: exportFileName(spec.name, spec.at, 'csv', spec.timeZone),
    lines: csvFile(spec.header, spec.pages, spec.line),
  };
}

/** An attachment's headers: its type and its file name. */
export function attachment(reply: FastifyReply, fileName: string, type = 'text/csv; charset=utf-8'): FastifyReply {
  return reply.type(type).header('content-disposition', `attachment; filename="${fileName}"`);
}

/**
 * Sends an export as the client reads it. A failure half-way is logged and cuts the download short:
 * the client sees a broken transfer, never a file that looks whole.
 */
export function sendExport(request: FastifyRequest, reply: FastifyReply, csv: CsvExport): FastifyReply {
  const stream = Readable.from(csv.lines);
  stream.on('error', (error) => request.log.error({ err: error, file: csv.fileName }, 'export failed'));
  // A stream is sent as is; the route's schema documents what it carries.
  return attachment(reply, csv.fileName).send(stream as unknown as string);
}
