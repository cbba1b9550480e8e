/**
 * Class names of the back-office screens (agenda, notas and records editors): one look for buttons,
 * fields, badges and cards, the same as the rest of /admin.
 */
const focus = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand';
const button = `inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2 font-semibold transition-colors disabled:cursor-not-allowed ${focus}`;
// A disabled button is greyed by its colours, never by opacity: its text keeps at least 4.5:1.
const filledOff = 'disabled:bg-stone-300 disabled:text-stone-900';
const outlinedOff = 'disabled:border-stone-300 disabled:bg-stone-100 disabled:text-stone-700';

export const buttonClass = {
  primary: `${button} bg-brand text-white hover:bg-brand-dark ${filledOff}`,
  secondary: `${button} border-2 border-stone-300 bg-white text-stone-800 hover:border-stone-500 hover:bg-stone-50 ${outlinedOff}`,
  danger: `${button} bg-red-700 text-white hover:bg-red-800 ${filledOff}`,
  /** Compact actions on a card. */
  small: `inline-flex min-h-10 items-center justify-center gap-1 rounded-lg border border-stone-300 bg-white px-3 py-1.5 text-sm font-semibold text-stone-800 hover:border-brand hover:text-brand disabled:cursor-not-allowed ${outlinedOff} ${focus}`,
} as const;

export const inputClass =
  'block w-full min-h-11 rounded-lg border-2 border-stone-300 bg-white px-3 py-2 text-base text-stone-900 placeholder:text-stone-500 focus:border-brand focus:outline-none focus-visible:ring-2 focus-visible:ring-brand/30 aria-[invalid=true]:border-red-700';

export const labelClass = 'font-semibold text-stone-800';

export const badgeClass = {
  neutral: 'inline-flex items-center rounded-full bg-stone-100 px-2.5 py-0.5 text-sm font-medium text-stone-800',
  brand: 'inline-flex items-center rounded-full bg-brand-light px-2.5 py-0.5 text-sm font-semibold text-brand-dark',
  danger: 'inline-flex items-center rounded-full bg-red-100 px-2.5 py-0.5 text-sm font-semibold text-red-900',
  ok: 'inline-flex items-center rounded-full bg-emerald-100 px-2.5 py-0.5 text-sm font-semibold text-emerald-900',
} as const;

export const cardClass = 'rounded-xl border border-stone-200 bg-white p-4 shadow-sm';
