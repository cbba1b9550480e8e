import type { MenuEntry } from '#shared/platform/session';
import { paths } from '#web/platform/paths';

/** What every visitor may open. Staff entries come from the session (the server decides them). */
export const PUBLIC_MENU: MenuEntry[] = [
  { title: 'Inicio', path: paths.home },
  { title: 'Agenda', path: paths.agenda },
  { title: 'Notas', path: paths.notas },
];
