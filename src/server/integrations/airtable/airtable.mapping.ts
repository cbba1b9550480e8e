import { departmentKey, foldText, quoteValue } from '#server/platform/lib/text';
import { agendaAdminMessages, hour24Schema, isIsoDate } from '#shared/features/agenda/agenda.admin';
import { PHOTO_KINDS, type PhotoKind } from '#shared/platform/constants';
import { type RecordFields, recordFieldsSchema } from '#shared/platform/record-fields';
import type { AirtableRecord } from './airtable.client';

/** What Comando keeps in `source_id` for a row that came from Airtable: `airtable:rec…`. */
export const AIRTABLE_SOURCE_PREFIX = 'airtable:';
export const airtableSourceId = (recordId: string) => `${AIRTABLE_SOURCE_PREFIX}${recordId}`;

/** A row of the records table (Zulia), checked and ready for Comando. */
export interface AirtableRecordRow {
  airtableId: string;
  sourceId: string;
  departmentId: number;
  fields: RecordFields;
  /** Candidate codes of the vote Airtable already has (`voto`), or null when it has none. */
  voteCodes: string[] | null;
  /** Photo links Airtable has, by ballot. */
  photos: Partial<Record<PhotoKind, string>>;
  /** Problems with a part of the row (a photo link that is not a link); the rest is imported. */
  warnings: string[];
}

export interface AirtableAgendaRow {
  airtableId: string;
  sourceId: string;
  fecha: string;
  hora24h: string | null;
  descripcion: string | null;
  lugar: string | null;
}

export type Mapped<T> = { ok: true; row: T } | { ok: false; reason: string };

/** Our field names as the Airtable table spells them, for the reasons in the report. */
const AIRTABLE_FIELD_NAMES: Record<keyof RecordFields, string> = {
  comunidad: 'Comunidades',
  nombre: 'Nombre',
  ubch: 'UBCH',
  telefono: 'Telefono',
};

/**
 * A cell as text. Airtable sends text as strings, numbers (a phone typed in a number field) as
 * numbers, and lookups or multiple choices as arrays; `undefined` means the cell is empty, `null`
 * that it holds something that is not text (an object, an error of a formula field).
 */
export function cellText(value: unknown): string | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.map(String).join(', ').trim() || undefined;
  }
  return null;
}

/** `voto` as candidate codes: 'FA, lc' or ['FA', 'LC'] give ['FA', 'LC']; null when there is none. */
export function voteCodesOf(value: unknown): string[] | null {
  const text = cellText(value);
  if (!text) return null;
  const codes = [
    ...new Set(
      text
        .split(',')
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean),
    ),
  ];
  return codes.length > 0 ? codes : null;
}

/**
 * A photo cell as one link: a URL string (the original app's shared links) or an attachment field
 * (`[{ url, filename }]`, the first attachment). A Dropbox shared link is turned into its direct
 * download (`dl=1`): `dl=0` opens a web page, not the picture.
 */
export function photoLinkOf(value: unknown): { url: string } | { problem: string } | undefined {
  let candidate: unknown = value;
  if (Array.isArray(value)) {
    if (value.length === 0) return undefined;
    candidate = (value[0] as { url?: unknown } | null)?.url;
  }
  if (candidate === undefined || candidate === null) return undefined;
  if (typeof candidate !== 'string') return { problem: 'no es un enlace ni un adjunto' };
  const text = candidate.trim();
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `${quoteValue(text)} no es un enlace` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { problem: `${quoteValue(text)} no es un enlace web` };
  if (/(^|\.)dropbox\.com$/i.test(url.hostname) && url.searchParams.get('dl') === '0') url.searchParams.set('dl', '1');
  return { url: url.toString() };
}

/** The municipalities by slug and by title, as `rephrase` may name them. */
export function departmentIndex(
  departments: { id: number; slug: string; title: string }[],
): Map<string, { id: number; slug: string; title: string }> {
  const index = new Map<string, { id: number; slug: string; title: string }>();
  for (const d of departments) {
    index.set(departmentKey(d.title), d);
    index.set(d.slug, d);
  }
  return index;
}

