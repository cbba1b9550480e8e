import type { Nota, NotasPage } from '#shared/features/notas/notas';
import { formatShortDate } from '#shared/platform/format';
import { apiFetch } from '#web/platform/lib/api-client';
import { PUBLIC_TEMPLATES } from './template-ids';
import { showToast } from './toasts';

/** One nota as the notas page draws it: the page's pattern (NotaCard's markup) filled in. */
function notaCard(pattern: HTMLTemplateElement, nota: Nota): Node {
  const card = pattern.content.cloneNode(true) as DocumentFragment;
  const picture = card.querySelector('img');
  if (picture && nota.imageUrl) {
    picture.src = nota.imageUrl;
    picture.alt = nota.imageAlt ?? '';
  } else picture?.remove();
  const title = card.querySelector('h2');
  if (title) title.textContent = nota.title;
  const date = card.querySelector('time');
  if (date) {
    date.dateTime = nota.publishedAt;
    date.textContent = formatShortDate(nota.publishedAt);
  }
  const content = card.querySelector('.nota-content');
  // Sanitised by the server, as for the app's dangerouslySetInnerHTML.
  if (content) content.innerHTML = nota.contentHtml;
  return card;
}

/**
 * 'Cargar más notas' without the app: asks the API for the next page, as the app does, adds its notas at
 * the end of the list and goes away after the last page. A failure says why in a toast and leaves the
 * button there to try again.
 */
export function wireMoreNotas(button: HTMLButtonElement, first: NotasPage, signal: AbortSignal): void {
  const pattern = document.getElementById(PUBLIC_TEMPLATES.nota);
  const list = document.querySelector('[data-notas-list]');
  if (!(pattern instanceof HTMLTemplateElement) || !list) return;
  let last = first;
  const label = button.textContent;

  button.addEventListener(
    'click',
    async () => {
      if (button.disabled) return;
      button.disabled = true;
      button.textContent = 'Cargando…';
      try {
        const next = await apiFetch<NotasPage>(`/api/notas?page=${last.page + 1}&pageSize=${first.pageSize}`);
        list.append(...next.items.map((nota) => notaCard(pattern, nota)));
        last = next;
        if (last.page >= last.totalPages) button.parentElement?.remove();
      } catch (error) {
        showToast('error', (error as Error).message);
      } finally {
        button.disabled = false;
        button.textContent = label;
      }
    },
    { signal },
  );
}
