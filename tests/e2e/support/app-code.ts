import { type BrowserContext, test as base } from '@playwright/test';

/**
 * The app's code: every script the build wrote under /assets/ but the public pages' own one. The public
 * pages must work the same without it (docs/decisions/065).
 */
export const isAppCode = (address: string | URL): boolean => {
  const { pathname } = new URL(address);
  return pathname.startsWith('/assets/') && pathname.endsWith('.js') && !pathname.includes('/pagina-publica-');
};

/** Every request for the app's code from this context fails, as on a link that drops it. */
export async function blockAppCode(context: BrowserContext): Promise<void> {
  await context.route(isAppCode, (route) => route.abort());
}

/**
 * The end-to-end `test`, with an option the `chromium-sin-app` project sets: the public pages' tests tagged
 * @publica run there again with the app's code blocked.
 */
export const test = base.extend<{ withoutAppCode: boolean }>({
  withoutAppCode: [false, { option: true }],
  context: async ({ context, withoutAppCode }, use) => {
    if (withoutAppCode) await blockAppCode(context);
    await use(context);
  },
});
