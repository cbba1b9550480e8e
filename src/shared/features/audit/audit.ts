import { departmentSlugSchema } from '#shared/platform/access';
import { EMAIL_MAX_LENGTH } from '#shared/platform/email';
import { formatCount } from '#shared/platform/format';
import { optionalFilter } from '#shared/platform/query';
import { z } from '#shared/platform/zod-spanish';

export const auditMessages = {
  badDate: 'La fecha debe tener el formato AAAA-MM-DD.',
  dateOrder: 'La fecha inicial no puede ser posterior a la final.',
} as const;

export const AUDIT_PAGE_SIZE = 50;

/** A real calendar date, YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

const isoDateFilter = optionalFilter(z.string().refine(isIsoDate, auditMessages.badDate));

const auditFilterFields = {
  /** Part of the e-mail of who acted or of whom it was done to. */
  person: optionalFilter(z.string().trim().max(EMAIL_MAX_LENGTH)),
  /** An exact action ('user.create'), or a family ending in '*' ('user*'). */
  action: optionalFilter(
    z
      .string()
      .max(100)
      .regex(/^[a-z_.]+\*?$/, 'La acción no es válida.'),
  ),
  department: optionalFilter(departmentSlugSchema),
  /** Calendar dates in the campaign's time zone, both included. */
  from: isoDateFilter,
  to: isoDateFilter,
};

const datesInOrder = (v: { from?: string | undefined; to?: string | undefined }) => !v.from || !v.to || v.from <= v.to;

export const auditFiltersSchema = z
  .object(auditFilterFields)
  .refine(datesInOrder, { message: auditMessages.dateOrder, path: ['to'] });
export type AuditFilters = z.input<typeof auditFiltersSchema>;

export const auditQuerySchema = z
  .object({ ...auditFilterFields, page: z.coerce.number().int().min(1).max(100_000).default(1) })
  .refine(datesInOrder, { message: auditMessages.dateOrder, path: ['to'] });
