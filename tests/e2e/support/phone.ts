import { type BrowserContext, chromium } from '@playwright/test';
import config from '../../../playwright.config';
import { E2E_SERVERS } from './servers';

/**
 * A validator's phone: its size, touch, and the app's service worker, which every other browser of the
 * suite goes without (playwright.config.ts, docs/decisions/142).
 */
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, serviceWorkers: 'allow' } as const;

/**
 * Chromium with a profile on disk, so IndexedDB, the service worker and the session cookie survive a
 * closed browser, as on a phone. Same browser and flags as every other spec (playwright.config.ts).
 * `baseURL`: where the phone reaches the app (a test's bad-network proxy); its data belongs to that origin.
 */
export function launchPhone(
  profile: string,
  { offline = false, baseURL = E2E_SERVERS.main.url }: { offline?: boolean; baseURL?: string } = {},
): Promise<BrowserContext> {
  const launch = config.use?.launchOptions ?? {};
  return chromium.launchPersistentContext(profile, {
    executablePath: launch.executablePath,
    args: launch.args,
    baseURL,
    locale: config.use?.locale,
    timezoneId: config.use?.timezoneId,
    offline,
    ...PHONE,
  });
}
