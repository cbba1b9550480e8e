import { TOAST_AUTO_CLOSE_MS } from '#shared/platform/constants';
import { MOBILE_QUERY } from '#web/platform/lib/use-window-flags';
import { PHONE_TOAST_LIMIT } from '#web/platform/ui/toast-limit';

/*
 * The app's toasts (react-toastify, light theme, top right, newest on top, 20 s, closed by a click, at
 * most two at once on a phone: decision 026) for a public page's own script, without React: the same
 * markup react-toastify 11 writes, so the stylesheet it ships (already in the page) draws them alike.
 * The progress bar's CSS animation is the timer, as in react-toastify: it pauses while the pointer is
 * over the toast or the window has lost the focus, and the toast leaves when it ends.
 */

const ICONS = {
  success:
    'M12 0a12 12 0 1012 12A12.014 12.014 0 0012 0zm6.927 8.2l-6.845 9.289a1.011 1.011 0 01-1.43.188l-4.888-3.908a1 1 0 111.25-1.562l4.076 3.261 6.227-8.451a1 1 0 111.61 1.183z',
  error:
    'M11.983 0a12.206 12.206 0 00-8.51 3.653A11.8 11.8 0 000 12.207 11.779 11.779 0 0011.8 24h.214A12.111 12.111 0 0024 11.791 11.766 11.766 0 0011.983 0zM10.5 16.542a1.476 1.476 0 011.449-1.53h.027a1.527 1.527 0 011.523 1.47 1.475 1.475 0 01-1.449 1.53h-.027a1.529 1.529 0 01-1.523-1.47zM11 12.5v-6a1 1 0 012 0v6a1 1 0 11-2 0z',
};
const CLOSE_ICON =
  'M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z';

export type ToastKind = keyof typeof ICONS;

let container: HTMLElement | undefined;
/** The open toasts, oldest first, each with its progress bar. */
const open: HTMLElement[] = [];
const timers = new Map<HTMLElement, HTMLElement>();

function pause(toast: HTMLElement, paused: boolean): void {
  const progress = timers.get(toast);
  if (progress) progress.style.animationPlayState = paused ? 'paused' : 'running';
}

function element(tag: string, attributes: Record<string, string> = {}, children: (Node | string)[] = []): HTMLElement {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.append(...children);
  return made;
}

function svg(viewBox: string, path: string, attributes: Record<string, string>): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const icon = document.createElementNS(ns, 'svg');
  icon.setAttribute('viewBox', viewBox);
  for (const [name, value] of Object.entries(attributes)) icon.setAttribute(name, value);
  const shape = document.createElementNS(ns, 'path');
  shape.setAttribute('d', path);
  if (attributes['aria-hidden']) shape.setAttribute('fill-rule', 'evenodd');
  icon.append(shape);
  return icon;
}

function containerOfToasts(): HTMLElement {
  if (container?.isConnected) return container;
  // The window losing the focus pauses every toast (react-toastify's pauseOnFocusLoss).
  window.addEventListener('blur', () => {
    for (const toast of open) pause(toast, true);
  });
  window.addEventListener('focus', () => {
    for (const toast of open) pause(toast, false);
  });
  container = element('div', {
    tabindex: '-1',
    class: 'Toastify__toast-container Toastify__toast-container--top-right',
  });
  document.body.append(
    element(
      'section',
      {
        class: 'Toastify',
        'aria-live': 'polite',
        'aria-atomic': 'false',
        'aria-relevant': 'additions text',
        'aria-label': 'Notifications Alt+T',
      },
      [container],
    ),
  );
  return container;
}

/** Animates the toast out, then takes it away. */
function close(toast: HTMLElement): void {
  const at = open.indexOf(toast);
  if (at === -1) return;
  open.splice(at, 1);
  timers.delete(toast);
  toast.classList.remove('Toastify__bounce-enter--top-right');
  toast.classList.add('Toastify--animate', 'Toastify__bounce-exit--top-right');
  // The icon's and the progress bar's animations end on their own elements, and their events come up here.
  toast.addEventListener('animationend', (event) => {
    if (event.target === toast && toast.classList.contains('Toastify__bounce-exit--top-right')) toast.remove();
  });
}

/** Shows a toast with this text, as `toast.success(text)` or `toast.error(text)` does in the app. */
export function showToast(kind: ToastKind, text: string): void {
  const progress = element('div', {
    role: 'progressbar',
    'aria-hidden': 'false',
    'aria-label': 'notification timer',
    'aria-valuemin': '0',
    'aria-valuemax': '100',
    class: `Toastify__progress-bar Toastify__progress-bar--animated Toastify__progress-bar-theme--light Toastify__progress-bar--${kind}`,
    style: `animation-duration: ${TOAST_AUTO_CLOSE_MS}ms; animation-play-state: running;`,
  });
  const toast = element(
    'div',
    {
      tabindex: '0',
      'data-in': 'true',
      role: 'alert',
      class: `Toastify__toast Toastify__toast-theme--light Toastify__toast--${kind} Toastify__toast--close-on-click Toastify--animate Toastify__bounce-enter--top-right`,
    },
    [
      element('div', { class: 'Toastify__toast-icon Toastify--animate-icon Toastify__zoom-enter' }, [
        svg('0 0 24 24', ICONS[kind], {
          width: '100%',
          height: '100%',
          fill: `var(--toastify-icon-color-${kind})`,
        }),
      ]),
      text,
      element(
        'button',
        { class: 'Toastify__close-button Toastify__close-button--light', type: 'button', 'aria-label': 'close' },
        [svg('0 0 14 16', CLOSE_ICON, { 'aria-hidden': 'true' })],
      ),
      element('div', { class: 'Toastify__progress-bar--wrp', 'data-hidden': 'false' }, [
        element('div', {
          class: `Toastify__progress-bar--bg Toastify__progress-bar-theme--light Toastify__progress-bar--${kind}`,
        }),
        progress,
      ]),
    ],
  );
  toast.addEventListener('animationend', (event) => {
    if (event.target === toast && toast.classList.contains('Toastify__bounce-enter--top-right')) {
      toast.classList.remove('Toastify--animate', 'Toastify__bounce-enter--top-right');
    }
  });
  progress.addEventListener('animationend', () => close(toast));
  toast.addEventListener('click', () => close(toast));
  toast.addEventListener('mouseenter', () => pause(toast, true));
  toast.addEventListener('mouseleave', () => pause(toast, false));

  containerOfToasts().prepend(toast);
  open.push(toast);
  timers.set(toast, progress);
  if (window.matchMedia(MOBILE_QUERY).matches) {
    while (open.length > PHONE_TOAST_LIMIT) {
      const oldest = open[0];
      if (oldest) close(oldest);
    }
  }
}
