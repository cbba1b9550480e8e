import type { Session } from '#shared/platform/session';
import { readLocal as read, writeLocal as write } from '#web/platform/lib/local-storage';

/*
 * The last session the server confirmed on this phone, and the campaign's name, kept in localStorage so
 * that the frame (navbar, menu, title) still shows who is signed in when the server cannot be asked: a
 * validator in a field with no signal is not signed out. Forgotten as soon as the server says nobody is
 * signed in (docs/decisions/061).
 */

const SESSION_KEY = 'comando-sesion-conocida';
const CAMPAIGN_KEY = 'comando-campana';

/** Keeps the session the server just confirmed (someone signed in), or forgets it (null). */
export function rememberSession(session: Session | null): void {
  write(SESSION_KEY, session?.user ? JSON.stringify(session) : null);
}

/** The session last confirmed here, if someone was signed in and the server has not said otherwise since. */
export function rememberedSession(): Session | null {
  try {
    const session = JSON.parse(read(SESSION_KEY) ?? 'null') as Session | null;
    return session?.user ? session : null;
  } catch {
    return null;
  }
}

export const rememberCampaignName = (name: string): void => write(CAMPAIGN_KEY, name);
export const rememberedCampaignName = (): string | null => read(CAMPAIGN_KEY);
