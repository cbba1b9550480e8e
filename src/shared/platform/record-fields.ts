import { formatCount } from '#shared/platform/format';
import { z } from '#shared/platform/zod-spanish';

/*
 * The fields of a record as people type them (the back office's form) and as files bring them (the CSV
 * import, Airtable): one set of rules for every way a record comes in.
 */

/** Limits of the fields of a record, in the back office and in the CSV import. */
export const RECORD_LIMITS = { comunidad: 300, nombre: 300, ubch: 100, telefono: 60 } as const;

/** Sentences about a record's fields, shared by the API and the screens. */
export const recordFieldMessages = {
  departmentRequired: 'Elige el municipio o parroquia.',
  unknownDepartment: 'El municipio o parroquia no existe.',
  nombreRequired: 'Escribe el nombre.',
  telefonoRequired: 'Escribe el teléfono.',
  tooLong: (max: number) => `No puede tener más de ${formatCount(max)} caracteres.`,
  telefonoChars: 'El teléfono solo puede tener números, espacios, +, -, paréntesis y puntos.',
  telefonoDigits: 'El teléfono debe tener entre 7 y 15 dígitos.',
  controlChars: 'Tiene caracteres de control que no se pueden guardar.',
} as const;

/** The municipality or parish a record belongs to, by its slug. */
export const recordDepartmentSchema = z
  .string({ error: recordFieldMessages.departmentRequired })
  .trim()
  .min(1, recordFieldMessages.departmentRequired)
  .max(100, recordFieldMessages.unknownDepartment)
  .regex(/^[a-z0-9-]+$/, recordFieldMessages.unknownDepartment);

/** Which records a list or an export holds: not voided, voided, or all. */
export const recordsAdminFilterSchema = z.enum(['pendiente', 'anulado', 'todos']);
export type RecordsAdminFilter = z.infer<typeof recordsAdminFilterSchema>;

/** Characters a phone may have besides digits. */
const PHONE_CHARS = /^[\d\s+().\-/]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: this is the check for them
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export type RecordField = keyof typeof RECORD_LIMITS;

function countDigits(value: string): number {
  let digits = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  return digits;
}

/**
 * A phone as people who need no phone see it (decision 081): its last four digits, '•••• •• 12 34'.
 * The validators of the record's own department see it whole; anyone else asks 'Mostrar', audited.
 */
export function maskPhone(telefono: string): string {
  const digits = telefono.replace(/\D/g, '');
  // No phone (the purge took it, decision 093): nothing to mask, nothing to show.
  if (telefono.trim() === '') return '';
  if (digits.length < 4) return '•••• •• •• ••';
  return `•••• •• ${digits.slice(-4, -2)} ${digits.slice(-2)}`;
}

/** Whether a phone is the masked form of one: sent back unchanged from a form, it means "keep the phone". */
export const isMaskedPhone = (value: string): boolean => /^•••• •• (\d\d|••) (\d\d|••)$/.test(value.trim());

/**
 * What is wrong with one field of a record (already trimmed), or null. The rules of the form and of
 * every row of an import; written without allocating, as an import checks them 100,000 times.
 */
export function recordFieldProblem(field: RecordField, value: string): string | null {
  const max = RECORD_LIMITS[field];
  if (field === 'nombre' && value.length === 0) return recordFieldMessages.nombreRequired;
  if (field === 'telefono') {
    if (value.length === 0) return recordFieldMessages.telefonoRequired;
    if (value.length > max) return recordFieldMessages.tooLong(max);
    if (!PHONE_CHARS.test(value)) return recordFieldMessages.telefonoChars;
    const digits = countDigits(value);
    return digits >= 7 && digits <= 15 ? null : recordFieldMessages.telefonoDigits;
  }
  if (value.length > max) return recordFieldMessages.tooLong(max);
  if (CONTROL_CHARS.test(value)) return recordFieldMessages.controlChars;
  return null;
}

const fieldSchema = (field: RecordField, requiredMessage?: string) =>
  z
    .string(requiredMessage ? { error: requiredMessage } : undefined)
    .trim()
    .superRefine((value, ctx) => {
      const problem = recordFieldProblem(field, value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** The fields of a record, as the form gives them (an import checks each row with recordFieldProblem). */
export const recordFieldsSchema = z.object({
  comunidad: fieldSchema('comunidad').default(''),
  nombre: fieldSchema('nombre', recordFieldMessages.nombreRequired),
  ubch: fieldSchema('ubch').default(''),
  telefono: fieldSchema('telefono', recordFieldMessages.telefonoRequired),
});
export type RecordFields = z.infer<typeof recordFieldsSchema>;
