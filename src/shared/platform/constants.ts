/** Business constants from the product specification (section 9). */
export const TIME_ZONE = 'America/Caracas';
export const MOBILE_BREAKPOINT_PX = 1100;
export const SCROLL_THRESHOLD_PX = 1;
export const TOAST_AUTO_CLOSE_MS = 20_000;
export const RESULTS_POLL_MS = 5_000;
export const DEFAULT_RESULTS_DENOMINATOR = 5373;
export const RECORDS_PAGE_SIZE = 100;
export const PASSWORD_MIN_LENGTH = 6;
/** New passwords are longer than the spec's sign-in rule asks (docs/decisions/063); sign-in keeps 6. */
export const NEW_PASSWORD_MIN_LENGTH = 10;
/** A one-time password an admin made opens nothing after this many hours (docs/decisions/063). */
export const ONE_TIME_PASSWORD_HOURS = 72;
export const LOADING_COVER_COLOR = '#A31D1D';
export const CANDIDATE_CODES = ['FA', 'LC', 'NR'] as const;
export type CandidateCode = (typeof CANDIDATE_CODES)[number];
export const PHOTO_KINDS = ['gobernador', 'an', 'clez'] as const;
export type PhotoKind = (typeof PHOTO_KINDS)[number];
export const NOTAS_PAGE_SIZE = 10;

/**
 * While the server has no copy of the notas yet (read from WordPress after a start), an open page asks
 * again this often (by the state of the list it has), so it shows them once they arrive without the
 * person reloading it. Here rather than beside the notas' schemas: the public pages' own script takes
 * it, and zod stays out of that script.
 */
export const NOTAS_ASK_AGAIN_MS: Partial<Record<'ready' | 'stale' | 'loading' | 'unavailable', number>> = {
  loading: 5_000,
  unavailable: 30_000,
};
