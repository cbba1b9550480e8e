// The script of the public pages rendered by the server (/, /agenda, /notas): the page is already on
// screen and readable ('Ver más...' is a native <details>); this makes the rest of it work without the
// app (docs/decisions/065): the menu, 'Copiar agenda' and its toasts, 'Cargar más notas', the notas
// that were still loading when the page was rendered, the navbar's scrolled style and the login icon. Someone signed in (or with votes waiting on this phone) gets the
// app itself, which takes the page over. A visitor's phone only downloads the app's code when idle.
import { SCROLL_THRESHOLD_PX } from '#shared/platform/constants';
import type { Session } from '#shared/platform/session';
import { appCodeOf, fetchAppWhenIdle, startApp } from '#web/app/public/app-code';
import { wireCopyAgenda } from '#web/app/public/copy-agenda';
import { wireMenu } from '#web/app/public/menu';
import { wireMoreNotas } from '#web/app/public/more-notas';
import { showNotasWhenTheyArrive } from '#web/app/public/notas-arrival';
import { readPublicData } from '#web/app/public/page-data';
import { PUBLIC_TEMPLATES } from '#web/app/public/template-ids';
import { hasUnsentHint } from '#web/features/records/device/device-hints';
import { apiFetch } from '#web/platform/lib/api-client';

const data = readPublicData(document);
const code = appCodeOf(document.querySelector('script[data-app-module]'));
// Everything this script does stops when the app takes over.
const handOver = new AbortController();
const { signal } = handOver;

const header = document.querySelector('header[data-scrolled]');
if (header) {
  const mark = () => header.setAttribute('data-scrolled', String(window.scrollY > SCROLL_THRESHOLD_PX));
  mark();
  window.addEventListener('scroll', mark, { passive: true, signal });
}
const menuButton = document.querySelector<HTMLButtonElement>('button[data-action="open-menu"]');
if (menuButton) wireMenu(menuButton, signal);
const copyButton = document.querySelector<HTMLButtonElement>('button[data-action="copy-agenda"]');
if (copyButton && data?.agendaToday) wireCopyAgenda(copyButton, data.agendaToday, signal);
const moreButton = document.querySelector<HTMLButtonElement>('button[data-action="more-notas"]');
if (moreButton && data?.notas) wireMoreNotas(moreButton, data.notas, signal);
if (data?.notas) showNotasWhenTheyArrive(data.notas, signal);

/** Whether the server knows someone on this browser (a failed answer counts as nobody, as in the app). */
async function someoneSignedIn(): Promise<boolean> {
  try {
    return (await apiFetch<Session>('/api/auth/session')).user !== null;
  } catch {
    return false;
  }
}

// The navbar of someone signed in (their menu, 'Cerrar sesión', the votes waiting on the phone) and the
// installable app are the app's: it runs the page for them. Everybody else has a public page.
if (code && (hasUnsentHint() || (await someoneSignedIn()))) {
  handOver.abort();
  startApp(code);
} else {
  const login = document.getElementById(PUBLIC_TEMPLATES.login);
  if (menuButton && login instanceof HTMLTemplateElement) menuButton.before(login.content.cloneNode(true));
  // Tests (and anyone watching) know from this mark that the page answers taps.
  document.documentElement.dataset.publicPage = 'ready';
  if (code) fetchAppWhenIdle(code);
}
