import { useSyncExternalStore } from 'react';
import { MOBILE_BREAKPOINT_PX, SCROLL_THRESHOLD_PX } from '#shared/platform/constants';

/** The spec's mobile flag as a media query: window width under 1100 px. */
export const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

function subscribeToScroll(onChange: () => void) {
  window.addEventListener('scroll', onChange, { passive: true });
  return () => window.removeEventListener('scroll', onChange);
}

/**
 * The spec's scrolled flag: true once the page is scrolled more than 1 px. A page rendered by the server
 * (and its hydration) starts unscrolled; React then reads the real position.
 */
export function useIsScrolled(): boolean {
  return useSyncExternalStore(
    subscribeToScroll,
    () => window.scrollY > SCROLL_THRESHOLD_PX,
    () => false,
  );
}

function subscribeToMobile(onChange: () => void) {
  const query = window.matchMedia(MOBILE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The spec's mobile flag for what only scripts decide (how many toasts fit); layout uses the media query. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(
    subscribeToMobile,
    () => window.matchMedia(MOBILE_QUERY).matches,
    () => false,
  );
}