export type AuditQuery = Omit<z.input<typeof auditQuerySchema>, 'page'> & { page?: number };

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  departmentSlug: z.string().nullable(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** The filter 'Datos personales': every look at names and phones (decision 081). */
export const PERSONAL_DATA_FILTER = 'personal_data';
/** The actions that always touch names or phones; the validated records' CSV is added by its target. */
export const PERSONAL_DATA_ACTIONS = ['record.phone_shown', 'records.export', 'records.purge'] as const;
/** The download of Resultados that names people (the validated records' CSV). */
export const PERSONAL_DATA_DOWNLOAD = 'validated.csv';

/**
 * Families of actions, for the filter: the value matches every action that starts with its prefix;
 * 'Datos personales' matches the actions above.
 */
export const AUDIT_ACTION_FAMILIES = [
  { value: PERSONAL_DATA_FILTER, label: 'Datos personales' },
  { value: 'auth*', label: 'Sesiones' },
  { value: 'user*', label: 'Personas' },
  { value: 'access*', label: 'Acceso a departamentos' },
  { value: 'department*', label: 'Departamentos' },
  { value: 'candidate*', label: 'Candidatos' },
  { value: 'setting*', label: 'Ajustes' },
  { value: 'record*', label: 'Trámites' },
  { value: 'photo*', label: 'Fotos' },
  { value: 'results*', label: 'Resultados' },
  { value: 'agenda*', label: 'Agenda' },
  { value: 'nota*', label: 'Notas' },
  { value: 'audit*', label: 'Auditoría' },
  { value: 'evidence*', label: 'Evidencias' },
  { value: 'airtable*', label: 'Airtable' },
  { value: 'election*', label: 'Jornada' },
] as const;

/** Every action the server writes, in words (a test keeps this list complete). */
export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'auth.login': 'Inicio de sesión',
  'auth.login_failed': 'Inicio de sesión fallido',
  'auth.login_throttled': 'Inicio de sesión bloqueado por intentos',
  'auth.logout': 'Cierre de sesión',
  'auth.logout_all': 'Cierre de sesión en todos los dispositivos',
  'auth.session_end': 'Sesión cerrada desde Sesiones abiertas',
  'auth.password_change': 'Contraseña propia cambiada',
  'auth.second_factor': 'Segundo factor verificado',
  'auth.second_factor_enrol': 'Segundo factor configurado',
  'user.create': 'Cuenta creada',
  'user.password': 'Contraseña restablecida',
  'user.disable': 'Cuenta desactivada',
  'user.enable': 'Cuenta activada',
  'user.role': 'Rol cambiado',
  'user.sessions_end': 'Sesiones cerradas en todos los dispositivos',
  'user.second_factor_reset': 'Segundo factor restablecido',
  'user.sms_phones': 'Números para SMS cambiados',
  'access.grant': 'Acceso concedido',
  'access.revoke': 'Acceso retirado',
  'review.grant': 'Revisor nombrado',
  'review.revoke': 'Revisor retirado',
  'photo.review': 'Foto revisada',
  'department.create': 'Departamento creado',
  'department.update': 'Departamento editado',
  'candidate.create': 'Candidato creado',
  'candidate.update': 'Candidato editado',
  'candidate.photo': 'Foto de candidato cambiada',
  'candidate.delete': 'Candidato borrado',
  'setting.update': 'Ajuste cambiado',
  'record.create': 'Trámite agregado',
  'record.update': 'Trámite editado',
  'record.phone_shown': 'Teléfono mostrado',
  'records.purge': 'Datos personales borrados',
  'records.new_day': 'Jornada nueva tras el borrado',
  'record.void': 'Trámite anulado',
  'record.restore': 'Trámite restaurado',
  'record.vote': 'Voto registrado',
  'record.vote.correct': 'Voto corregido',
  'records.import': 'Importación de trámites (CSV)',
  'records.export': 'Exportación de trámites (CSV)',
  'photo.upload': 'Foto de boleta cargada',
  'photo.replace': 'Foto de boleta reemplazada',
  'results.download': 'Descarga de resultados',
  'agenda.create': 'Evento de agenda creado',
  'agenda.update': 'Evento de agenda editado',
  'agenda.delete': 'Evento de agenda borrado',
  'agenda.copy': 'Agenda copiada a otro día',
  'nota.create': 'Nota creada',
  'nota.update': 'Nota editada',
  'nota.publish': 'Nota publicada',
  'nota.unpublish': 'Nota retirada',
  'nota.delete': 'Nota borrada',
  'audit.export': 'Exportación de auditoría',
  'evidence.key': 'Clave de los paquetes de evidencias',
  'evidence.export': 'Paquete de evidencias descargado',
  'airtable.import': 'Importación desde Airtable',
  'field.clear': 'Aviso de envíos atascados quitado',
  'election.phase': 'Fase de la jornada cambiada',
  'election.reopen': 'Jornada reabierta',
  'election.close_time': 'Hora de cierre o gracia cambiada',
  'election.drill_end': 'Simulacro terminado y borrado',
  'database.epoch': 'Base de datos restaurada de una copia (época nueva)',
  'backup.taken': 'Copia de seguridad tomada',
  'election.drill_accounts': 'Cuentas de ensayo creadas para el simulacro',
};

/** An action in words; an action unknown to this version (written by a newer one) reads as itself. */
export const auditActionLabel = (action: string) => AUDIT_ACTION_LABELS[action] ?? action;

/** An entry's action in words, saying how a vote came when it came by SMS ('Voto registrado por SMS'). */
export function auditEntryTitle(entry: { action: string; details: string | null }): string {
  const label = auditActionLabel(entry.action);
  if (entry.action !== 'record.vote' || !entry.details) return label;
  try {
    return (JSON.parse(entry.details) as { channel?: unknown }).channel === 'sms' ? `${label} por SMS` : label;
  } catch {
    return label;
  }
}

