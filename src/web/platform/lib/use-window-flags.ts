import { useEffect, useState } from 'react';
import { MOBILE_BREAKPOINT_PX, SCROLL_THRESHOLD_PX } from '#shared/platform/constants';

const mobileQuery = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;

/** The spec's mobile flag: window width under 1100 px. */
export function useIsMobile(): boolean {
  const [isMobile, setIsMobile] = useState(() => window.matchMedia(mobileQuery).matches);
  useEffect(() => {
    const mql = window.matchMedia(mobileQuery);
    const onChange = () => setIsMobile(mql.matches);
    mql.addEventListener('change', onChange);
    onChange();
    return () => mql.removeEventListener('change', onChange);
  }, []);
  return isMobile;
}

/** The spec's scrolled flag: true once the page is scrolled more than 1 px. */
export function useIsScrolled(): boolean {
  const [scrolled, setScrolled] = useState(() => window.scrollY > SCROLL_THRESHOLD_PX);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > SCROLL_THRESHOLD_PX);
    window.addEventListener('scroll', onScroll, { passive: true });
    onScroll();
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return scrolled;
}
