import { readLocal as read, writeLocal as write } from '#web/platform/lib/local-storage';
/*
 * Small facts kept in localStorage, readable at once by the app's layout and start page without
 * loading the outbox (IndexedDB) code: public pages must stay light.
 */

/** How many items wait on this phone (absent: none). Written by the outbox. */
export const UNSENT_HINT_KEY = 'comando-envios-pendientes';
const OWNER_KEY = 'comando-validador';
const DEPARTMENT_KEY = 'comando-ultimo-municipio';
const ENDED_KEY = 'comando-sesion-terminada';
const PURGE_KEY = 'comando-borrado-visto';

/** Whether the outbox said items wait on this phone. */
export const hasUnsentHint = (): boolean => Number(read(UNSENT_HINT_KEY) ?? 0) > 0;

/**
 * The last person signed in on this phone: whose a vote taken without a connection is (the session
 * cannot be asked then), and whose items /envios shows meanwhile. Forgotten at sign-out and as soon as
 * the phone learns the session ended.
 */
export const rememberOwner = (email: string | null): void => write(OWNER_KEY, email);
export const rememberedOwner = (): string | null => read(OWNER_KEY);

/** The last department opened here: where the installed app starts when the session cannot be asked. */
export const rememberDepartment = (slug: string | null): void => write(DEPARTMENT_KEY, slug);
export const lastDepartment = (): string | null => read(DEPARTMENT_KEY);

/**
 * A session ended without 'Cerrar sesión' (an admin, a password reset, expiry) while items of its person
 * waited here: how many, for /login to say they are kept. Forgotten at the next sign-in.
 */
export const rememberEndedWithWaiting = (count: number | null): void =>
  write(ENDED_KEY, count && count > 0 ? String(count) : null);
export const endedWithWaiting = (): number => Number(read(ENDED_KEY) ?? 0);

/**
 * The last 'Borrar datos personales' this phone learnt of from the session (decision 093): a different
 * one means the lists it kept hold names and phones the server no longer has, so they go.
 */
export const rememberPurgeSeen = (purgedAt: string | null): void => write(PURGE_KEY, purgedAt);
export const purgeSeen = (): string | null => read(PURGE_KEY);
