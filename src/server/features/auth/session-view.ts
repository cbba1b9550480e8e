import type { Kysely } from 'kysely';
import { lastPurgeAt } from '#server/core/records/purge-hold';
import { menuFor } from '#server/platform/access/access.service';
import { createAccessCache } from '#server/platform/cache/cache';
import type { Database } from '#server/platform/db/schema';
import type { SessionUser } from '#server/platform/session/identity';
import type { Settings } from '#server/platform/settings/settings.repository';
import { type MenuEntry, type Session, sessionSchema } from '#shared/platform/session';

const NO_MENU: readonly MenuEntry[] = Object.freeze([]);

function viewOf(user: SessionUser | null, menu: readonly MenuEntry[], logoutRoute: string): Session {
  const mustChangePassword = user?.mustChangePassword === true;
  const secondFactor = user?.secondFactor ?? null;
  // A one-time password opens nothing but the form to change it; an owed second factor, nothing but its form.
  const closed = mustChangePassword || secondFactor !== null;
  return {
    user: user
      ? { email: user.email, role: user.role, mustChangePassword, ...(secondFactor ? { secondFactor } : {}) }
      : null,
    menu: closed ? [] : [...menu],
    home: closed ? null : (menu[0]?.path ?? null),
    logoutRoute,
  };
}

/** The session as the browser sees it: who, which departments, where to go; and where a sign-out goes. */
export function createSessionViews(
  db: Kysely<Database>,
  deps: { provider: 'local' | 'firebase'; readSettings: () => Promise<Settings> },
) {
  // The session check runs on every page load: its answer, serialised, is kept per user while nothing
  // about access changes (cache.ts).
  const sessionBodies = createAccessCache<string>(db);

  /** With Firebase, passwords are not ours: a one-time password flag left from local sign-in means nothing. */
  const seenUser = (user: SessionUser | null): SessionUser | null =>
    user?.mustChangePassword && deps.provider !== 'local' ? { ...user, mustChangePassword: false } : user;

  return {
    /** The session of `user` after a sign-in, a code or a new password. */
    async view(user: SessionUser | null): Promise<Session> {
      const [menu, settings] = await Promise.all([user ? menuFor(db, user) : NO_MENU, deps.readSettings()]);
      return viewOf(seenUser(user), menu, settings.logoutRoute);
    },

    /** Where the browser goes after a sign-out (the settings' logout route). */
    async logoutRoute(): Promise<string> {
      return (await deps.readSettings()).logoutRoute;
    },

    /** The session check's answer, serialised, kept while nothing it depends on changes. */
    async current(requestUser: SessionUser | null): Promise<string> {
      const user = seenUser(requestUser);
      const { logoutRoute } = await deps.readSettings();
      const purgedAt = user ? await lastPurgeAt(db) : null;
      const variant = `${user?.email ?? ''} ${user?.role ?? ''} ${user?.mustChangePassword === true} ${user?.secondFactor ?? ''} ${logoutRoute} ${purgedAt ?? ''}`;
      return sessionBodies(variant, async () => {
        const menu = user ? await menuFor(db, user) : NO_MENU;
        const view = viewOf(user, menu, logoutRoute);
        return JSON.stringify(sessionSchema.parse(purgedAt ? { ...view, personalDataPurgedAt: purgedAt } : view));
      });
    },
  };
}
export type SessionViews = ReturnType<typeof createSessionViews>;