/**
 * One row of the records table, checked as the back office checks a record (name required, a phone
 * with 7 to 15 digits, lengths), in a known municipality (`rephrase`) and still pending. Anything else
 * is skipped with the reason.
 */
export function mapRecordRow(
  record: AirtableRecord,
  departments: Map<string, { id: number; slug: string; title: string }>,
): Mapped<AirtableRecordRow> {
  const f = record.fields;
  const status = cellText(f.status);
  if (status === null) return { ok: false, reason: 'status no es texto' };
  if (status && foldText(status) !== 'pendiente') {
    return { ok: false, reason: `status ${quoteValue(status)}: solo se importan los trámites pendientes` };
  }
  const slug = cellText(f.rephrase);
  if (!slug) return { ok: false, reason: 'sin municipio (rephrase vacío)' };
  const department = departments.get(departmentKey(slug));
  if (!department) return { ok: false, reason: `municipio desconocido: rephrase ${quoteValue(slug)}` };

  const raw: Record<keyof RecordFields, unknown> = {
    comunidad: cellText(f.Comunidades),
    nombre: cellText(f.Nombre),
    ubch: cellText(f.UBCH),
    telefono: cellText(f.Telefono),
  };
  for (const [key, value] of Object.entries(raw)) {
    if (value === null) {
      return { ok: false, reason: `${AIRTABLE_FIELD_NAMES[key as keyof RecordFields]}: no es texto` };
    }
  }
  const parsed = recordFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = AIRTABLE_FIELD_NAMES[issue?.path[0] as keyof RecordFields] ?? 'fila';
    return { ok: false, reason: `${field}: ${issue?.message ?? 'valor inválido'}` };
  }

  const photos: Partial<Record<PhotoKind, string>> = {};
  const warnings: string[] = [];
  for (const kind of PHOTO_KINDS) {
    const link = photoLinkOf(f[kind]);
    if (!link) continue;
    if ('url' in link) photos[kind] = link.url;
    else warnings.push(`foto ${kind}: ${link.problem}`);
  }
  return {
    ok: true,
    row: {
      airtableId: record.id,
      sourceId: airtableSourceId(record.id),
      departmentId: department.id,
      fields: parsed.data,
      voteCodes: voteCodesOf(f.voto),
      photos,
      warnings,
    },
  };
}

/** One row of the agenda table: a real day (YYYY-MM-DD), an optional 24-hour time, description and place. */
export function mapAgendaRow(record: AirtableRecord): Mapped<AirtableAgendaRow> {
  const f = record.fields;
  const fecha = cellText(f.fecha);
  if (!fecha || !isIsoDate(fecha)) {
    return { ok: false, reason: `fecha ${fecha ? quoteValue(fecha) : 'vacía'}: ${agendaAdminMessages.badDate}` };
  }
  const horaText = cellText(f.hora_24h);
  let hora24h: string | null = null;
  if (horaText) {
    const hora = hour24Schema.safeParse(horaText);
    if (!hora.success) return { ok: false, reason: `hora_24h ${quoteValue(horaText)}: ${agendaAdminMessages.badTime}` };
    hora24h = hora.data;
  }
  const descripcion = cellText(f.descripcion);
  const lugar = cellText(f.lugar);
  if (descripcion === null) return { ok: false, reason: 'descripcion no es texto' };
  if (lugar === null) return { ok: false, reason: 'lugar no es texto' };
  if (descripcion && descripcion.length > 500) return { ok: false, reason: agendaAdminMessages.descriptionTooLong };
  if (lugar && lugar.length > 300) return { ok: false, reason: agendaAdminMessages.placeTooLong };
  return {
    ok: true,
    row: {
      airtableId: record.id,
      sourceId: airtableSourceId(record.id),
      fecha,
      hora24h,
      descripcion: descripcion ?? null,
      lugar: lugar ?? null,
    },
  };
}