/** The settings as the Ajustes screen names them. */
const SETTING_LABELS: Record<string, string> = {
  campaign_name: 'Nombre de la campaña',
  leader_name: 'Nombre del líder',
  results_denominator: 'Denominador de resultados',
  logout_route: 'Ruta al cerrar sesión',
  photo_max_bytes: 'Tamaño máximo de foto',
};

const dayOf = (iso: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
};

/**
 * What an action was done to, in words: 'Trámite 902', 'Persona ana@…', 'Archivo x.csv'. The stored
 * target is a code (`record:902`, `agenda:12`, an e-mail, a slug, a file name); `departmentTitle` names a
 * department's slug.
 */
export function auditTargetLabel(
  action: string,
  target: string,
  departmentTitle: (slug: string) => string | undefined = () => undefined,
): string {
  const [kind, rest = ''] = target.includes(':')
    ? [target.slice(0, target.indexOf(':')), target.slice(target.indexOf(':') + 1)]
    : [target];
  switch (kind) {
    case 'record':
      return `Trámite ${rest}`;
    case 'nota':
      return `Nota ${rest}`;
    case 'airtable':
      return `Base de Airtable ${rest}`;
    case 'agenda': {
      const [from, to] = rest.split('>');
      return to ? `Agenda del ${dayOf(from ?? '')} al ${dayOf(to)}` : `Evento de agenda ${rest}`;
    }
  }
  const family = action.split('.')[0];
  if (family === 'election') return 'Jornada';
  if (target.includes('@') || family === 'user' || family === 'auth') return `Persona ${target}`;
  if (family === 'candidate') return `Candidato ${target}`;
  if (family === 'setting') return `Ajuste: ${SETTING_LABELS[target] ?? target}`;
  if (family === 'department' || family === 'access') return `Departamento ${departmentTitle(target) ?? target}`;
  return `Archivo ${target}`;
}

