import type { AgendaToday } from '#shared/features/agenda/agenda';
import { messages } from '#shared/platform/messages';
import { agendaAsText } from '#web/features/agenda/agenda-text';
import { copyToClipboard } from '#web/platform/lib/copy-to-clipboard';
import { showToast } from './toasts';

/**
 * 'Copiar agenda' without the app: the same text from the same agenda (the answer the page carries) and
 * the same toasts as the agenda page's own button.
 */
export function wireCopyAgenda(button: HTMLButtonElement, agenda: AgendaToday, signal: AbortSignal): void {
  button.addEventListener(
    'click',
    async () => {
      try {
        await copyToClipboard(agendaAsText(agenda));
        showToast('success', messages.agenda.copied);
      } catch {
        showToast('error', messages.agenda.copyFailed);
      }
    },
    { signal },
  );
}
