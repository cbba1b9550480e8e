import { atClock } from '#shared/platform/format';

/**
 * What every staff page says about the day (the navbar, validators' pages, the projector), apart from the
 * election's schemas so the app's first load does not carry zod for it (docs/decisions/096).
 */
/** The election day's phases (docs/decisions/078), in the order the day goes through them. */
export const ELECTION_PHASES = ['preparacion', 'simulacro', 'en_curso', 'cerrada'] as const;
export type ElectionPhase = (typeof ELECTION_PHASES)[number];

export const ELECTION_PHASE_LABELS: Record<ElectionPhase, string> = {
  preparacion: 'Preparación',
  simulacro: 'Simulacro',
  en_curso: 'En curso',
  cerrada: 'Cerrada',
};

/** Minutes before a close set in advance from which validators are warned that it is near. */
export const CLOSE_WARNING_MINUTES = 15;

/**
 * 'faltan 25 min', 'faltan 2 h 5 min', 'falta 1 min', 'falta menos de 1 min': the time left before the close,
 * in whole minutes rounded up (a countdown never says 0 while the day is still open).
 */
export function timeLeft(msLeft: number): string {
  if (msLeft < 60_000) return 'falta menos de 1 min';
  const minutes = Math.ceil(msLeft / 60_000);
  if (minutes === 1) return 'falta 1 min';
  if (minutes < 60) return `faltan ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `faltan ${hours} h${rest ? ` ${rest} min` : ''}`;
}

export const dayMessages = {
  /** 'La jornada cerró a las 6:00 p. m.', the time as the app writes every time (its 'p. m.' ends the sentence). */
  closedAt: (closedAt: string) => `La jornada cerró ${atClock(new Date(closedAt))}`,
  /** 'La jornada cierra a las 6:00 p. m. — faltan 25 min': where validators, the navbar and the projector look. */
  closesIn: (closesAt: string, msLeft: number) =>
    `La jornada cierra ${atClock(new Date(closesAt))} — ${timeLeft(msLeft)}`,
  closed: 'Jornada cerrada',
  /** Under the countdown once the close is near (CLOSE_WARNING_MINUTES). */
  closeNear: 'Quedan pocos minutos: registra ya los votos y fotos que te falten.',
  /** Under 'Jornada cerrada' on a validator's page. */
  closedForValidators:
    'Ya no se reciben votos ni fotos nuevos. Lo que este teléfono guardó antes del cierre se sigue enviando.',
  preparingShort: 'Jornada en preparación: todavía no se reciben votos ni fotos.',
  /** Under the day on a validator's page while the phone has no connection: how old what it shows is. */
  lastHeard: (at: Date) => `Sin conexión: la jornada como estaba ${atClock(at)}`,
  underWay: 'Jornada en curso',
} as const;