/** The words for the keys of an audit row's details (a test keeps this list complete). */
export const AUDIT_DETAIL_LABELS: Record<string, string> = {
  fingerprint: 'Huella',
  keyFingerprint: 'Huella de la clave',
  source: 'Origen',
  before: 'Antes',
  after: 'Después',
  fields: 'Campos',
  changed: 'Campos cambiados',
  personalData: 'Datos personales',
  photoFiles: 'Archivos de fotos',
  session: 'Sesión',
  current: 'Esta misma sesión',
  keptAnswers: 'Respuestas guardadas para reintentos',
  recoveryCode: 'Con código de recuperación',
  recoveryCodesLeft: 'Códigos de recuperación restantes',
  secondFactor: 'Segundo factor pendiente',
  from: 'De',
  to: 'A',
  reason: 'Motivo',
  candidates: 'Candidatos',
  votedBy: 'Votado por',
  voted: 'Tenía voto',
  voteCounts: 'Su voto sigue contando',
  voteCountsAgain: 'Su voto vuelve a contar',
  department: 'Municipio o parroquia',
  comunidad: 'Comunidad',
  nombre: 'Nombre',
  ubch: 'UBCH',
  telefono: 'Teléfono',
  status: 'Estado',
  fecha: 'Fecha',
  hora24h: 'Hora',
  descripcion: 'Descripción',
  lugar: 'Lugar',
  copied: 'Copiados',
  items: 'Envíos quitados',
  skipped: 'Omitidos',
  sessionsEnded: 'Sesiones cerradas',
  sessionsRevoked: 'Sesiones cerradas',
  devicesForgotten: 'Navegadores que dejaron de ser de confianza',
  blockedUntil: 'Bloqueado hasta',
  device: 'Navegador',
  provider: 'Servicio de inicio de sesión',
  oneTimePassword: 'Contraseña de un solo uso',
  role: 'Rol',
  fileName: 'Archivo',
  bytes: 'Tamaño (bytes)',
  encoding: 'Codificación',
  separator: 'Separador',
  rows: 'Filas',
  cause: 'Causa',
  restoredUntil: 'La copia llegaba hasta',
  missingPhotos: 'Fotos que faltaban',
  count: 'Cuántos',
  smsMessages: 'Mensajes SMS borrados',
  sharedLinks: 'Enlaces públicos de fotos',
  sharedLinksLeft: 'Enlaces públicos que quedaron',
  purges: 'Borrados de datos personales que terminó',
  imported: 'Importados',
  duplicatesInFile: 'Repetidos en el archivo',
  duplicatesInDatabase: 'Ya registrados',
  omittedWithErrors: 'Omitidos por errores',
  byDepartment: 'Por municipio o parroquia',
  kind: 'Foto',
  photoId: 'Foto n.º',
  replacedPhotoId: 'Reemplaza la foto n.º',
  sameImageAsRecord: 'Misma imagen que el trámite',
  sha256: 'Huella SHA-256',
  sizeBytes: 'Tamaño (bytes)',
  contentType: 'Tipo de archivo',
  width: 'Ancho (px)',
  height: 'Alto (px)',
  name: 'Nombre',
  colour: 'Color',
  code: 'Código',
  position: 'Posición',
  title: 'Título',
  records: 'Trámites',
  agenda: 'Agenda',
  table: 'Tabla',
  read: 'Leídos',
  created: 'Creados',
  updated: 'Actualizados',
  unchanged: 'Sin cambios',
  votes: 'Votos',
  photos: 'Fotos',
  files: 'Archivos',
  closedAt: 'Cerró',
  closesAt: 'Cierre previsto',
  graceHours: 'Horas de gracia',
  late: 'Llegó después del cierre',
  channel: 'Por',
  drill: 'Del simulacro',
  warnings: 'Avisos',
  filterByFormula: 'Fórmula de filtro',
  action: 'Acción',
  person: 'Persona',
  page: 'Página',
  accounts: 'Cuentas de ensayo borradas',
  smsPhones: 'Con móvil para SMS',
  departmentsUsed: 'Municipios o parroquias',
  verdicts: 'Veredictos',
  verdict: 'Veredicto',
  note: 'Nota',
  reopened: 'Foto pedida de nuevo',
  reviewed: 'Revisado',
};

/** Values written as codes in the details, in words. */
const AUDIT_DETAIL_VALUES: Record<string, string> = {
  wrong_password: 'contraseña equivocada',
  unknown_email: 'correo desconocido',
  disabled: 'cuenta desactivada',
  invalid_token: 'credencial de Firebase no válida',
  password_change: 'cambio de contraseña',
  known: 'de confianza',
  firebase: 'Firebase Auth',
  sms: 'SMS',
  preparacion: 'Preparación',
  simulacro: 'Simulacro',
  en_curso: 'En curso',
  cerrada: 'Cerrada',
  conforme: 'Conforme',
  ilegible: 'Ilegible',
  no_corresponde: 'No corresponde',
};

/** A key of the details in words; a key unknown to this version (written by a newer one) reads as itself. */
export const auditDetailLabel = (key: string) => AUDIT_DETAIL_LABELS[key] ?? key;

/** Keys whose numbers are ids, written as the rest of the log writes them (no thousands dot). */
const ID_KEYS = new Set(['photoId', 'replacedPhotoId', 'sameImageAsRecord']);

/** A plain value of the details in words: yes/no, nothing, a list, a count, a code the server writes. */
export function auditDetailValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (value === true) return 'Sí';
  if (value === false) return 'No';
  if (Array.isArray(value))
    return value.length === 0 ? 'ninguno' : value.map((v) => auditDetailValue(key, v)).join(', ');
  if (typeof value === 'number') return ID_KEYS.has(key) ? String(value) : formatCount(value);
  if (typeof value === 'string') return AUDIT_DETAIL_VALUES[value] ?? value;
  return String(value);
}
