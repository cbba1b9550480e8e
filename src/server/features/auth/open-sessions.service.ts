import Bowser from 'bowser';
import type { Kysely } from 'kysely';
import { runChange } from '#server/platform/change/change';
import type { Database } from '#server/platform/db/schema';
import { NotFound } from '#server/platform/http/errors';
import { hashToken, isTokenShaped } from '#server/platform/session/cookie-tokens';
import type { Actor, SessionUser } from '#server/platform/session/identity';
import { createAuthRepository } from '#server/platform/session/session.repository';
import { SESSION_IDLE_MS } from '#server/platform/session/session.service';
import { type OpenSessions, sessionsMessages } from '#shared/features/auth/auth';
import type { IpPlaces } from './ip-places';

const PLATFORMS: Record<string, string> = { mobile: 'teléfono', tablet: 'tableta', desktop: 'computadora' };

/** 'Chrome en Android (teléfono)': a browser's user agent in words, through bowser. */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Dispositivo desconocido';
  const { browser, os, platform } = Bowser.parse(userAgent);
  const what = [browser.name, os.name].filter(Boolean).join(' en ') || 'Navegador desconocido';
  const kind = platform.type ? PLATFORMS[platform.type] : undefined;
  return kind ? `${what} (${kind})` : what;
}

/**
 * 'Sesiones abiertas': a person sees where their account is signed in and ends any one of those
 * sessions (a lost phone, a shared computer). The last use is when the session was last kept from going
 * idle, which every request does at most once a minute (session.service.ts). The place of each IP is
 * looked up as the list is read (ip-places.ts).
 */
export function createOpenSessionsService(db: Kysely<Database>, clock: () => Date, places: IpPlaces) {
  return {
    async list(user: SessionUser, token: string | undefined): Promise<OpenSessions> {
      const now = clock();
      const current = isTokenShaped(token) ? hashToken(token) : undefined;
      const rows = await createAuthRepository(db).liveSessionsOf(user.id, now.toISOString());
      const sessions = rows.map((r) => {
        const lastUsed = Math.min(now.getTime(), Date.parse(r.idle_expires_at) - SESSION_IDLE_MS);
        return {
          id: r.id,
          device: deviceOf(r.user_agent),
          ip: r.ip,
          place: places.placeOf(r.ip),
          createdAt: r.created_at,
          lastUsedAt: new Date(Math.max(lastUsed, Date.parse(r.created_at))).toISOString(),
          current: r.token_hash === current,
        };
      });
      return { sessions, placeSource: places.source };
    },

    /** Ends one of the person's own sessions (this one too, if they ask), with its audit row. */
    async end(user: SessionUser, sessionId: number, token: string | undefined, actor: Actor): Promise<boolean> {
      const now = clock();
      const current = isTokenShaped(token)
        ? (await createAuthRepository(db).liveSessionsOf(user.id, now.toISOString())).find(
            (r) => r.token_hash === hashToken(token),
          )?.id === sessionId
        : false;
      await runChange(db, async ({ trx, audit }) => {
        if (!(await createAuthRepository(trx).deleteSessionOf(user.id, sessionId))) {
          throw NotFound(sessionsMessages.notFound);
        }
        await audit({
          actorEmail: actor.email,
          action: 'auth.session_end',
          target: user.email,
          ip: actor.ip,
          details: { session: sessionId, current },
          at: now,
        });
      });
      return current;
    },
  };
}
export type OpenSessionsService = ReturnType<typeof createOpenSessionsService>;
