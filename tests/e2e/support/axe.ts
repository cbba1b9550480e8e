import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Fails on serious or critical accessibility violations, listing them readably. */
export async function expectNoSeriousA11yViolations(page: Page, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  await settleEntranceAnimations(page);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/**
 * A toast still sliding in is drawn half transparent, and axe would judge its contrast on that frame.
 * Waits for the finite animations to end, except a toast's countdown bar (it runs until the toast
 * closes); endless ones (spinners) are not waited for.
 */
async function settleEntranceAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => {
          const effect = animation.effect;
          if (!effect || effect.getComputedTiming().endTime === Number.POSITIVE_INFINITY) return false;
          const target = effect instanceof KeyframeEffect ? effect.target : null;
          return !target?.classList.contains('Toastify__progress-bar');
        })
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}
